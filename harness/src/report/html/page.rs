//! The pieces every part of the HTML report is written with: escaping (every string that did
//! not come from this file goes through [`esc`]), the style sheet, and the small formats
//! (durations, dates) the report shows.

use std::fmt;
use std::time::{Duration, SystemTime};

use crate::verdict::Verdict;

/// Text made safe for HTML, in an element or in a quoted attribute: `&`, `<`, `>`, `"` and
/// `'` are written as entities, and control characters other than tab and newline (which a
/// browser would show as nothing, or refuse) as `\x..`.
pub struct Esc<'a>(pub &'a str);

/// `text`, escaped for HTML.
pub fn esc(text: &str) -> Esc<'_> {
    Esc(text)
}

impl fmt::Display for Esc<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut rest = self.0;
        while let Some(at) = rest.find(|c: char| {
            matches!(c, '&' | '<' | '>' | '"' | '\'')
                || (c.is_control() && c != '\n' && c != '\t')
                || c == '\u{fffe}'
                || c == '\u{ffff}'
        }) {
            f.write_str(&rest[..at])?;
            let c = rest[at..].chars().next().expect("found above");
            match c {
                '&' => f.write_str("&amp;")?,
                '<' => f.write_str("&lt;")?,
                '>' => f.write_str("&gt;")?,
                '"' => f.write_str("&quot;")?,
                '\'' => f.write_str("&#39;")?,
                c if (c as u32) < 0x100 => write!(f, "\\x{:02x}", c as u32)?,
                c => write!(f, "\\u{{{:x}}}", c as u32)?,
            }
            rest = &rest[at + c.len_utf8()..];
        }
        f.write_str(rest)
    }
}

/// The CSS class of a verdict's colour: `v-AC`, `v-WA`, … (a fixed set, never user text).
pub fn verdict_class(verdict: Verdict) -> &'static str {
    match verdict {
        Verdict::Accepted => "v-AC",
        Verdict::WrongAnswer => "v-WA",
        Verdict::TimeLimitExceeded => "v-TLE",
        Verdict::MemoryLimitExceeded => "v-MLE",
        Verdict::RuntimeError => "v-RE",
        Verdict::OutputLimitExceeded => "v-OLE",
        Verdict::CompileError => "v-CE",
        Verdict::JudgeError => "v-JE",
    }
}

/// `12 ms`, rounded as the terminal report shows CPU times (`12.5 s` from ten seconds on).
pub fn ms(duration: Duration) -> String {
    crate::units::format_duration(duration)
}

/// `1.5 s` or `300 ms`: a limit, as a setter writes it.
pub fn limit(duration: Duration) -> String {
    let millis = duration.as_millis();
    if millis >= 1000 && millis.is_multiple_of(100) {
        format!("{} s", duration.as_secs_f64())
    } else {
        format!("{millis} ms")
    }
}

