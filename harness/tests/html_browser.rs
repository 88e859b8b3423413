//! The HTML report in a real browser: headless Chromium (Debian's `chromium`, which
//! `.ci/install-tools` installs) opens the report of a shipped problem's `verify`, and the
//! tree it built is checked — a row per stored submission, a cell per case, the MISMATCH row
//! first and marked, nothing fetched — and a screenshot is kept in the tests' output folder.
//!
//! Chromium is driven from the command line (`--dump-dom`, `--screenshot`): no DevTools
//! client and no npm. `--dump-dom` gives the tree after load as HTML; the report's tree has
//! only two things XML lacks there (`<meta>` unclosed, U+00A0 as `&nbsp;`), so after those
//! are put back it is read with roxmltree, and anything else the browser made of the page
//! (an element from an escaping slip, a table it had to repair) shows in the tree.
#![cfg(unix)]

mod common;

use std::os::unix::process::CommandExt as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use common::browser::chromium;
use common::project::Project;

const FAILED: i32 = 1;
/// Chromium starts in a second or two; a loaded machine gets far more.
const BROWSER_DEADLINE: Duration = Duration::from_secs(120);

fn repo() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
}

/// Where the screenshots are kept: `target/tmp/html-report/`.
fn output_folder() -> PathBuf {
    let folder = Path::new(env!("CARGO_TARGET_TMPDIR")).join("html-report");
    std::fs::create_dir_all(&folder).unwrap();
    folder
}

/// Runs headless Chromium on `page` with `args`, in a fresh profile; its stdout.
fn run_chromium(browser: &Path, page: &Path, args: &[&str]) -> String {
    let profile = tempfile::tempdir().unwrap();
    let mut child = Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--hide-scrollbars",
        ])
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .args(args)
        .arg(format!("file://{}", page.display()))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .process_group(0)
        .spawn()
        .unwrap_or_else(|error| panic!("cannot start `{}`: {error}", browser.display()));
    let mut stdout = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        std::io::Read::read_to_string(&mut stdout, &mut text).unwrap();
        text
    });
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > BROWSER_DEADLINE {
            // The whole group: Chromium's renderer and GPU processes too.
            let _ = Command::new("kill")
                .args(["-KILL", "--", &format!("-{}", child.id())])
                .status();
            let _ = child.wait();
            panic!(
                "chromium took more than {BROWSER_DEADLINE:?} on {}",
                page.display()
            );
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    assert!(status.success(), "chromium failed: {status}");
    reader.join().unwrap()
}

/// The tree Chromium built from `page`, as XML.
fn dom(browser: &Path, page: &Path) -> String {
    let html = run_chromium(browser, page, &["--dump-dom"]);
    assert!(html.contains("</html>"), "no document: {html}");
    xml_of(&html)
}

/// Chromium's serialization with its two HTML-isms made XML.
fn xml_of(html: &str) -> String {
    let mut xml = String::with_capacity(html.len());
    let mut rest = html;
    while let Some(at) = rest.find("<meta ") {
        xml.push_str(&rest[..at]);
        let end = at + rest[at..].find('>').expect("a closed <meta>");
        let tag = &rest[at..end];
        xml.push_str(tag.trim_end_matches('/'));
        xml.push_str("/>");
        rest = &rest[end + 1..];
    }
    xml.push_str(rest);
    xml.replace("&nbsp;", "&#160;")
}

fn parse(xml: &str) -> roxmltree::Document<'_> {
    roxmltree::Document::parse_with_options(
        xml,
        roxmltree::ParsingOptions {
            allow_dtd: true,
            ..roxmltree::ParsingOptions::default()
        },
    )
    .unwrap_or_else(|error| panic!("cannot read the browser's tree: {error}\n{xml}"))
}

fn has_class(node: &roxmltree::Node<'_, '_>, class: &str) -> bool {
    node.attribute("class")
        .is_some_and(|c| c.split_whitespace().any(|c| c == class))
}

/// The verify report of the shipped `queens-boards` with one more stored submission, a right
/// program stored as a wrong answer (a MISMATCH), made once for the tests of this file.
struct Verified {
    _project: Project,
    page: PathBuf,
    submissions: usize,
    cases: usize,
}

