//! Checker throughput on large outputs, and the heap a check takes: the built-in checkers
//! compare slices in place, so memory should stay a fraction of the output.

use std::alloc::{GlobalAlloc, Layout, System};
use std::fmt::Write as _;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use harness::check::{check, CaseFiles, Checker};
use harness::verdict::Verdict;

use crate::stats::median;
use crate::Target;

/// Size of the generated outputs.
const SIZE: usize = 10 << 20;
/// What the checkers must sustain on large outputs.
const TARGET_MB_PER_S: f64 = 200.0;

/// The system allocator, counting the bytes live and the highest count since the last reset.
pub struct CountingAllocator {
    live: AtomicUsize,
    peak: AtomicUsize,
}

impl CountingAllocator {
    pub const fn new() -> Self {
        CountingAllocator {
            live: AtomicUsize::new(0),
            peak: AtomicUsize::new(0),
        }
    }

    /// Starts a new peak from what is live now; returns that.
    fn reset_peak(&self) -> usize {
        let live = self.live.load(Ordering::SeqCst);
        self.peak.store(live, Ordering::SeqCst);
        live
    }

    fn peak(&self) -> usize {
        self.peak.load(Ordering::SeqCst)
    }

    fn grew(&self, bytes: usize) {
        let live = self.live.fetch_add(bytes, Ordering::SeqCst) + bytes;
        self.peak.fetch_max(live, Ordering::SeqCst);
    }
}

// SAFETY: every call is passed on to the system allocator unchanged; only counters are added.
unsafe impl GlobalAlloc for CountingAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract is passed on as it is.
        let pointer = unsafe { System.alloc(layout) };
        if !pointer.is_null() {
            self.grew(layout.size());
        }
        pointer
    }

    unsafe fn dealloc(&self, pointer: *mut u8, layout: Layout) {
        // SAFETY: as above.
        unsafe { System.dealloc(pointer, layout) };
        self.live.fetch_sub(layout.size(), Ordering::SeqCst);
    }

    unsafe fn realloc(&self, pointer: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: as above.
        let moved = unsafe { System.realloc(pointer, layout, new_size) };
        if !moved.is_null() {
            self.live.fetch_sub(layout.size(), Ordering::SeqCst);
            self.grew(new_size);
        }
        moved
    }
}

struct Input {
    name: &'static str,
    about: &'static str,
    checker: Checker,
    /// What the check must say: most are accepted, one shows a wrong answer's cost.
    verdict: Verdict,
    output: Vec<u8>,
    answer: Vec<u8>,
}

pub fn run(repeats: usize, targets: &mut Vec<Target>) -> String {
    let inputs = inputs();
    let case = CaseFiles {
        input: Path::new("/dev/null"),
        answer: Path::new("/dev/null"),
    };
    let rounds = repeats.max(5);
    let mut text = String::from("## Checkers on large outputs\n\n");
    writeln!(
        text,
        "Median of {rounds} checks of a ~10 MB output against its answer (both in memory: \
         what the judge holds after a run); all are accepted but the last. Heap: the most the \
         check allocated at once, beyond the output and answer.\n\n\
         | checker | data | output (MB) | time (ms) | MB/s | heap (MB) | heap ÷ output |\n\
         | --- | --- | --: | --: | --: | --: | --: |"
    )
    .unwrap();
    for input in &inputs {
        eprintln!("checker: {}", input.name);
        let mut seconds = Vec::new();
        let mut heap = 0;
        // One untimed check first: page faults of the fresh buffers are not the checker's.
        for round in 0..=rounds {
            let before = crate::ALLOCATOR.reset_peak();
            let started = Instant::now();
            let result = check(&input.checker, &case, &input.output, &input.answer);
            let elapsed = started.elapsed().as_secs_f64();
            heap = heap.max(crate::ALLOCATOR.peak() - before);
            assert_eq!(
                result.verdict, input.verdict,
                "{}: {}",
                input.name, result.reason
            );
            if round > 0 {
                seconds.push(elapsed);
            }
        }
        let megabytes = input.output.len() as f64 / 1e6;
        let time = median(&seconds);
        let speed = megabytes / time;
        writeln!(
            text,
            "| {} | {} | {:.1} | {:.1} | {:.0} | {:.2} | {:.2} |",
            input.name,
            input.about,
            megabytes,
            time * 1e3,
            speed,
            heap as f64 / 1e6,
            heap as f64 / input.output.len() as f64
        )
        .unwrap();
        if input.verdict == Verdict::Accepted
            && matches!(input.checker, Checker::Tokens | Checker::UnorderedBlocks)
        {
            targets.push(Target {
                what: format!("{} checker ≥ {TARGET_MB_PER_S:.0} MB/s", input.name),
                measured: format!("{speed:.0} MB/s"),
                met: speed >= TARGET_MB_PER_S,
            });
        }
    }
    text
}

