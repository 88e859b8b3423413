//! The HTML report of the king-queens verify (651 cases × 5 stored submissions): its size,
//! and how long headless Chromium takes to load, lay out and paint it (a screenshot) beyond
//! what it takes for an empty page, interleaved, the median of the repeats.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

use crate::setup::Setup;
use crate::stats::{median, ms, range};
use crate::Target;

fn chromium() -> Option<PathBuf> {
    std::env::var_os("HARNESS_CHROMIUM")
        .map(PathBuf::from)
        .or_else(|| {
            ["chromium", "chromium-browser", "google-chrome"]
                .iter()
                .find_map(|name| {
                    std::env::split_paths(&std::env::var_os("PATH")?)
                        .map(|dir| dir.join(name))
                        .find(|path| path.is_file())
                })
        })
}

/// Seconds for Chromium to start, open `page` and write its screenshot.
fn screenshot(browser: &Path, page: &Path, png: &Path) -> Result<f64, String> {
    let profile = tempfile::tempdir().map_err(|e| e.to_string())?;
    let started = Instant::now();
    let status = Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--window-size=1280,2000",
        ])
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .arg(format!("--screenshot={}", png.display()))
        .arg(format!("file://{}", page.display()))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .map_err(|e| format!("cannot start `{}`: {e}", browser.display()))?;
    let seconds = started.elapsed().as_secs_f64();
    if !status.success() {
        return Err(format!("chromium failed on `{}`: {status}", page.display()));
    }
    Ok(seconds)
}

pub fn run(setup: &Setup, repeats: usize, targets: &mut Vec<Target>) -> Result<String, String> {
    let mut text = String::from("## HTML report: the king-queens verify in Chromium\n\n");
    let Some(browser) = chromium() else {
        text.push_str("skipped: no chromium on PATH (apt-get install chromium)\n");
        eprintln!("skipped: html: no chromium on PATH");
        return Ok(text);
    };
    let folder = setup.bench_dir.join("html");
    std::fs::create_dir_all(&folder).map_err(|e| e.to_string())?;
    let page = folder.join("king-queens.html");
    eprintln!("verifying king-queens for its report");
    let verified = Instant::now();
    let status = Command::new(&setup.harness)
        .args(["verify", "king-queens", "--no-build", "--html"])
        .arg(&page)
        .current_dir(&setup.root)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::inherit())
        .status()
        .map_err(|e| format!("cannot run harness verify: {e}"))?;
    let verified = verified.elapsed().as_secs_f64();
    if !page.is_file() {
        return Err(format!(
            "harness verify king-queens wrote no report ({status})"
        ));
    }
    let size = std::fs::metadata(&page).map_err(|e| e.to_string())?.len();
    let blank = folder.join("blank.html");
    std::fs::write(&blank, "<!DOCTYPE html><title>blank</title><p>blank</p>\n")
        .map_err(|e| e.to_string())?;
    let png = folder.join("shot.png");
    let (mut report_times, mut blank_times) = (Vec::new(), Vec::new());
    for _ in 0..repeats {
        blank_times.push(screenshot(&browser, &blank, &png)?);
        report_times.push(screenshot(&browser, &page, &png)?);
    }
    let (report, empty) = (median(&report_times), median(&blank_times));
    let cost = (report - empty).max(0.0);
    let (low, high) = range(&report_times);
    let _ = writeln!(
        text,
        "`harness verify king-queens --html` (verified in {verified:.0} s): {:.2} MB.\n\n\
         | page | Chromium: start, load, lay out, paint (median) | range |\n| --- | --- | --- |\n\
         | the report | {} ms | {}–{} ms |\n| an empty page | {} ms | |\n| the report's own cost | {} ms | |",
        size as f64 / 1e6,
        ms(report),
        ms(low),
        ms(high),
        ms(empty),
        ms(cost)
    );
    targets.push(Target {
        what: "html: the king-queens verify's page costs Chromium < 1 s beyond an empty page"
            .to_string(),
        measured: format!("{} ms", ms(cost)),
        met: cost < 1.0,
    });
    targets.push(Target {
        what: "html: the king-queens verify's page < 3 MB".to_string(),
        measured: format!("{:.2} MB", size as f64 / 1e6),
        met: size < 3_000_000,
    });
    Ok(text)
}