fn verified() -> &'static Verified {
    static MADE: OnceLock<Verified> = OnceLock::new();
    MADE.get_or_init(|| {
        let project = Project::new();
        let stored = project.join("submissions/queens-boards");
        let shipped = repo().join("solutions/submissions/queens-boards");
        let mut submissions = 0;
        for entry in walkdir(&shipped) {
            let target = stored.join(entry.strip_prefix(&shipped).unwrap());
            std::fs::create_dir_all(target.parent().unwrap()).unwrap();
            std::fs::copy(&entry, &target).unwrap();
            submissions += 1;
        }
        let mismatch = stored.join("wrong_answer/actually_right.cpp");
        std::fs::copy(shipped.join("accepted/row_by_row.cpp"), &mismatch).unwrap();
        submissions += 1;
        let cases = std::fs::read_dir(repo().join("cases/queens-boards"))
            .unwrap()
            .filter(|e| {
                e.as_ref()
                    .unwrap()
                    .path()
                    .extension()
                    .is_some_and(|x| x == "in")
            })
            .count();
        let page = project.join("report.html");
        project
            .harness()
            .args(["verify", "queens-boards", "-j", "2", "--config"])
            .arg(repo().join("judge.toml"))
            .arg("--submissions")
            .arg(project.join("submissions"))
            .arg("--html")
            .arg(&page)
            .assert()
            .code(FAILED);
        Verified {
            _project: project,
            page,
            submissions,
            cases,
        }
    })
}

