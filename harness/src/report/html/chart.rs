//! Inline SVG charts: CPU time against the limit per case (one strip per program, cases
//! along it, on a log scale from a thousandth of the limit, the limit and the ±10% "near the
//! limit" band drawn), and for calibrate the
//! distribution of each program's case times on a log scale with the current and the
//! suggested limits marked. Every bar and tick has a `<title>`, the tooltip a browser shows.

use std::fmt::Write as _;
use std::time::Duration;

use super::page::{esc, limit as show_limit, ms, verdict_class};
use crate::verdict::Verdict;

/// The drawing's width in its own units; it scales to the page.
const WIDTH: f64 = 1000.0;
/// Room for the row labels on the left.
const LABEL: f64 = 240.0;
/// Room for the numbers on the right.
const RIGHT: f64 = 120.0;
const PLOT: f64 = WIDTH - LABEL - RIGHT;
/// One strip's height, and the gap below it.
const STRIP: f64 = 34.0;
const GAP: f64 = 10.0;
/// Above the first strip: the axis' labels.
const TOP: f64 = 16.0;
/// The top of a strip is this many times the limit: a TLE shows above the line.
const CEILING: f64 = 1.25;
/// The bottom of a strip, as a fraction of the limit: a millisecond of a one-second limit.
const FLOOR: f64 = 0.001;
/// The "near the limit" band, as a fraction of the limit either side (what `time_sensitive`
/// means).
const NEAR: f64 = 0.10;

/// One case's bar.
pub struct Bar<'a> {
    pub case: &'a str,
    pub verdict: Verdict,
    pub cpu: Duration,
    /// Within 10% of the limit, either side.
    pub near: bool,
}

/// One program's strip: its cases in the problem's order, `None` for a case it did not run.
pub struct Strip<'a> {
    pub label: &'a str,
    pub limit: Duration,
    pub bars: Vec<Option<Bar<'a>>>,
}

fn fraction(time: Duration, of: Duration) -> f64 {
    if of.is_zero() {
        0.0
    } else {
        time.as_secs_f64() / of.as_secs_f64()
    }
}

