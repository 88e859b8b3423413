//! The colours of every report, in one place so that a verdict looks the same in each.

use anstyle::{AnsiColor, Color, Style};

use crate::verdict::Verdict;

/// Success: all accepted, nothing found, everything matches.
pub const GOOD: Style = Style::new()
    .fg_color(Some(Color::Ansi(AnsiColor::Green)))
    .bold();
/// Failure: a wrong verdict, an invalid case, an error.
pub const BAD: Style = Style::new()
    .fg_color(Some(Color::Ansi(AnsiColor::Red)))
    .bold();
/// Worth a look: a warning, a case near the time limit.
pub const WARN: Style = Style::new()
    .fg_color(Some(Color::Ansi(AnsiColor::Yellow)))
    .bold();
pub const BOLD: Style = Style::new().bold();
/// Secondary text: notes, counts of what was cut.
pub const DIM: Style = Style::new().dimmed();

/// A run nothing checked (`ran`): neither a pass nor a failure.
pub const UNCHECKED: Style = Style::new()
    .fg_color(Some(Color::Ansi(AnsiColor::Cyan)))
    .bold();

/// AC green, WA red, a judge error magenta, every other failure yellow.
pub fn verdict_style(verdict: Verdict) -> Style {
    let color = match verdict {
        Verdict::Accepted => AnsiColor::Green,
        Verdict::WrongAnswer => AnsiColor::Red,
        Verdict::JudgeError => AnsiColor::Magenta,
        _ => AnsiColor::Yellow,
    };
    Style::new().fg_color(Some(color.into())).bold()
}