/// The files below `folder`, sorted.
fn walkdir(folder: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut folders = vec![folder.to_path_buf()];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                folders.push(path);
            } else {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

#[test]
fn the_verify_report_opens_in_chromium_with_a_row_per_submission_and_a_cell_per_case() {
    let Some(browser) = chromium("the verify report in chromium") else {
        return;
    };
    let report = verified();
    let xml = dom(&browser, &report.page);
    let document = parse(&xml);
    let rows: Vec<_> = document
        .descendants()
        .filter(|n| n.has_tag_name("tr") && n.attribute("data-submission").is_some())
        .collect();
    assert_eq!(
        rows.len(),
        report.submissions,
        "a row per stored submission"
    );
    for row in &rows {
        let cells = row.children().filter(|n| has_class(n, "c")).count();
        assert_eq!(
            cells,
            report.cases,
            "a cell per case in {:?}",
            row.attribute("data-submission")
        );
    }
    let first = rows[0];
    assert_eq!(
        first.attribute("data-submission"),
        Some("wrong_answer/actually_right.cpp")
    );
    assert_eq!(first.attribute("data-status"), Some("MISMATCH"));
    assert!(has_class(&first, "is-mismatch"));
    assert_eq!(
        rows.iter()
            .filter(|r| r.attribute("data-status") == Some("MISMATCH"))
            .count(),
        1,
        "only the planted one"
    );
    // The shipped ones each got their verdict: every verdict folder shows as a badge.
    for verdict in ["AC", "WA", "TLE", "MLE", "RE", "OLE", "CE"] {
        assert!(
            rows.iter().any(|r| r
                .descendants()
                .any(|n| has_class(&n, "badge") && n.text() == Some(verdict))),
            "a submission that got {verdict}"
        );
    }
    assert_eq!(
        document
            .descendants()
            .filter(|n| n.has_tag_name("script"))
            .count(),
        0
    );

    let png = output_folder().join("verify-queens-boards.png");
    let _ = std::fs::remove_file(&png);
    run_chromium(
        &browser,
        &report.page,
        &[
            &format!("--screenshot={}", png.display()),
            "--window-size=1280,1400",
        ],
    );
    let bytes = std::fs::read(&png).expect("the screenshot");
    assert!(bytes.starts_with(b"\x89PNG\r\n\x1a\n"), "a PNG");
    assert!(
        bytes.len() > 20_000,
        "more than a blank page: {} bytes",
        bytes.len()
    );
    eprintln!("screenshot: {}", png.display());
}

#[test]
fn the_report_fetches_nothing() {
    let Some(browser) = chromium("the report fetches nothing") else {
        return;
    };
    let xml = dom(&browser, &verified().page);
    let document = parse(&xml);
    let mut checked = 0;
    for node in document.descendants().filter(roxmltree::Node::is_element) {
        let name = node.tag_name().name();
        assert!(
            !matches!(
                name,
                "script"
                    | "link"
                    | "iframe"
                    | "frame"
                    | "img"
                    | "object"
                    | "embed"
                    | "video"
                    | "audio"
                    | "source"
                    | "image"
                    | "use"
                    | "base"
                    | "form"
            ),
            "a <{name}> element"
        );
        for attribute in node.attributes() {
            let value = attribute.value().trim().to_ascii_lowercase();
            if matches!(
                attribute.name(),
                "src" | "href" | "srcset" | "poster" | "data" | "action" | "background"
            ) {
                checked += 1;
                assert!(
                    value.starts_with('#'),
                    "<{name} {}={value:?}>: only links inside the page",
                    attribute.name()
                );
            }
            assert!(
                !value.contains("http:") && !value.contains("https:") && !value.contains("//"),
                "<{name} {}={value:?}>",
                attribute.name()
            );
        }
        if name == "style" {
            let css = node.text().unwrap_or_default();
            assert!(!css.contains("url(") && !css.contains("@import"), "{css}");
        }
    }
    assert!(checked > 0, "the summary links to each problem's section");
}

/// The verify report of the shipped `two-n-queens` (scored by subtasks: `small` 30, `middle`
/// 30, `large` 40, the samples nothing) with four of its stored submissions: one that passes
/// all, one too slow for `large`, one right for `small` only, one wrong everywhere.
fn scored_page(project: &Project) -> PathBuf {
    let dir = project.path();
    let shipped = repo().join("solutions/submissions/two-n-queens");
    for stored in [
        "accepted/pairs.cpp",
        "partially_accepted/all_pairs.cpp",
        "partially_accepted/small_only.py",
        "wrong_answer/black_ignores_board.cpp",
    ] {
        let target = dir.join("submissions/two-n-queens").join(stored);
        std::fs::create_dir_all(target.parent().unwrap()).unwrap();
        std::fs::copy(shipped.join(stored), &target).unwrap();
    }
    let page = dir.join("scored.html");
    project
        .harness()
        .args(["verify", "two-n-queens", "-j", "2", "--config"])
        .arg(repo().join("judge.toml"))
        .arg("--submissions")
        .arg(dir.join("submissions"))
        .arg("--html")
        .arg(&page)
        .assert()
        .code(0);
    page
}

#[test]
fn a_scored_problems_matrix_shows_a_band_per_subtask_and_each_submissions_points() {
    let Some(browser) = chromium("the scored verify report in chromium") else {
        return;
    };
    let project = Project::new();
    let page = scored_page(&project);
    let xml = dom(&browser, &page);
    let document = parse(&xml);
    let cases = std::fs::read_dir(repo().join("cases/two-n-queens"))
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .path()
                .extension()
                .is_some_and(|x| x == "in")
        })
        .count();
    let bands: Vec<(&str, usize, String)> = document
        .descendants()
        .filter(|n| n.has_tag_name("th") && has_class(n, "group"))
        .map(|n| {
            (
                n.attribute("data-group").unwrap(),
                n.attribute("colspan").unwrap().parse().unwrap(),
                n.text().unwrap_or_default().to_string(),
            )
        })
        .collect();
    let names: Vec<(&str, &str)> = bands
        .iter()
        .map(|(name, _, text)| (*name, text.as_str()))
        .collect();
    assert_eq!(
        names,
        [
            ("samples", "samples"),
            ("small", "small · 30"),
            ("middle", "middle · 30"),
            ("large", "large · 40"),
        ]
    );
    assert_eq!(bands[0].1, 2, "the two samples");
    assert_eq!(
        bands.iter().map(|b| b.1).sum::<usize>(),
        cases,
        "every case column under one band"
    );
    let standings = |submission: &str| -> Vec<(String, String)> {
        let row = document
            .descendants()
            .find(|n| n.attribute("data-points-of") == Some(submission))
            .unwrap_or_else(|| panic!("a points row for {submission}"));
        row.children()
            .filter(|n| has_class(n, "pts"))
            .map(|n| {
                (
                    n.attribute("data-standing").unwrap().to_string(),
                    n.attribute("data-points").unwrap_or("").to_string(),
                )
            })
            .collect()
    };
    let got = |pairs: &[(&str, &str)]| -> Vec<(String, String)> {
        pairs
            .iter()
            .map(|(s, p)| ((*s).to_string(), (*p).to_string()))
            .collect()
    };
    assert_eq!(
        standings("accepted/pairs.cpp"),
        got(&[("pass", ""), ("pass", "30"), ("pass", "30"), ("pass", "40")])
    );
    assert_eq!(
        standings("partially_accepted/all_pairs.cpp"),
        got(&[("pass", ""), ("pass", "30"), ("pass", "30"), ("fail", "0")])
    );
    assert_eq!(
        standings("partially_accepted/small_only.py"),
        got(&[("pass", ""), ("pass", "30"), ("fail", "0"), ("fail", "0")])
    );
    // And a picture of it, to look at.
    let png = output_folder().join("verify-two-n-queens.png");
    let _ = std::fs::remove_file(&png);
    run_chromium(
        &browser,
        &page,
        &[
            &format!("--screenshot={}", png.display()),
            "--window-size=1280,900",
        ],
    );
    let bytes = std::fs::read(&png).expect("the screenshot");
    assert!(bytes.starts_with(b"\x89PNG\r\n\x1a\n"), "a PNG");
    assert!(
        bytes.len() > 20_000,
        "more than a blank page: {} bytes",
        bytes.len()
    );
    eprintln!("screenshot: {}", png.display());
}