/// `2026-12-01 16:25:03 UTC`.
pub fn utc(time: SystemTime) -> String {
    let seconds = time
        .duration_since(SystemTime::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let (days, rest) = (seconds / 86_400, seconds % 86_400);
    let (year, month, day) = civil_from_days(days as i64);
    format!(
        "{year:04}-{month:02}-{day:02} {:02}:{:02}:{:02} UTC",
        rest / 3600,
        rest % 3600 / 60,
        rest % 60
    )
}

/// The proleptic Gregorian date `days` after 1970-01-01 (Howard Hinnant's algorithm).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

/// The whole style sheet: light, dark (`prefers-color-scheme`) and print. No fonts, images
/// or anything else are fetched: the page must open from an archive years later.
pub const STYLE: &str = r#"
:root {
  color-scheme: light dark;
  --bg: #ffffff; --fg: #1f2328; --muted: #59636e; --line: #d1d9e0; --panel: #f6f8fa;
  --AC: #1a7f37; --WA: #cf222e; --TLE: #bc4c00; --MLE: #8250df; --RE: #bf3989;
  --OLE: #7d4e00; --CE: #59636e; --JE: #1f2328; --none: #e6eaef;
  --limit: #cf222e; --band: rgba(212, 167, 44, 0.45); --suggested: #0969da; --near: #d4a72c;
  --del: #ffebe9; --ins: #dafbe1;
}
@media (prefers-color-scheme: dark) {
  :root {
    --bg: #0d1117; --fg: #e6edf3; --muted: #9198a1; --line: #3d444d; --panel: #151b23;
    --AC: #3fb950; --WA: #f85149; --TLE: #db6d28; --MLE: #ab7df8; --RE: #db61a2;
    --OLE: #bb8009; --CE: #9198a1; --JE: #f0f6fc; --none: #262c36;
    --limit: #f85149; --band: rgba(187, 128, 9, 0.5); --suggested: #4493f8; --near: #e3b341;
    --del: rgba(248, 81, 73, 0.2); --ins: rgba(63, 185, 80, 0.2);
  }
}
* { box-sizing: border-box; }
body { margin: 0 auto; max-width: 1200px; padding: 1rem 1.5rem 3rem; background: var(--bg);
  color: var(--fg); font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; }
h1 { font-size: 1.5rem; margin: 0.2rem 0; }
h2 { font-size: 1.2rem; margin: 2rem 0 0.4rem; border-bottom: 1px solid var(--line); }
h3 { font-size: 1rem; margin: 1.2rem 0 0.4rem; }
h4 { font-size: 13px; margin: 0.6rem 0 0.1rem; }
code, pre, .mono { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 12.5px; }
pre { background: var(--panel); border: 1px solid var(--line); padding: 0.5rem; overflow-x: auto;
  white-space: pre; margin: 0.3rem 0 0.6rem; }
.muted, .context { color: var(--muted); }
.context span + span::before { content: " · "; }
table { border-collapse: collapse; }
.summary td, .summary th, .runs td, .runs th { padding: 0.2rem 0.6rem; border-bottom: 1px solid var(--line); text-align: left; vertical-align: top; }
.num { text-align: right; font-variant-numeric: tabular-nums; }
.badge { display: inline-block; min-width: 2.6em; padding: 0 0.35em; border-radius: 3px; color: #fff;
  font-weight: 600; text-align: center; font-size: 12px; }
.v-AC { --c: var(--AC); } .v-WA { --c: var(--WA); } .v-TLE { --c: var(--TLE); } .v-MLE { --c: var(--MLE); }
.v-RE { --c: var(--RE); } .v-OLE { --c: var(--OLE); } .v-CE { --c: var(--CE); } .v-JE { --c: var(--JE); }
.v-ran { --c: var(--muted); }
.badge.v-JE { color: var(--bg); }
.badge { background: var(--c); }
.ok { color: var(--AC); font-weight: 600; }
.mismatch { color: var(--WA); font-weight: 700; }
tr.is-mismatch th, tr.is-mismatch td.head { background: var(--del); }
.scroll { overflow-x: auto; max-width: 100%; }
.matrix { font-size: 12px; }
.matrix th.sub { position: sticky; left: 0; background: var(--bg); text-align: left; white-space: nowrap;
  padding: 0 0.6rem 0 0; font-weight: normal; z-index: 1; }
.matrix td.head { white-space: nowrap; padding: 0 0.4rem; }
.matrix thead th { font-weight: normal; color: var(--muted); font-size: 10px; padding: 0 0 2px; }
.matrix thead th.case { writing-mode: vertical-rl; transform: rotate(180deg); max-height: 8em;
  overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.matrix td.c { width: 12px; min-width: 12px; height: 18px; padding: 0; border: 1px solid var(--bg);
  background: var(--c, var(--none)); font-size: 9px; color: #fff; text-align: center; }
.matrix td.c.none { background: var(--none); }
.matrix td.c.near { outline: 3px solid var(--near); outline-offset: -3px; color: var(--bg); font-weight: 700; }
.matrix th.band, .matrix td.band { border-left: 2px solid var(--fg); }
.matrix tr.bands th.group { color: var(--fg); font-size: 11px; font-weight: 600; text-align: left;
  white-space: nowrap; overflow: hidden; text-overflow: ellipsis; max-width: 1px; padding: 0 0.3rem;
  border-bottom: 2px solid var(--fg); }
.matrix tr.points th.sub { font-size: 10px; }
.matrix td.pts { height: 15px; padding: 0 0.3rem; font-size: 10px; font-weight: 700; text-align: left;
  white-space: nowrap; overflow: hidden; max-width: 1px; border-bottom: 1px solid var(--line); }
.matrix td.pts.pass { background: var(--ins); color: var(--AC); }
.matrix td.pts.partial { background: var(--band); color: var(--fg); }
.matrix td.pts.fail { background: var(--WA); color: #fff; }
.matrix td.pts.skip { background: var(--none); color: var(--muted); font-weight: normal; }
.matrix td.pts.unknown { color: var(--muted); font-weight: normal; }
.matrix td.chips { white-space: nowrap; padding: 0 0.4rem 2px 0; }
.chip { display: inline-block; padding: 0 4px; margin: 1px 3px 0 0; border-radius: 3px; font-size: 10px;
  font-weight: 700; border: 1px solid var(--line); }
.chip.pass { background: var(--ins); color: var(--AC); }
.chip.partial { background: var(--band); color: var(--fg); }
.chip.fail { background: var(--WA); color: #fff; border-color: var(--WA); }
.chip.skip, .chip.unknown { background: var(--none); color: var(--muted); font-weight: normal; }
.legend .sw.pts-pass { background: var(--ins); outline: 1px solid var(--AC); outline-offset: -1px; }
.legend .sw.pts-partial { background: var(--band); }
.legend .sw.pts-fail { background: var(--WA); }
.legend { margin: 0.4rem 0; color: var(--muted); font-size: 12px; }
.legend .badge { min-width: 0; }
.legend .sw { display: inline-block; width: 10px; height: 10px; vertical-align: -1px; background: var(--c); }
.legend .sw.none { background: var(--none); }
.legend .sw.near { outline: 2px solid var(--near); outline-offset: -2px; background: var(--AC); }
svg.chart { display: block; width: 100%; height: auto; max-width: 1100px; margin: 0.3rem 0 0.8rem; }
svg.chart text { fill: var(--fg); font: 11px system-ui, sans-serif; }
svg.chart text.muted { fill: var(--muted); }
svg.chart .frame { fill: var(--panel); stroke: var(--line); }
svg.chart .band { fill: var(--band); }
svg.chart .limit { stroke: var(--limit); stroke-width: 1.5; }
svg.chart .suggested { stroke: var(--suggested); stroke-width: 2; stroke-dasharray: 5 3; }
svg.chart .bar { fill: var(--c); }
svg.chart .bar.near { stroke: var(--near); stroke-width: 2.5; }
svg.chart .tick { stroke: var(--c); stroke-width: 2; }
svg.chart .over { fill: var(--limit); }
details { margin: 0.3rem 0; border: 1px solid var(--line); border-radius: 4px; padding: 0.2rem 0.6rem; }
details > summary { cursor: pointer; }
details[open] > summary { margin-bottom: 0.3rem; }
.diff span { display: block; min-height: 1.2em; }
.diff .del { background: var(--del); }
.diff .ins { background: var(--ins); }
.warning { border-left: 3px solid var(--near); padding-left: 0.6rem; list-style: none; }
.warning li { margin: 0.15rem 0; }
footer { margin-top: 3rem; color: var(--muted); font-size: 12px; }
@media print {
  body { max-width: none; padding: 0; font-size: 11px; }
  * { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
  .scroll { overflow: visible; }
  pre { white-space: pre-wrap; word-break: break-all; }
  h2 { break-after: avoid; }
  section.problem { break-inside: auto; }
  svg.chart, table { break-inside: avoid; }
}
"#;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaping_leaves_no_markup_and_no_control_characters() {
        let cases = [
            ("plain", "plain"),
            (
                "<script>alert(1)</script>",
                "&lt;script&gt;alert(1)&lt;/script&gt;",
            ),
            ("a & b", "a &amp; b"),
            ("\" onmouseover='x'", "&quot; onmouseover=&#39;x&#39;"),
            ("tab\tand\nline", "tab\tand\nline"),
            ("nul\0esc\u{1b}[1m", "nul\\x00esc\\x1b[1m"),
            ("\u{fffe}", "\\u{fffe}"),
            ("ünïcode ✓", "ünïcode ✓"),
        ];
        for (raw, escaped) in cases {
            assert_eq!(esc(raw).to_string(), escaped, "{raw:?}");
        }
    }

    #[test]
    fn dates_are_utc_calendar_dates() {
        let at = |seconds: u64| utc(SystemTime::UNIX_EPOCH + Duration::from_secs(seconds));
        assert_eq!(at(0), "1970-01-01 00:00:00 UTC");
        assert_eq!(at(951_782_400), "2000-02-29 00:00:00 UTC");
        assert_eq!(at(1_795_537_503), "2026-11-24 16:25:03 UTC");
    }

    #[test]
    fn limits_read_as_a_setter_writes_them() {
        assert_eq!(limit(Duration::from_millis(1000)), "1 s");
        assert_eq!(limit(Duration::from_millis(1500)), "1.5 s");
        assert_eq!(limit(Duration::from_millis(300)), "300 ms");
    }
}
