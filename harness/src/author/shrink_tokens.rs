//! The built-in shrinker, for problems without a shrink command: it sees an input as lines of
//! whitespace-separated tokens and offers smaller ones, largest cut first: drop blocks of
//! lines, drop tokens, bring numbers toward 0 and 1.
//!
//! It knows nothing of the statement. The one structure it keeps is a first line holding only
//! the number of lines below it (`n`, then n lines), which it rewrites when it drops lines;
//! other counts (a `n m` header, a length before a list) it cannot know, so candidates that
//! break them are left to the validator (or to the reference, if it rejects them).

/// An input as lines of tokens.
type Lines = Vec<Vec<String>>;

/// Candidates smaller than `input`, most promising (smallest) first; none for an input that
/// cannot shrink. Every candidate is strictly smaller by [`measure`], so shrinking ends.
pub fn candidates(input: &[u8]) -> Vec<Vec<u8>> {
    let text = String::from_utf8_lossy(input);
    let lines: Lines = text
        .lines()
        .map(|line| line.split_whitespace().map(str::to_string).collect())
        .collect();
    let counted = counts_lines_below(&lines);
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

/// Whether the first line is a lone number equal to the count of the lines below it.
fn counts_lines_below(lines: &Lines) -> bool {
    match lines.first().map(Vec::as_slice) {
        Some([count]) => count.parse::<usize>().ok() == Some(lines.len() - 1),
        _ => false,
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
fn drop_lines(lines: &Lines, counted: bool, out: &mut Vec<Lines>) {
    let first = usize::from(counted);
    let body = lines.len() - first;
    let mut size = body;
    while size >= 1 {
        let mut start = first;
        while start < lines.len() {
            let end = (start + size).min(lines.len());
            let mut candidate: Lines = lines[..start].to_vec();
            candidate.extend_from_slice(&lines[end..]);
            if counted {
                candidate[0] = vec![(candidate.len() - 1).to_string()];
            }
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
fn drop_tokens(lines: &Lines, counted: bool, out: &mut Vec<Lines>) {
    for (index, line) in lines.iter().enumerate() {
        if (counted && index == 0) || line.len() < 2 {
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
fn shrink_numbers(lines: &Lines, counted: bool, out: &mut Vec<Lines>) {
    for (row, line) in lines.iter().enumerate() {
        if counted && row == 0 {
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
