//! The transcript of an interactive run: the judge relays every byte between the submission
//! and the interactor, and records the lines as they pass, in the order they reached it, which
//! for a question-and-answer dialogue is the order they were said. It is bounded: the first
//! lines and the last lines are kept, each cut to a readable width, and the rest counted.

use std::fmt;

/// Lines kept from the start of a dialogue: how it began (the problem's size, say).
const HEAD_LINES: usize = 8;
/// Lines kept from the end: where it went wrong is almost always there.
const TAIL_LINES: usize = 40;
/// Characters kept of one line.
const LINE_CHARS: usize = 160;
/// Bytes of a line being received that are kept before it is cut: a submission that prints
/// megabytes without a newline must not grow the judge's memory.
const PARTIAL_BYTES: usize = 4 * LINE_CHARS;

/// Who wrote a line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Speaker {
    /// `>` in the Kattis `.interaction` convention: the submission to the judge.
    Submission,
    /// `<`: the judge (interactor) to the submission.
    Interactor,
}

impl Speaker {
    /// The `.interaction` mark: `>` for the submission's lines, `<` for the interactor's.
    pub fn mark(self) -> char {
        match self {
            Speaker::Submission => '>',
            Speaker::Interactor => '<',
        }
    }
}

/// One line of the dialogue.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line {
    pub speaker: Speaker,
    /// Without its newline; cut to [`LINE_CHARS`] with `…`.
    pub text: String,
    /// False for the last line of a side that ended without a newline.
    pub complete: bool,
}

/// A bounded record of the dialogue.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Transcript {
    pub head: Vec<Line>,
    /// Lines between the head and the tail that were not kept.
    pub omitted: usize,
    pub tail: Vec<Line>,
    /// Bytes each side wrote: (submission, interactor).
    pub bytes: (u64, u64),
}

impl Transcript {
    /// Every kept line, in order, with `None` where lines were left out.
    pub fn lines(&self) -> impl Iterator<Item = Option<&Line>> {
        let gap = (self.omitted > 0).then_some(None);
        self.head
            .iter()
            .map(Some)
            .chain(gap)
            .chain(self.tail.iter().map(Some))
    }

    /// Total lines said, kept or not.
    pub fn len(&self) -> usize {
        self.head.len() + self.omitted + self.tail.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Who said the last complete line, if anyone did: the other side was expected to answer.
    pub fn last_speaker(&self) -> Option<Speaker> {
        self.tail
            .last()
            .or(self.head.last())
            .map(|line| line.speaker)
    }

    /// The `.interaction` form: one `>` or `<` line per line said, `…` where lines were left
    /// out. Lines already carry no newline.
    pub fn to_interaction(&self) -> String {
        let mut out = String::new();
        for line in self.lines() {
            match line {
                Some(line) => {
                    out.push(line.speaker.mark());
                    out.push_str(&line.text);
                    if !line.complete {
                        out.push_str(" (no newline)");
                    }
                }
                None => out.push_str(&format!("… {} lines left out", self.omitted)),
            }
            out.push('\n');
        }
        out
    }
}

impl fmt::Display for Transcript {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_interaction())
    }
}

/// Builds a [`Transcript`] from the chunks the relay moves, one partial line per side.
#[derive(Debug, Default)]
pub struct Recorder {
    transcript: Transcript,
    partial_submission: Vec<u8>,
    partial_interactor: Vec<u8>,
    /// Bytes of the line being received past [`PARTIAL_BYTES`], dropped.
    overflow: (bool, bool),
}

impl Recorder {
    pub fn new() -> Recorder {
        Recorder::default()
    }

    /// Records `bytes` written by `speaker`.
    pub fn record(&mut self, speaker: Speaker, bytes: &[u8]) {
        match speaker {
            Speaker::Submission => self.transcript.bytes.0 += bytes.len() as u64,
            Speaker::Interactor => self.transcript.bytes.1 += bytes.len() as u64,
        }
        let mut rest = bytes;
        while let Some(end) = rest.iter().position(|&b| b == b'\n') {
            self.extend_partial(speaker, &rest[..end]);
            self.finish_line(speaker, true);
            rest = &rest[end + 1..];
        }
        self.extend_partial(speaker, rest);
    }