fn inputs() -> Vec<Input> {
    // Pairs of numbers, as most problems print.
    let mut numbers = String::new();
    let mut i: u64 = 0;
    while numbers.len() < SIZE {
        writeln!(numbers, "{} {}", i * 7919 % 1_000_003, i).unwrap();
        i += 1;
    }
    // Decimals written with a trailing zero in the output: every token pair is parsed.
    let mut decimals = String::new();
    let mut padded = String::new();
    let mut i: u64 = 0;
    while padded.len() < SIZE {
        let value = (i * 7919 % 1_000_003) as f64 / 64.0;
        writeln!(decimals, "{value}").unwrap();
        writeln!(padded, "{value:.7}").unwrap();
        i += 1;
    }
    // 8×8 boards, printed in the reverse order of the answer.
    let mut boards = Vec::new();
    let mut n: u64 = 0;
    let mut total = 0;
    while total < SIZE {
        let mut board = String::new();
        for row in 0..8 {
            let column = (n >> (row * 3)) as usize % 8;
            for c in 0..8 {
                board.push(if c == column { 'Q' } else { '.' });
            }
            board.push('\n');
        }
        total += board.len() + 1;
        boards.push(board);
        n += 1;
    }
    let board_answer = boards.join("\n");
    boards.reverse();
    let board_output = boards.join("\n");

    let numbers = numbers.into_bytes();
    vec![
        Input {
            name: "tokens",
            about: "two integers a line",
            checker: Checker::Tokens,
            verdict: Verdict::Accepted,
            output: numbers.clone(),
            answer: numbers.clone(),
        },
        Input {
            name: "lines",
            about: "two integers a line",
            checker: Checker::Lines,
            verdict: Verdict::Accepted,
            output: numbers.clone(),
            answer: numbers.clone(),
        },
        Input {
            name: "exact",
            about: "two integers a line",
            checker: Checker::Exact,
            verdict: Verdict::Accepted,
            output: numbers.clone(),
            answer: numbers,
        },
        Input {
            name: "float",
            about: "one decimal a line, written differently",
            checker: Checker::Float {
                absolute: 1e-6,
                relative: 1e-6,
            },
            verdict: Verdict::Accepted,
            output: padded.into_bytes(),
            answer: decimals.into_bytes(),
        },
        Input {
            name: "unordered-blocks",
            about: "8×8 boards in reverse order",
            checker: Checker::UnorderedBlocks,
            verdict: Verdict::Accepted,
            output: board_output.into_bytes(),
            answer: board_answer.into_bytes(),
        },
        // A wrong program printing millions of one-character blocks: the number of blocks is
        // the program's to choose, so what the check holds must not grow with it.
        Input {
            name: "unordered-blocks",
            about: "wrong: 3.5 million one-line blocks, answer has one",
            checker: Checker::UnorderedBlocks,
            verdict: Verdict::WrongAnswer,
            output: "1\n\n".repeat(SIZE / 3).into_bytes(),
            answer: b"1\n".to_vec(),
        },
    ]
}