/// CPU time against the limit, one strip per program; the time axis of every strip is its own
/// limit (a language's multiplier gives some programs a longer one).
pub fn time_strips(title: &str, strips: &[Strip<'_>]) -> String {
    let cases = strips
        .iter()
        .map(|s| s.bars.len())
        .max()
        .unwrap_or(0)
        .max(1);
    let height = TOP + strips.len() as f64 * (STRIP + GAP);
    let mut svg = String::new();
    let _ = write!(
        svg,
        r#"<svg class="chart time" viewBox="0 0 {WIDTH} {height}" role="img" aria-label="{}"><title>{}</title>"#,
        esc(title),
        esc(title)
    );
    // A log scale from a millisecond to above the limit: a program 40 times faster than
    // another still shows, and which cases are slow for everyone reads at a glance.
    let y_of = |top: f64, ratio: f64| {
        let height = (ratio.max(FLOOR).log10() - FLOOR.log10()) / (CEILING.log10() - FLOOR.log10());
        top + STRIP * (1.0 - height.clamp(0.0, 1.0))
    };
    let _ = write!(
        svg,
        r#"<text x="{LABEL}" y="11" class="muted">cases 1–{cases} →</text><text x="{:.1}" y="11" text-anchor="end" class="muted">log scale; the limit, and ±10% of it</text>"#,
        LABEL + PLOT
    );
    let step = PLOT / cases as f64;
    let width = (step * 0.8).max(0.6).min(step);
    for (row, strip) in strips.iter().enumerate() {
        let top = TOP + row as f64 * (STRIP + GAP);
        let _ = write!(
            svg,
            r#"<g class="strip"><text x="{:.1}" y="{:.1}" text-anchor="end">{}</text><rect class="frame" x="{LABEL}" y="{top:.1}" width="{PLOT}" height="{STRIP}"/>"#,
            LABEL - 8.0,
            top + STRIP / 2.0 + 4.0,
            esc(&shorten(strip.label, 34))
        );
        let mut slowest: Option<&Bar<'_>> = None;
        for (index, bar) in strip.bars.iter().enumerate() {
            let Some(bar) = bar else { continue };
            if slowest.is_none_or(|s| bar.cpu > s.cpu) {
                slowest = Some(bar);
            }
            let ratio = fraction(bar.cpu, strip.limit);
            let y = y_of(top, ratio);
            let mut h = top + STRIP - y;
            if bar.cpu > Duration::ZERO {
                h = h.max(1.0);
            }
            let x = LABEL + index as f64 * step + (step - width) / 2.0;
            let _ = write!(
                svg,
                r#"<rect class="bar {}{}" x="{x:.2}" y="{:.1}" width="{width:.2}" height="{h:.1}"><title>{}: {} {} of {}{}</title></rect>"#,
                verdict_class(bar.verdict),
                if bar.near { " near" } else { "" },
                top + STRIP - h,
                esc(bar.case),
                bar.verdict.as_str(),
                ms(bar.cpu),
                show_limit(strip.limit),
                if bar.near { ", near the limit" } else { "" }
            );
            if ratio > CEILING {
                let _ = write!(
                    svg,
                    r#"<path class="over" d="M{:.2} {:.1}l{:.2} 0l{:.2} -5z"/>"#,
                    x,
                    top + 5.0,
                    width,
                    -width / 2.0
                );
            }
        }
        // Over the bars, so that a bar in it shows it is. On the log scale ±10% is a pixel: drawn at least 5 high, centred on the limit.
        let (mut band_top, mut band_bottom) = (y_of(top, 1.0 + NEAR), y_of(top, 1.0 - NEAR));
        if band_bottom - band_top < 5.0 {
            let middle = y_of(top, 1.0);
            (band_top, band_bottom) = (middle - 2.5, middle + 2.5);
        }
        let _ = write!(
            svg,
            r#"<rect class="band" x="{LABEL}" y="{band_top:.1}" width="{PLOT}" height="{:.1}"/>"#,
            band_bottom - band_top
        );
        let line = y_of(top, 1.0);
        let _ = write!(
            svg,
            r#"<line class="limit" x1="{LABEL}" x2="{:.1}" y1="{line:.1}" y2="{line:.1}"/>"#,
            LABEL + PLOT
        );
        let note = match slowest {
            Some(bar) => format!("{} of {}", ms(bar.cpu), show_limit(strip.limit)),
            None => "no case ran".to_string(),
        };
        let _ = write!(
            svg,
            r#"<text x="{:.1}" y="{:.1}">{}</text>"#,
            LABEL + PLOT + 8.0,
            top + STRIP / 2.0 + 4.0,
            esc(&note)
        );
        if let Some(bar) = slowest {
            let _ = write!(
                svg,
                r#"<text x="{:.1}" y="{:.1}" class="muted">slowest: {}</text>"#,
                LABEL + PLOT + 8.0,
                top + STRIP / 2.0 + 17.0,
                esc(&shorten(bar.case, 16))
            );
        }
        svg.push_str("</g>");
    }
    svg.push_str("</svg>");
    svg
}

/// One program of a calibration: its case times (the median of the repeats).
pub struct Spread<'a> {
    pub label: &'a str,
    /// It sets the limit (a solution or an accepted submission, not the brute force).
    pub counts: bool,
    /// Every run was AC.
    pub passed: bool,
    pub times: Vec<(&'a str, Duration)>,
}

/// Each program's case times on one log-scale axis, with the problem's limit (and its
/// ±10% band) and the suggested limit drawn across all of them.
pub fn distribution(
    title: &str,
    spreads: &[Spread<'_>],
    current: Duration,
    suggested: Option<Duration>,
) -> String {
    let slowest = spreads
        .iter()
        .flat_map(|s| s.times.iter().map(|t| t.1))
        .max()
        .unwrap_or_default();
    let fastest = spreads
        .iter()
        .flat_map(|s| s.times.iter().map(|t| t.1))
        .filter(|t| !t.is_zero())
        .min()
        .unwrap_or(Duration::from_millis(1));
    let high = [slowest, current, suggested.unwrap_or_default()]
        .into_iter()
        .max()
        .unwrap_or_default()
        .as_secs_f64()
        .max(0.001)
        * 1.6;
    let low = (fastest.as_secs_f64() / 2.0).clamp(0.000_1, 0.001);
    let (log_low, log_high) = (low.log10(), high.log10());
    let x_of = |time: Duration| {
        let t = time.as_secs_f64().max(low);
        LABEL + PLOT * ((t.log10() - log_low) / (log_high - log_low)).clamp(0.0, 1.0)
    };
    let rows = spreads.len().max(1) as f64;
    let axis = TOP + rows * (STRIP + GAP);
    let height = axis + 34.0;
    let mut svg = String::new();
    let _ = write!(
        svg,
        r#"<svg class="chart distribution" viewBox="0 0 {WIDTH} {height:.1}" role="img" aria-label="{}"><title>{}</title>"#,
        esc(title),
        esc(title)
    );
    // The limit's band and line, then the suggestion, across every row.
    let (band_left, band_right) = (
        x_of(current.mul_f64(1.0 - NEAR)),
        x_of(current.mul_f64(1.0 + NEAR)),
    );
    let _ = write!(
        svg,
        r#"<rect class="band" x="{band_left:.1}" y="{TOP}" width="{:.1}" height="{:.1}"/>"#,
        band_right - band_left,
        axis - TOP
    );
    let x = x_of(current);
    let _ = write!(
        svg,
        r#"<line class="limit" x1="{x:.1}" x2="{x:.1}" y1="{:.1}" y2="{axis:.1}"/><text x="{x:.1}" y="11" text-anchor="middle">limit now {}</text>"#,
        TOP - 2.0,
        esc(&show_limit(current))
    );
    if let Some(suggested) = suggested {
        let x = x_of(suggested);
        let _ = write!(
            svg,
            r#"<line class="suggested" x1="{x:.1}" x2="{x:.1}" y1="{:.1}" y2="{axis:.1}"/><text x="{x:.1}" y="{:.1}" text-anchor="middle" class="suggested-label">suggested {}</text>"#,
            TOP - 2.0,
            axis + 30.0,
            esc(&show_limit(suggested))
        );
    }
    for (row, spread) in spreads.iter().enumerate() {
        let top = TOP + row as f64 * (STRIP + GAP);
        let role = if spread.counts { "" } else { " (not counted)" };
        let _ = write!(
            svg,
            r#"<g class="spread"><text x="{:.1}" y="{:.1}" text-anchor="end">{}{}</text><rect class="frame" x="{LABEL}" y="{top:.1}" width="{PLOT}" height="{STRIP}" fill-opacity="0.4"/>"#,
            LABEL - 8.0,
            top + STRIP / 2.0 + 4.0,
            esc(&shorten(spread.label, 30)),
            role
        );
        let class = if spread.passed { "v-AC" } else { "v-WA" };
        for (case, time) in &spread.times {
            let x = x_of(*time);
            let _ = write!(
                svg,
                r#"<line class="tick {class}" x1="{x:.1}" x2="{x:.1}" y1="{:.1}" y2="{:.1}" stroke-opacity="0.55"><title>{}: {}</title></line>"#,
                top + 5.0,
                top + STRIP - 5.0,
                esc(case),
                ms(*time)
            );
        }
        if let Some((case, time)) = spread.times.iter().max_by_key(|t| t.1) {
            let _ = write!(
                svg,
                r#"<text x="{:.1}" y="{:.1}">max {}</text><text x="{:.1}" y="{:.1}" class="muted">{}</text>"#,
                LABEL + PLOT + 8.0,
                top + STRIP / 2.0 + 4.0,
                ms(*time),
                LABEL + PLOT + 8.0,
                top + STRIP / 2.0 + 17.0,
                esc(&shorten(case, 16))
            );
        }
        svg.push_str("</g>");
    }
    // The axis: powers of ten, labelled.
    let _ = write!(
        svg,
        r#"<line class="axis" x1="{LABEL}" x2="{:.1}" y1="{axis:.1}" y2="{axis:.1}" stroke="currentColor" stroke-opacity="0.4"/>"#,
        LABEL + PLOT
    );
    let mut power = log_low.ceil() as i32;
    while f64::from(power) <= log_high {
        let time = Duration::from_secs_f64(10f64.powi(power));
        let x = x_of(time);
        let _ = write!(
            svg,
            r#"<line x1="{x:.1}" x2="{x:.1}" y1="{axis:.1}" y2="{:.1}" stroke="currentColor" stroke-opacity="0.4"/><text x="{x:.1}" y="{:.1}" text-anchor="middle" class="muted">{}</text>"#,
            axis + 4.0,
            axis + 15.0,
            esc(&show_limit(time))
        );
        power += 1;
    }
    svg.push_str("</svg>");
    svg
}

/// At most `chars` characters, the middle left out: labels end in what tells them apart.
fn shorten(text: &str, chars: usize) -> String {
    let count = text.chars().count();
    if count <= chars {
        return text.to_string();
    }
    let keep = chars.saturating_sub(1);
    let head: String = text.chars().take(keep / 3).collect();
    let tail: String = text.chars().skip(count - (keep - keep / 3)).collect();
    format!("{head}…{tail}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_strip_draws_a_bar_per_case_run_with_its_tooltip() {
        let strip = Strip {
            label: "accepted/<b>.cpp",
            limit: Duration::from_secs(1),
            bars: vec![
                Some(Bar {
                    case: "01",
                    verdict: Verdict::Accepted,
                    cpu: Duration::from_millis(950),
                    near: true,
                }),
                None,
                Some(Bar {
                    case: "<script>",
                    verdict: Verdict::TimeLimitExceeded,
                    cpu: Duration::from_millis(3000),
                    near: false,
                }),
            ],
        };
        let svg = time_strips("times", &[strip]);
        assert_eq!(svg.matches(r#"<rect class="bar "#).count(), 2, "{svg}");
        assert!(
            svg.contains("<title>01: AC 950 ms of 1 s, near the limit</title>"),
            "{svg}"
        );
        assert!(svg.contains("&lt;script&gt;: TLE 3000 ms of 1 s"), "{svg}");
        assert!(
            svg.contains(r#"class="over""#),
            "a bar over the top is marked"
        );
        assert!(!svg.contains("<b>") && !svg.contains("<script>"), "{svg}");
    }

    #[test]
    fn the_distribution_marks_both_limits() {
        let spread = Spread {
            label: "solution",
            counts: true,
            passed: true,
            times: vec![
                ("01", Duration::from_millis(40)),
                ("02", Duration::from_millis(90)),
            ],
        };
        let svg = distribution(
            "calibration",
            &[spread],
            Duration::from_secs(1),
            Some(Duration::from_millis(200)),
        );
        assert!(svg.contains("limit now 1 s"), "{svg}");
        assert!(svg.contains("suggested 200 ms"), "{svg}");
        assert_eq!(svg.matches(r#"class="tick v-AC""#).count(), 2, "{svg}");
        assert!(svg.contains("max 90 ms"), "{svg}");
    }

    #[test]
    fn long_labels_keep_their_ends() {
        assert_eq!(shorten("short", 10), "short");
        let cut = shorten("time_limit_exceeded/all_n_to_the_n.cpp", 20);
        assert_eq!(cut.chars().count(), 20);
        assert!(cut.ends_with("_to_the_n.cpp"), "{cut}");
    }
}