    fn extend_partial(&mut self, speaker: Speaker, bytes: &[u8]) {
        let (partial, overflow) = match speaker {
            Speaker::Submission => (&mut self.partial_submission, &mut self.overflow.0),
            Speaker::Interactor => (&mut self.partial_interactor, &mut self.overflow.1),
        };
        let room = PARTIAL_BYTES.saturating_sub(partial.len());
        partial.extend_from_slice(&bytes[..bytes.len().min(room)]);
        *overflow |= bytes.len() > room;
    }

    fn finish_line(&mut self, speaker: Speaker, complete: bool) {
        let (partial, overflow) = match speaker {
            Speaker::Submission => (&mut self.partial_submission, &mut self.overflow.0),
            Speaker::Interactor => (&mut self.partial_interactor, &mut self.overflow.1),
        };
        let raw = String::from_utf8_lossy(partial);
        let raw = raw.strip_suffix('\r').unwrap_or(&raw);
        let mut text = crate::text::one_line(raw, LINE_CHARS);
        if *overflow && !text.ends_with('…') {
            text.push('…');
        }
        partial.clear();
        *overflow = false;
        let line = Line {
            speaker,
            text,
            complete,
        };
        let t = &mut self.transcript;
        if t.head.len() < HEAD_LINES {
            t.head.push(line);
            return;
        }
        if t.tail.len() == TAIL_LINES {
            t.tail.remove(0);
            t.omitted += 1;
        }
        t.tail.push(line);
    }

    /// Ends the record: a side's unfinished last line is kept, marked incomplete.
    pub fn finish(mut self) -> Transcript {
        for speaker in [Speaker::Submission, Speaker::Interactor] {
            let partial = match speaker {
                Speaker::Submission => &self.partial_submission,
                Speaker::Interactor => &self.partial_interactor,
            };
            if !partial.is_empty() {
                self.finish_line(speaker, false);
            }
        }
        self.transcript
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Speaker::*;

    #[test]
    fn lines_are_cut_at_newlines_whatever_the_chunks() {
        let mut recorder = Recorder::new();
        recorder.record(Interactor, b"4\n");
        recorder.record(Submission, b"? 1 ");
        recorder.record(Submission, b"3\r\n? 1");
        recorder.record(Interactor, b"left\n");
        recorder.record(Submission, b" 2\n! 2 4 1 3");
        let transcript = recorder.finish();
        assert_eq!(
            transcript.to_interaction(),
            "<4\n>? 1 3\n<left\n>? 1 2\n>! 2 4 1 3 (no newline)\n"
        );
        assert_eq!(transcript.bytes, (22, 7));
        assert_eq!(transcript.last_speaker(), Some(Submission));
    }

    #[test]
    fn a_long_dialogue_keeps_its_head_and_tail() {
        let mut recorder = Recorder::new();
        for i in 0..1000 {
            recorder.record(Submission, format!("? {i}\n").as_bytes());
            recorder.record(Interactor, b"no\n");
        }
        let transcript = recorder.finish();
        assert_eq!(transcript.len(), 2000);
        assert_eq!(transcript.head.len(), HEAD_LINES);
        assert_eq!(transcript.tail.len(), TAIL_LINES);
        assert_eq!(transcript.omitted, 2000 - HEAD_LINES - TAIL_LINES);
        let text = transcript.to_interaction();
        assert!(text.starts_with(">? 0\n<no\n"), "{text}");
        assert!(text.contains("… 1952 lines left out\n"), "{text}");
        assert!(text.ends_with(">? 999\n<no\n"), "{text}");
        assert_eq!(transcript.last_speaker(), Some(Interactor));
    }

    #[test]
    fn a_huge_line_is_cut_and_memory_stays_bounded() {
        let mut recorder = Recorder::new();
        for _ in 0..1000 {
            recorder.record(Submission, &[b'x'; 4096]);
        }
        assert!(recorder.partial_submission.len() <= PARTIAL_BYTES);
        let transcript = recorder.finish();
        let line = &transcript.head[0];
        assert!(!line.complete);
        assert_eq!(line.text.chars().count(), LINE_CHARS + 1);
        assert!(line.text.ends_with('…'));
        assert_eq!(transcript.bytes.0, 4096 * 1000);
    }

    #[test]
    fn nothing_said_is_an_empty_transcript() {
        let transcript = Recorder::new().finish();
        assert!(transcript.is_empty());
        assert_eq!(transcript.last_speaker(), None);
        assert_eq!(transcript.to_interaction(), "");
    }
}
