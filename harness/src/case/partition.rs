//! `--partition K/N`: the K-th of N stable slices of the cases, so a CI matrix can spread a
//! large suite over several machines and merge their JUnit files, as nextest does for tests.
//!
//! A case's slice depends only on its own name (a fixed hash of `problem/case`), not on its
//! place in a list: adding or removing cases never moves the others to another machine.

use std::fmt;
use std::str::FromStr;

use super::discover::Case;

/// One slice of N: `index` counts from 1, as people write `--partition 1/3`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Partition {
    pub index: u32,
    pub count: u32,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "`{text}` is not a partition: {why} (hint: write K/N with 1 <= K <= N, like `--partition 2/3`)"
)]
pub struct BadPartition {
    text: String,
    why: &'static str,
}

impl FromStr for Partition {
    type Err = BadPartition;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let bad = |why| BadPartition {
            text: text.to_string(),
            why,
        };
        let (index, count) = text.split_once('/').ok_or_else(|| bad("no `/`"))?;
        let index: u32 = index.trim().parse().map_err(|_| bad("K is not a number"))?;
        let count: u32 = count.trim().parse().map_err(|_| bad("N is not a number"))?;
        if count == 0 {
            return Err(bad("N is zero"));
        }
        if index == 0 || index > count {
            return Err(bad("K is out of 1..=N"));
        }
        Ok(Partition { index, count })
    }
}

impl fmt::Display for Partition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl Partition {
    /// Whether the case `case` of `problem` belongs to this slice.
    pub fn contains(self, problem: &str, case: &str) -> bool {
        let slot = stable_hash(problem, case) % u64::from(self.count);
        slot == u64::from(self.index - 1)
    }

    /// Keeps the cases of `problem` that belong to this slice.
    pub fn retain_cases(self, problem: &str, cases: &mut Vec<Case>) {
        cases.retain(|case| self.contains(problem, &case.name));
    }
}

/// FNV-1a over `problem/case`. Written out rather than taken from `std::hash`, whose
/// algorithm may change between Rust versions: machines of one CI matrix built by different
/// toolchains must still agree on the slices.
fn stable_hash(problem: &str, case: &str) -> u64 {
    const OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
    const PRIME: u64 = 0x0000_0100_0000_01b3;
    let mut hash = OFFSET;
    for byte in problem.bytes().chain([b'/']).chain(case.bytes()) {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(PRIME);
    }
    // FNV's low bits mix poorly for inputs that differ only in their last byte (`all-001`,
    // `all-002`); fold the high half in so that `% N` sees all of them.
    hash ^ (hash >> 32)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(count: usize) -> Vec<String> {
        (0..count).map(|i| format!("all-{i:03}")).collect()
    }

    #[test]
    fn parsing() {
        assert_eq!(
            "2/3".parse::<Partition>(),
            Ok(Partition { index: 2, count: 3 })
        );
        assert_eq!("1/1".parse::<Partition>().unwrap().to_string(), "1/1");
        for bad in ["0/3", "4/3", "1/0", "3", "a/3", "1/b", ""] {
            let error = bad.parse::<Partition>().unwrap_err().to_string();
            assert!(error.contains(&format!("`{bad}`")), "{error}");
            assert!(error.contains("hint"), "{error}");
        }
    }

    #[test]
    fn slices_cover_every_case_exactly_once() {
        let cases = names(651);
        for count in 1..=5 {
            let mut seen = vec![0; cases.len()];
            for index in 1..=count {
                let partition = Partition { index, count };
                for (i, case) in cases.iter().enumerate() {
                    if partition.contains("king-queens", case) {
                        seen[i] += 1;
                    }
                }
            }
            assert!(seen.iter().all(|&n| n == 1), "count {count}");
        }
    }

    #[test]
    fn slices_are_roughly_even() {
        let cases = names(651);
        for index in 1..=3 {
            let partition = Partition { index, count: 3 };
            let size = cases
                .iter()
                .filter(|c| partition.contains("king-queens", c))
                .count();
            assert!((170..=265).contains(&size), "slice {index}: {size}");
        }
    }

    #[test]
    fn adding_cases_moves_no_other_case() {
        let partition = Partition { index: 2, count: 4 };
        let before: Vec<bool> = names(100)
            .iter()
            .map(|c| partition.contains("p", c))
            .collect();
        let after: Vec<bool> = names(300)
            .iter()
            .map(|c| partition.contains("p", c))
            .collect();
        assert_eq!(before[..], after[..100]);
    }

    #[test]
    fn the_hash_is_fixed() {
        // Changing this number reshuffles every CI matrix: do it on purpose or not at all.
        assert_eq!(stable_hash("king-queens", "all-001"), 0xc365_f42f_0c34_6acb);
    }
}
