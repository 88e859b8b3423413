//! The built-in shrinker, for problems without a shrink command: it sees an input as lines of
//! whitespace-separated tokens and offers smaller ones, largest cut first: drop blocks of
//! lines, drop tokens, bring numbers toward 0 and 1.
//!
//! It knows nothing of the statement. The one structure it keeps is a first line holding only
//! a count: of the lines below it (`n`, then n lines) or of the items on the next line (`n`,
//! then n numbers), which it rewrites when it drops lines or items, so that the validator
//! still accepts; other counts (a `n m` header) it cannot know, so candidates that break them
//! are left to the validator (or to the reference, if it rejects them).

/// An input as lines of tokens.
type Lines = Vec<Vec<String>>;

/// The one structure the shrinker keeps: a first line holding only a count.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Counted {
    /// No count it knows.
    No,
    /// The count of the lines below it (`n`, then n lines).
    Lines,
    /// The count of the tokens on the line below it (`n`, then n items on one line).
    Items,
}

impl Counted {
    fn any(self) -> bool {
        self != Counted::No
    }
}

/// Candidates smaller than `input`, most promising (smallest) first; none for an input that
/// cannot shrink. Every candidate is strictly smaller by [`measure`], so shrinking ends.
pub fn candidates(input: &[u8]) -> Vec<Vec<u8>> {
    let text = String::from_utf8_lossy(input);
    let lines: Lines = text
        .lines()
        .map(|line| line.split_whitespace().map(str::to_string).collect())
        .collect();
    let counted = counting(&lines);
    let start = measure(&lines);
    let mut out: Vec<Lines> = Vec::new();
    drop_lines(&lines, counted, &mut out);
    drop_tokens(&lines, counted, &mut out);
    shrink_numbers(&lines, counted, &mut out);

    let mut seen = std::collections::HashSet::new();
    out.into_iter()
        .filter(|candidate| measure(candidate) < start)
        .map(|candidate| render(&candidate))
        .filter(|bytes| bytes.as_slice() != input && seen.insert(bytes.clone()))
        .collect()
}

/// What the first line counts, when it is a lone number equal to the count of the lines below
/// it, or of the items on the next line.
fn counting(lines: &Lines) -> Counted {
    let Some([count]) = lines.first().map(Vec::as_slice) else {
        return Counted::No;
    };
    let Ok(count) = count.parse::<usize>() else {
        return Counted::No;
    };
    if count == lines.len() - 1 {
        Counted::Lines
    } else if count >= 2 && lines.get(1).is_some_and(|items| items.len() == count) {
        Counted::Items
    } else {
        Counted::No
    }
}

/// The count on the first line set to what it counts now.
fn recount(candidate: &mut Lines, counted: Counted) {
    match counted {
        Counted::Lines => candidate[0] = vec![(candidate.len() - 1).to_string()],
        Counted::Items => candidate[0] = vec![candidate[1].len().to_string()],
        Counted::No => {}
    }
}

/// Size first (tokens, then characters), then how far the numbers are from 0.
fn measure(lines: &Lines) -> (usize, usize, u128) {
    let tokens = lines.iter().map(Vec::len).sum();
    let chars = lines.iter().flatten().map(String::len).sum();
    let magnitude = lines
        .iter()
        .flatten()
        .filter_map(|t| t.parse::<i128>().ok())
        .map(i128::unsigned_abs)
        .fold(0u128, u128::saturating_add);
    (tokens, chars, magnitude)
}

fn render(lines: &Lines) -> Vec<u8> {
    let mut text = String::new();
    for line in lines {
        text.push_str(&line.join(" "));
        text.push('\n');
    }
    text.into_bytes()
}

/// Blocks of lines removed, the largest blocks first (halving, as delta debugging does); one
/// line at least stays. A counting first line stays, rewritten to the new count.
fn drop_lines(lines: &Lines, counted: Counted, out: &mut Vec<Lines>) {
    // The items' line stays too: dropping its tokens shrinks it, with the count.
    let first = match counted {
        Counted::No => 0,
        Counted::Lines => 1,
        Counted::Items => 2,
    };
    let body = lines.len() - first;
    let mut size = body;
    while size >= 1 {
        let mut start = first;
        while start < lines.len() {
            let end = (start + size).min(lines.len());
            let mut candidate: Lines = lines[..start].to_vec();
            candidate.extend_from_slice(&lines[end..]);
            recount(&mut candidate, counted);
            // An empty input is no test of anything.
            if !candidate.is_empty() {
                out.push(candidate);
            }
            start += size;
        }
        size /= 2;
    }
}

