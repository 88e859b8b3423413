//! The built-in shrinker, for problems without a shrink command: it sees an input as lines of
//! whitespace-separated tokens and offers smaller ones, largest cut first: drop blocks of
//! lines, drop blocks of tokens; then it names each number, for [`shrink`](super::shrink) to
//! bring down (by bisection; small ones to every smaller value), equal numbers together first,
//! then each alone.
//!
//! It knows nothing of the statement. The one structure it keeps is a first line holding only
//! a count: of the lines below it (`n`, then n lines) or of the items on the next line (`n`,
//! then n numbers), which it rewrites when it drops lines or items, so that the validator
//! still accepts; other counts (a `n m` header) it cannot know, so candidates that break them
//! are left to the validator (or to the reference, if it rejects them).

use std::ops::Range;

use super::shrink::{Candidates, Failure, Ladder};

/// The built-in shrinker, as [`shrink`](super::shrink::shrink) asks for one.
#[derive(Debug, Default)]
pub struct Tokens;

impl<F: Failure, E> Candidates<F, E> for Tokens {
    fn round(&mut self, current: &F) -> Result<Vec<Vec<u8>>, E> {
        Ok(candidates(current.input()))
    }

    fn ladder(&mut self, current: &F, index: usize) -> Option<Ladder> {
        ladder(current.input(), index)
    }
}

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

/// Candidates smaller than `input` by lines or tokens, most promising (smallest) first; none
/// for an input that cannot lose any. Every candidate is strictly smaller by [`measure`], so
/// shrinking ends. Numbers are brought down by [`ladder`]s, not here.
pub fn candidates(input: &[u8]) -> Vec<Vec<u8>> {
    let lines = parse(input);
    let counted = counting(&lines);
    let start = measure(&lines);
    let mut out: Vec<Lines> = Vec::new();
    drop_lines(&lines, counted, &mut out);
    drop_tokens(&lines, counted, &mut out);

    let mut seen = std::collections::HashSet::new();
    out.into_iter()
        .filter(|candidate| measure(candidate) < start)
        .map(|candidate| render(&candidate))
        .filter(|bytes| bytes.as_slice() != input && seen.insert(bytes.clone()))
        .collect()
}

fn parse(input: &[u8]) -> Lines {
    String::from_utf8_lossy(input)
        .lines()
        .map(|line| line.split_whitespace().map(str::to_string).collect())
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
    let text: String = lines.iter().map(|line| line.join(" ") + "\n").collect();
    text.into_bytes()
}

/// Blocks of lines removed, the largest blocks first (halving, as delta debugging does); one
/// line at least stays. A counting first line stays, rewritten to the new count.
///
/// The blocks of one size split the lines evenly (1000 lines: two blocks of 500, then four
/// of 250), never into a large block and a small rest: a rest of one tried early would win
/// round after round and shrink the input by one line at a time.
fn drop_lines(lines: &Lines, counted: Counted, out: &mut Vec<Lines>) {
    // The items' line stays too: dropping its tokens shrinks it, with the count.
    let first = match counted {
        Counted::No => 0,
        Counted::Lines => 1,
        Counted::Items => 2,
    };
    for block in blocks(first, lines.len(), lines.len() - first) {
        let mut candidate: Lines = lines[..block.start].to_vec();
        candidate.extend_from_slice(&lines[block.end..]);
        recount(&mut candidate, counted);
        // An empty input is no test of anything.
        if !candidate.is_empty() {
            out.push(candidate);
        }
    }
}

/// The blocks of `from..len`, `size` long and then halved, rounded up so that the blocks of
/// one size split evenly, down to 1 (the last block of a size may be shorter).
fn blocks(from: usize, len: usize, size: usize) -> impl Iterator<Item = Range<usize>> {
    std::iter::successors(Some(size), |&size| (size > 1).then(|| size.div_ceil(2)))
        .filter(|&size| size >= 1)
        .flat_map(move |size| {
            (from..len)
                .step_by(size)
                .map(move |start| start..(start + size).min(len))
        })
}

/// Tokens removed from one line (blocks of them for long lines, the largest first); a line
/// is never emptied, which dropping the line does.
fn drop_tokens(lines: &Lines, counted: Counted, out: &mut Vec<Lines>) {
    for (index, line) in lines.iter().enumerate() {
        if (counted.any() && index == 0) || line.len() < 2 {
            continue;
        }
        // Halves first: the line is never emptied, which dropping the line does.
        for block in blocks(0, line.len(), line.len().div_ceil(2)) {
            if block.len() < line.len() {
                let mut candidate = lines.clone();
                candidate[index].drain(block);
                if counted == Counted::Items && index == 1 {
                    recount(&mut candidate, counted);
                }
                out.push(candidate);
            }
        }
    }
}