/// The scoreboard page of the shipped training contest (`contests/training`) at the freeze.
#[test]
fn the_contest_board_opens_in_chromium_with_its_colours_frozen_cells_and_each_teams_tries() {
    let Some(browser) = chromium("the contest board in chromium") else {
        return;
    };
    let project =
        common::project::Project::new().tree("training", &repo().join("contests/training"));
    let page = project.join("board.html");
    project
        .harness()
        .current_dir(project.join("training"))
        .args([
            "contest",
            "--submissions",
            "submissions",
            "--frozen",
            "-j",
            "2",
            "--html",
        ])
        .arg(&page)
        .assert()
        // The shipped contest holds a judge error (the coach's checker of A fails on eli's
        // try): the board is written, and the run says the judge failed.
        .code(3);
    let xml = dom(&browser, &page);
    let document = parse(&xml);
    let rows: Vec<_> = document
        .descendants()
        .filter(|n| n.has_tag_name("tr") && n.attribute("data-team").is_some())
        .collect();
    let teams: Vec<_> = rows
        .iter()
        .map(|r| r.attribute("data-team").unwrap())
        .collect();
    assert_eq!(
        teams,
        ["ada", "cy", "bo", "eli", "dee"],
        "by rank, ties by name"
    );
    let cell = |team: usize, label: &str| {
        rows[team]
            .children()
            .find(|n| n.attribute("data-problem") == Some(label))
            .unwrap_or_else(|| panic!("no cell {label} of {}", teams[team]))
    };
    for row in &rows {
        assert_eq!(
            row.children().filter(|n| has_class(n, "cell")).count(),
            4,
            "a cell per problem"
        );
    }
    // ada's and cy's A at minute 12 are solved but no first solves while eli's earlier try
    // waits on the judge error (pending, as DOMjudge shows it); bo's D sent in the freeze,
    // eli's D tried.
    for team in [0, 1] {
        assert!(has_class(&cell(team, "A"), "solved") && !has_class(&cell(team, "A"), "first"));
    }
    assert!(
        has_class(&cell(3, "A"), "pending"),
        "eli's A waits on the judge"
    );
    assert!(has_class(&cell(2, "A"), "solved"));
    assert!(
        has_class(&cell(2, "D"), "pending"),
        "bo's D is in the freeze"
    );
    assert!(has_class(&cell(3, "D"), "rejected"));
    assert!(has_class(&cell(4, "A"), "empty"));
    // Each cell links to its team's tries on that problem, which are on the page.
    let target = cell(3, "C")
        .descendants()
        .find(|n| n.has_tag_name("a"))
        .and_then(|a| a.attribute("href"))
        .unwrap()
        .trim_start_matches('#')
        .to_string();
    let section = document
        .descendants()
        .find(|n| n.attribute("id") == Some(target.as_str()))
        .unwrap_or_else(|| panic!("no #{target} on the page"));
    assert!(
        section.text().unwrap_or_default().starts_with('C'),
        "{target}"
    );
    let text: String = document
        .descendants()
        .filter_map(|n| n.text())
        .collect::<Vec<_>>()
        .join(" ");
    assert!(
        text.contains("sample-1"),
        "eli's TLE names its first failing case"
    );
    assert!(
        text.contains("sent during the freeze"),
        "bo's late try is hidden"
    );
    assert!(
        !document
            .descendants()
            .any(|n| n.has_tag_name("script") || n.has_tag_name("link")),
        "nothing is run or fetched"
    );

    let png = output_folder().join("contest-training-frozen.png");
    let _ = std::fs::remove_file(&png);
    run_chromium(
        &browser,
        &page,
        &[
            &format!("--screenshot={}", png.display()),
            "--window-size=1100,1400",
        ],
    );
    let bytes = std::fs::read(&png).expect("the screenshot");
    assert!(bytes.starts_with(b"\x89PNG\r\n\x1a\n"), "a PNG");
    eprintln!("screenshot: {}", png.display());
}