/// Tokens removed from one line (blocks of them for long lines, the largest first); a line
/// is never emptied, which dropping the line does.
fn drop_tokens(lines: &Lines, counted: Counted, out: &mut Vec<Lines>) {
    for (index, line) in lines.iter().enumerate() {
        if (counted.any() && index == 0) || line.len() < 2 {
            continue;
        }
        let mut size = line.len() - 1;
        while size >= 1 {
            let mut start = 0;
            while start < line.len() {
                let end = (start + size).min(line.len());
                if end - start < line.len() {
                    let mut candidate = lines.clone();
                    candidate[index].drain(start..end);
                    if counted == Counted::Items && index == 1 {
                        recount(&mut candidate, counted);
                    }
                    out.push(candidate);
                }
                start += size;
            }
            size /= 2;
        }
    }
}

/// Values smaller than a small number that are all tried: a bug that needs n ≥ 5 is found at
/// n = 5, not stuck at 7 because 6 happens to pass.
const EVERY_VALUE_BELOW: u128 = 32;

/// Each integer brought toward 0 and 1: every smaller value for small numbers (smallest
/// first), else 0, 1, 2, an eighth, a quarter, half, one step. A counting first line is left
/// alone: its value is the structure.
fn shrink_numbers(lines: &Lines, counted: Counted, out: &mut Vec<Lines>) {
    for (row, line) in lines.iter().enumerate() {
        if counted.any() && row == 0 {
            continue;
        }
        for (column, token) in line.iter().enumerate() {
            let Ok(value) = token.parse::<i128>() else {
                continue;
            };
            let sign = value.signum();
            let magnitude = value.unsigned_abs();
            let smaller: Vec<i128> = if magnitude <= EVERY_VALUE_BELOW {
                (0..magnitude as i128).map(|m| m * sign).collect()
            } else {
                let step = value - sign;
                vec![0, 1, 2, value / 8, value / 4, value / 2, step]
            };
            for candidate_value in smaller {
                if candidate_value.unsigned_abs() < magnitude
                    || candidate_value == 1 && magnitude > 1
                {
                    let mut candidate = lines.clone();
                    candidate[row][column] = candidate_value.to_string();
                    out.push(candidate);
                }
            }
            // 1 is tried for negative numbers too: "toward 0 and 1".
            if value < -1 {
                let mut candidate = lines.clone();
                candidate[row][column] = "1".to_string();
                out.push(candidate);
            }
        }
    }
}