/// The `index`-th number of `input` to bring down, `None` past the last: first each value
/// that occurs more than once, all its places together (a bug of equal values, a duplicate
/// pair, stays one), then each number alone, in reading order. A counting first line is left
/// alone: its value is the structure. Zeros have nowhere to go.
pub fn ladder(input: &[u8], index: usize) -> Option<Ladder> {
    let lines = parse(input);
    let counted = counting(&lines);
    let rows = lines.iter().enumerate().skip(usize::from(counted.any()));
    let numbers: Vec<((usize, usize), i128)> = (rows.flat_map(|(row, line)| {
        (line.iter().enumerate()).filter_map(move |(column, token)| {
            let value = token.parse::<i128>().ok().filter(|value| *value != 0)?;
            Some(((row, column), value))
        })
    }))
    .collect();
    // In order of first appearance; the map only finds a value's group.
    let mut repeated: Vec<(i128, Vec<(usize, usize)>)> = Vec::new();
    let mut group_of = std::collections::HashMap::new();
    for (place, value) in &numbers {
        let group = *group_of.entry(*value).or_insert_with(|| {
            repeated.push((*value, Vec::new()));
            repeated.len() - 1
        });
        repeated[group].1.push(*place);
    }
    repeated.retain(|(_, places)| places.len() > 1);
    let (value, places) = match repeated.get(index) {
        Some((value, places)) => (*value, places.clone()),
        None => {
            let (place, value) = *numbers.get(index - repeated.len())?;
            (value, vec![place])
        }
    };
    let negative = value < 0;
    Some(Ladder {
        top: value.unsigned_abs(),
        at: Box::new(move |magnitude| {
            let shown = if negative && magnitude > 0 {
                format!("-{magnitude}")
            } else {
                magnitude.to_string()
            };
            let mut candidate = lines.clone();
            for &(row, column) in &places {
                candidate[row][column].clone_from(&shown);
            }
            render(&candidate)
        }),
    })
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
        // Numbers are the ladders' to bring down.
        assert!(texts("1000\n").is_empty());
    }

    #[test]
    fn lines_then_tokens() {
        let all = texts("1 2\n3\n");
        // Both lines, then each line, then a token.
        assert_eq!(all, ["3\n", "1 2\n", "2\n3\n", "1\n3\n"]);
    }

    #[test]
    fn blocks_split_evenly() {
        // 1000 tokens: halves first, never 999 and a rest of 1.
        let line: Vec<String> = (1..=1000).map(|n| n.to_string()).collect();
        let all = texts(&format!("{}\n", line.join(" ")));
        let sizes: Vec<usize> = all[..6]
            .iter()
            .map(|c| c.split_whitespace().count())
            .collect();
        assert_eq!(sizes, [500, 500, 750, 750, 750, 750]);
    }

    #[test]
    fn a_counting_first_line_follows_the_lines_dropped() {
        let all = texts("3\n10\n20\n30\n");
        assert_eq!(&all[..4], ["0\n", "1\n30\n", "2\n10\n20\n", "2\n20\n30\n"]);
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
        assert!(all.contains(&"2\n30 40\n".to_string()), "{all:?}");
        assert!(all.contains(&"3\n10 20 30\n".to_string()), "{all:?}");
        // Lines after the items are free to go; a count that matches nothing is a number.
        let after = texts("3\n5 6 7\nextra\n");
        assert!(after.contains(&"3\n5 6 7\n".to_string()), "{after:?}");
        assert!(after.contains(&"2\n6 7\nextra\n".to_string()), "{after:?}");
        assert!(texts("3\n5 6\n").contains(&"3\n6\n".to_string()));
    }

    fn ladder_text(input: &str, index: usize, value: u128) -> Option<(u128, String)> {
        let ladder = ladder(input.as_bytes(), index)?;
        Some((ladder.top, String::from_utf8((ladder.at)(value)).unwrap()))
    }

    #[test]
    fn ladders_move_equal_numbers_together_then_each_alone() {
        let input = "3 7 3\n0 -5\n";
        let rows = [
            (0, Some((3, "1 7 1\n0 -5\n"))),
            (1, Some((3, "1 7 3\n0 -5\n"))),
            (2, Some((7, "3 1 3\n0 -5\n"))),
            (3, Some((3, "3 7 1\n0 -5\n"))),
            // The sign is kept; the zero has no ladder.
            (4, Some((5, "3 7 3\n0 -1\n"))),
            (5, None),
        ];
        for (index, expected) in rows {
            let got = ladder_text(input, index, 1);
            let got = got.as_ref().map(|(top, text)| (*top, text.as_str()));
            assert_eq!(got, expected, "ladder {index}");
        }
        assert_eq!(ladder_text("-5\n", 0, 0).unwrap().1, "0\n");
        // A counting first line is the structure, not a number to bring down.
        assert_eq!(
            ladder_text("2\n5\n6\n", 0, 4).unwrap(),
            (5, "2\n4\n6\n".into())
        );
    }

    /// A failure of the token shrinker's tests: the input, always the same verdict.
    #[derive(Debug, Clone)]
    struct Fails(Vec<u8>);

    impl Failure for Fails {
        fn input(&self) -> &[u8] {
            &self.0
        }
        fn verdict(&self) -> crate::verdict::Verdict {
            crate::verdict::Verdict::WrongAnswer
        }
    }

    /// Shrinks `start` with the built-in shrinker under `fails`, which sees the numbers of
    /// each line; returns the minimal input and the runs it took.
    fn shrunk(start: &str, fails: impl Fn(&[Vec<i128>]) -> bool) -> (String, usize) {
        let numbers = |input: &[u8]| -> Option<Vec<Vec<i128>>> {
            String::from_utf8_lossy(input)
                .lines()
                .map(|line| line.split_whitespace().map(|t| t.parse().ok()).collect())
                .collect()
        };
        assert!(fails(&numbers(start.as_bytes()).unwrap()), "{start}");
        let shrunk = super::super::shrink::shrink(
            Fails(start.as_bytes().to_vec()),
            &mut Tokens,
            |input| {
                Ok::<_, ()>(
                    numbers(input)
                        .filter(|lines| fails(lines))
                        .map(|_| Fails(input.to_vec())),
                )
            },
            |_| None,
        )
        .unwrap();
        assert_eq!(shrunk.stopped, None);
        (String::from_utf8(shrunk.minimal.0).unwrap(), shrunk.tried)
    }

    #[test]
    fn an_overflow_shrinks_to_a_minimal_pair_in_few_runs() {
        // `a b c`, each at least 1 (what the validator would say), wrong when a * b does not
        // fit in 32 bits.
        let overflows = |lines: &[Vec<i128>]| match lines {
            [line] if line.len() == 3 && line.iter().all(|v| *v >= 1) => {
                line[0] * line[1] > i128::from(i32::MAX)
            }
            _ => false,
        };
        let (minimal, runs) = shrunk("148994384 805819538 5687\n", overflows);
        let numbers: Vec<i128> = minimal
            .split_whitespace()
            .map(|t| t.parse().unwrap())
            .collect();
        assert!(overflows(std::slice::from_ref(&numbers)), "{minimal}");
        assert_eq!(numbers[2], 1, "{minimal}");
        for index in 0..3 {
            let mut lower = numbers.clone();
            lower[index] -= 1;
            assert!(!overflows(&[lower]), "{minimal} is not minimal at {index}");
        }
        assert!(runs < 300, "{runs} runs");
    }

    #[test]
    fn a_list_with_a_triple_shrinks_to_the_triple() {
        // `n`, then n numbers from 1 to 100: wrong (a buggy count of equal pairs) when a
        // value occurs three times or more.
        let triple = |lines: &[Vec<i128>]| match lines {
            [count, items] if count.len() == 1 && count[0] == items.len() as i128 => {
                items.iter().all(|v| (1..=100).contains(v))
                    && items
                        .iter()
                        .any(|v| items.iter().filter(|w| *w == v).count() >= 3)
            }
            _ => false,
        };
        let mut state = 12345_u64;
        let items: Vec<String> = (0..1000)
            .map(|_| {
                state = state
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                ((state >> 33) % 100 + 1).to_string()
            })
            .collect();
        let start = format!("1000\n{}\n", items.join(" "));
        let (minimal, runs) = shrunk(&start, triple);
        assert_eq!(minimal, "3\n1 1 1\n");
        assert!(runs < 1000, "{runs} runs");
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