/// What one shrink step changed, for the log: `removed \`10 20\` (line 2), count 3 → 1`,
/// `\`1000\` → \`7\` (line 1)`. Any two inputs can be compared (a shrink command's too): by
/// tokens, their common start and end set aside.
pub fn describe_step(before: &[u8], after: &[u8]) -> String {
    let tokens = |bytes: &[u8]| -> Vec<(usize, String)> {
        String::from_utf8_lossy(bytes)
            .lines()
            .enumerate()
            .flat_map(|(line, text)| {
                text.split_whitespace()
                    .map(move |token| (line + 1, token.to_string()))
                    .collect::<Vec<_>>()
            })
            .collect()
    };
    let (mut old, mut new) = (tokens(before), tokens(after));
    let mut parts = Vec::new();
    // A count on the first line that changed with what it counts.
    let lone_first = |all: &[(usize, String)]| {
        (all.first()
            .is_some_and(|(line, t)| *line == 1 && t.parse::<usize>().is_ok())
            && all.get(1).is_some_and(|(line, _)| *line > 1))
        .then(|| all[0].1.clone())
    };
    if let (Some(was), Some(now)) = (lone_first(&old), lone_first(&new)) {
        if was != now {
            old.remove(0);
            new.remove(0);
            parts.push(format!("count {was} → {now}"));
        }
    }
    let prefix = old.iter().zip(&new).take_while(|(a, b)| a.1 == b.1).count();
    let suffix = old[prefix..]
        .iter()
        .rev()
        .zip(new[prefix..].iter().rev())
        .take_while(|(a, b)| a.1 == b.1)
        .count();
    let removed = &old[prefix..old.len() - suffix];
    let added = &new[prefix..new.len() - suffix];
    let shown = |tokens: &[(usize, String)]| {
        let words: Vec<&str> = tokens.iter().take(5).map(|(_, t)| t.as_str()).collect();
        let more = tokens.len().saturating_sub(5);
        let text = crate::text::cut(&words.join(" "), 40);
        if more > 0 {
            format!("`{text} …` ({} tokens)", tokens.len())
        } else {
            format!("`{text}`")
        }
    };
    let lines = |tokens: &[(usize, String)]| match (tokens.first(), tokens.last()) {
        (Some((first, _)), Some((last, _))) if first == last => format!("line {first}"),
        (Some((first, _)), Some((last, _))) => format!("lines {first}–{last}"),
        _ => String::new(),
    };
    let change = match (removed.is_empty(), added.is_empty()) {
        (true, true) => None,
        (false, true) => Some(format!("removed {} ({})", shown(removed), lines(removed))),
        (true, false) => Some(format!("added {}", shown(added))),
        (false, false) => Some(format!(
            "{} → {} ({})",
            shown(removed),
            shown(added),
            lines(removed)
        )),
    };
    parts.splice(0..0, change);
    if parts.is_empty() {
        // Only the spacing or the line breaks changed.
        return "the same tokens, spaced otherwise".to_string();
    }
    parts.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(input: &str) -> Vec<String> {
        candidates(input.as_bytes())
            .into_iter()
            .map(|c| String::from_utf8(c).unwrap())
            .collect()
    }

    #[test]
    fn nothing_left_to_shrink() {
        assert!(texts("").is_empty());
        assert!(texts("0\n").is_empty());
        assert!(texts("abc\n").is_empty());
    }

    #[test]
    fn numbers_go_toward_zero_and_one() {
        assert_eq!(
            texts("8\n"),
            ["0\n", "1\n", "2\n", "3\n", "4\n", "5\n", "6\n", "7\n"]
        );
        assert_eq!(texts("-3\n"), ["0\n", "-1\n", "-2\n", "1\n"]);
        assert_eq!(texts("2\n"), ["0\n", "1\n"]);
        assert_eq!(
            texts("1000\n"),
            ["0\n", "1\n", "2\n", "125\n", "250\n", "500\n", "999\n"]
        );
    }

    #[test]
    fn lines_then_tokens_then_numbers() {
        let all = texts("1 2\n3\n");
        // Both lines, then each line, then a token, then numbers.
        assert_eq!(&all[..2], ["3\n", "1 2\n"]);
        assert!(all.contains(&"2\n3\n".to_string()));
        assert!(all.contains(&"1 1\n3\n".to_string()));
    }

    #[test]
    fn a_counting_first_line_follows_the_lines_dropped() {
        let all = texts("3\n10\n20\n30\n");
        assert_eq!(
            &all[..4],
            ["0\n", "2\n20\n30\n", "2\n10\n30\n", "2\n10\n20\n"]
        );
        // The count is never shrunk on its own, nor dropped: it always says the lines below.
        for candidate in &all {
            let count: usize = candidate.lines().next().unwrap().parse().unwrap();
            assert_eq!(count, candidate.lines().count() - 1, "{candidate:?}");
        }
    }

    #[test]
    fn a_count_then_its_items_on_one_line_shrink_together() {
        let all = texts("4\n10 20 30 40\n");
        assert!(!all.is_empty());
        for candidate in &all {
            let mut lines = candidate.lines();
            let count: usize = lines.next().unwrap().parse().unwrap();
            let items = lines.next().map_or(0, |l| l.split_whitespace().count());
            assert_eq!(count, items, "{candidate:?}");
            assert_eq!(
                candidate.lines().count(),
                2,
                "the items' line stays: {candidate:?}"
            );
        }
        assert!(all.contains(&"1\n40\n".to_string()), "{all:?}");
        assert!(all.contains(&"3\n10 20 30\n".to_string()), "{all:?}");
        assert!(all.contains(&"4\n0 20 30 40\n".to_string()), "{all:?}");
        // Lines after the items are free to go; a count that matches nothing is a number.
        let after = texts("3\n5 6 7\nextra\n");
        assert!(after.contains(&"3\n5 6 7\n".to_string()), "{after:?}");
        assert!(after.contains(&"2\n6 7\nextra\n".to_string()), "{after:?}");
        assert!(texts("3\n5 6\n").contains(&"3\n6\n".to_string()));
    }

    #[test]
    fn each_step_says_what_it_removed() {
        let rows = [
            (
                "3\n10\n20\n30\n",
                "2\n20\n30\n",
                "removed `10` (line 2), count 3 → 2",
            ),
            (
                "4\n10 20 30 40\n",
                "2\n30 40\n",
                "removed `10 20` (line 2), count 4 → 2",
            ),
            ("1000\n", "7\n", "`1000` → `7` (line 1)"),
            ("1 2\n3 4\n5 6\n", "1 2\n", "removed `3 4 5 6` (lines 2–3)"),
            (
                "5 1 2 3 4 5 6 7\n",
                "5\n",
                "removed `1 2 3 4 5 …` (7 tokens) (line 1)",
            ),
            ("1  2\n", "1 2\n", "the same tokens, spaced otherwise"),
        ];
        for (before, after, expected) in rows {
            assert_eq!(
                describe_step(before.as_bytes(), after.as_bytes()),
                expected,
                "{before:?} → {after:?}"
            );
        }
    }

    #[test]
    fn shrinking_always_ends() {
        // Follow the first candidate until there is none: each is strictly smaller.
        let mut input = b"5\n100 -7 x\n3 3 3\n9\n1\n0\n".to_vec();
        for _ in 0..10_000 {
            match candidates(&input).into_iter().next() {
                Some(next) => input = next,
                None => return,
            }
        }
        panic!("still shrinking: {}", String::from_utf8_lossy(&input));
    }
}
