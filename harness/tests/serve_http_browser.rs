//! The live page in a real browser: headless Chromium (Debian's `chromium`, which
//! `.ci/install-tools` installs) opens `harness serve --http 0`'s page while a client judges
//! through the protocol on the server's stdin, and the page's tree is read again and again
//! through the DevTools protocol (tests/common/browser.rs) as the task runs: the case rows
//! appear one by one, a failing case's input, expected and received with the diff, a
//! compile error's diagnostics, a watched task's second run replacing the first, the final
//! verdicts. A screenshot is kept in the tests' output folder (`target/tmp/live-page/`).
#![cfg(unix)]

mod common;

use std::path::PathBuf;

use common::browser::{chromium, Browser};
use common::project::Project;
use common::serve::stdio_with;
use serde_json::{json, Value};

/// Right on `1 2`; on `5 1` prints markup instead of the sum, which the page must show as
/// text; on `0 0` sleeps far past anything the test waits for (the task is cancelled).
const V1: &str = "import time\na, b = map(int, input().split())\nif a == 0:\n    time.sleep(600)\nprint('<b>7</b>' if a == 5 else a + b)\n";
/// The same without the sleep.
const V2: &str = "a, b = map(int, input().split())\nprint('<b>7</b>' if a == 5 else a + b)\n";
/// Right everywhere.
const V3: &str = "a, b = map(int, input().split())\nprint(a + b)\n";

fn output_folder() -> PathBuf {
    let folder = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("live-page");
    std::fs::create_dir_all(&folder).unwrap();
    folder
}

/// A JavaScript expression for the section of `task`.
fn section(task: &Value) -> String {
    format!("document.querySelector('section[data-task=\"{task}\"]')")
}

#[test]
fn the_live_page_follows_a_task_as_it_runs_in_chromium() {
    let Some(chromium) = chromium("the live page in chromium") else {
        return;
    };
    let project = Project::new()
        .file("a.py", V1)
        .file("bad.cpp", "int main() {\n    return y;\n}\n")
        .file("test/1.in", "1 2\n")
        .file("test/1.ans", "3\n")
        .file("test/2.in", "5 1\n")
        .file("test/2.ans", "6\n")
        .file("test/3.in", "0 0\n")
        .file("test/3.ans", "0\n");
    let mut server = stdio_with(&project, &["--http", "0"]);
    let port = server.port("live page on");
    let mut page = Browser::open(&chromium, &format!("http://127.0.0.1:{port}/"));
    // Until the page has loaded there is no status to read.
    page.wait_until("document.getElementById('status')?.textContent === 'live'");
    let client = &mut server.client;

    // A task that fails its second case and then sleeps on its third: the page shows the
    // first two while it still runs.
    let source = project.join("a.py");
    let first = client.result(
        "judge",
        &json!({"source": source, "all": true, "time_limit": "60s"}),
    )["task"]
        .clone();
    let s = section(&first);
    page.wait_until(&format!(
        "{s} !== null && {s}.querySelectorAll('tr.case').length === 2"
    ));
    let rows = page.eval(&format!(
        "[...{s}.querySelectorAll('tr.case')].map(r => [r.dataset.case, r.dataset.verdict, r.cells[2].textContent !== ''])"
    ));
    assert_eq!(rows, json!([["1", "AC", true], ["2", "WA", true]]));
    assert_eq!(
        page.eval(&format!("{s}.classList.contains('running')")),
        true,
        "the task sleeps on its third case: it is still running"
    );
    let parts = page.eval(&format!(
        "Object.fromEntries([...{s}.querySelectorAll('details.failure[data-case=\"2\"] .part')].map(p => [p.dataset.part, p.querySelector('pre').textContent]))"
    ));
    assert_eq!(parts["input"], "5 1");
    assert_eq!(parts["expected"], "6");
    assert_eq!(parts["received"], "<b>7</b>", "{parts}");
    let diff = parts["diff"].as_str().unwrap();
    assert!(diff.contains("6") && diff.contains("<b>7</b>"), "{diff}");
    assert_eq!(
        page.eval(&format!("{s}.querySelectorAll('.diff .del').length > 0 && {s}.querySelectorAll('.diff .ins').length > 0")),
        true
    );
    // What the program printed is text, never markup.
    assert_eq!(page.eval("document.querySelectorAll('main b').length"), 0);
    // The limit as the task's plan has it (the language's multiplier applied).
    let limit = client.until(&first, "task.started")["limits"]["time_ms"]
        .as_u64()
        .unwrap();
    let plan = page.eval(&format!("{s}.querySelector('.plan').textContent"));
    let shown = format!("limit {:.1} s", limit as f64 / 1000.0);
    assert!(
        plan.as_str().unwrap().contains(&shown),
        "{plan} lacks {shown}"
    );
    client.result("cancel", &json!({"task": first}));
    page.wait_until(&format!("{s}.classList.contains('finished')"));
    assert_eq!(
        page.eval(&format!("{s}.querySelector('.verdict').textContent")),
        "cancelled"
    );

    // A watched task: its first run's verdict, then a save, and the second run replaces it.
    std::fs::write(&source, V2).unwrap();
    let watched = client.result(
        "judge",
        &json!({"source": source, "all": true, "watch": true}),
    )["task"]
        .clone();
    let w = section(&watched);
    page.wait_until(&format!("{w} !== null && {w}.dataset.verdict === 'WA'"));
    assert_eq!(
        page.eval(&format!("{w}.querySelectorAll('tr.case').length")),
        3
    );
    assert_eq!(page.eval(&format!("{w}.dataset.done")), "false");
    assert_eq!(
        page.eval(&format!(
            "{w}.querySelector('.verdict [data-verdict]').dataset.verdict"
        )),
        "WA"
    );
    assert_eq!(
        page.eval(&format!(
            "{w}.querySelector('.progress').textContent.includes('judged again on save')"
        )),
        true
    );
    page.screenshot(&output_folder().join("live-page.png"));
    std::fs::write(&source, V3).unwrap();
    page.wait_until(&format!(
        "{w}.dataset.run === '2' && {w}.dataset.verdict === 'AC'"
    ));
    assert_eq!(
        page.eval(&format!(
            "[...{w}.querySelectorAll('tr.case')].map(r => r.dataset.verdict)"
        )),
        json!(["AC", "AC", "AC"])
    );
    assert_eq!(
        page.eval(&format!("{w}.querySelectorAll('details.failure').length")),
        0
    );
    client.result("cancel", &json!({"task": watched}));

    // A compile error: the compiler's places, listed.
    let broken =
        client.result("judge", &json!({"source": project.join("bad.cpp")}))["task"].clone();
    let b = section(&broken);
    page.wait_until(&format!(
        "{b} !== null && {b}.classList.contains('finished')"
    ));
    assert_eq!(
        page.eval(&format!(
            "{b}.querySelector('.verdict [data-verdict]').dataset.verdict"
        )),
        "CE"
    );
    let diagnostic = page
        .eval(&format!("{b}.querySelector('.diagnostics li').textContent"))
        .as_str()
        .unwrap()
        .to_string();
    assert!(diagnostic.starts_with("bad.cpp:2:"), "{diagnostic}");
    assert!(diagnostic.contains('y'), "{diagnostic}");
    assert_eq!(
        page.eval("/\\b(null|undefined)\\b/.test(document.querySelector('main').innerText)"),
        false,
        "a missing field was drawn as text"
    );
    // Every event reached the page, in order.
    let last = client.result("events", &json!({"since": 0}))["next"]
        .as_u64()
        .unwrap()
        - 1;
    page.wait_until(&format!("document.body.dataset.seq === '{last}'"));
}

/// The Kattis guessing game's interactor (tests/interactive.rs has its siblings): the secret
/// from the case's input, ten guesses, `higher`/`lower`/`correct`.
const GUESS_KATTIS: &str = r#"#!/usr/bin/env python3
import sys
secret = int(open(sys.argv[1]).read())
feedback = sys.argv[3]
for number in range(1, 11):
    line = sys.stdin.readline()
    if not line:
        open(feedback + "judgemessage.txt", "w").write("the submission ended before guess %d\n" % number)
        sys.exit(43)
    guess = int(line)
    if guess == secret:
        print("correct", flush=True)
        sys.exit(42)
    print("higher" if guess < secret else "lower", flush=True)
open(feedback + "judgemessage.txt", "w").write("not found in 10 guesses\n")
sys.exit(43)
"#;

/// Guesses 1, 2, 3, …: never reaches 37 in ten.
const COUNTS_UP: &str =
    "import sys\nfor i in range(1, 11):\n    print(i, flush=True)\n    if sys.stdin.readline().strip() == 'correct':\n        break\n";

/// Sums a list (`n`, then n numbers), one too many for a number above 50.
const WRONG_SUM: &str =
    "n = int(input())\nprint(sum(v + 1 if v > 50 else v for v in map(int, input().split())))\n";
const BRUTE_SUM: &str = "n = int(input())\nprint(sum(map(int, input().split())))\n";
/// testlib-style: the seed is the last argument.
const GEN: &str = "import random, sys\nr = random.Random(int(sys.argv[-1]))\nn = r.randint(1, 8)\nprint(n)\nprint(*[r.randint(0, 60) for _ in range(n)])\n";

#[test]
fn the_live_page_shows_a_dialogue_side_by_side_and_a_stress_counterexample() {
    let Some(chromium) = chromium("the live page's dialogue and stress in chromium") else {
        return;
    };
    let project = Project::new()
        .file(
            "judge.toml",
            &format!(
                "[problems.guess]\ncases = \"cases/guess\"\ntime-limit = \"5s\"\ninteractor = [\"interactors/guess-kattis\"]\ninteractor-protocol = \"kattis\"\n{}",
                common::C_AND_PYTHON
            ),
        )
        .executable("interactors/guess-kattis", GUESS_KATTIS)
        .case("guess", "1", "37\n", "37\n")
        .file("counts_up.py", COUNTS_UP);
    // The stress run's sources, in a folder with no judge.toml above it.
    let practice = Project::new()
        .file("wrong.py", WRONG_SUM)
        .file("brute.py", BRUTE_SUM)
        .file("gen.py", GEN);
    let mut server = stdio_with(&project, &["--http", "0"]);
    let port = server.port("live page on");
    let mut page = Browser::open(&chromium, &format!("http://127.0.0.1:{port}/"));
    page.wait_until("document.getElementById('status')?.textContent === 'live'");
    let client = &mut server.client;

    let guessed = client.result(
        "judge",
        &json!({"source": project.join("counts_up.py"), "problem": "guess"}),
    )["task"]
        .clone();
    let g = section(&guessed);
    page.wait_until(&format!(
        "{g} !== null && {g}.classList.contains('finished')"
    ));
    assert_eq!(page.eval(&format!("{g}.dataset.verdict")), "WA");
    // Each line on its side: the submission's guesses left, the interactor's replies right.
    let sides = page.eval(&format!(
        "[...{g}.querySelectorAll('table.dialogue tbody tr')].slice(0, 4).map(r => [r.cells[0].textContent, r.cells[1].textContent])"
    ));
    assert_eq!(
        sides,
        json!([["1", ""], ["", "higher"], ["2", ""], ["", "higher"]]),
        "the dialogue's first lines"
    );
    let said = page.eval(&format!(
        "{g}.querySelector('[data-part=\"interactor said\"] pre').textContent"
    ));
    assert!(said.as_str().unwrap().contains("not found"), "{said}");

    let stressed = client.result(
        "stress",
        &json!({
            "source": practice.join("wrong.py"),
            "generator": practice.join("gen.py"),
            "reference": practice.join("brute.py"),
            "seed": 1,
        }),
    )["task"]
        .clone();
    let s = section(&stressed);
    page.wait_until(&format!(
        "{s} !== null && {s}.classList.contains('finished')"
    ));
    assert!(
        page.eval(&format!(
            "Number({s}.querySelector('.stress').dataset.iterations)"
        ))
        .as_u64()
        .unwrap()
            >= 1,
        "stress.progress was drawn"
    );
    assert_eq!(page.eval(&format!("{s}.dataset.verdict")), "WA");
    let counterexample = page
        .eval(&format!(
            "{s}.querySelector('pre.counterexample').textContent"
        ))
        .as_str()
        .unwrap()
        .to_string();
    // Shrunk to one number above 50.
    let numbers: Vec<u64> = counterexample
        .split_whitespace()
        .map(|n| n.parse().unwrap())
        .collect();
    assert_eq!(numbers.len(), 2, "{counterexample}");
    assert!(numbers[1] > 50, "{counterexample}");
    assert_eq!(
        page.eval(&format!("{s}.querySelector('.cases').hidden")),
        true
    );
    assert_eq!(
        page.eval("/\\b(null|undefined)\\b/.test(document.querySelector('main').innerText)"),
        false,
        "a missing field was drawn as text"
    );
    page.screenshot(&output_folder().join("live-page-stress.png"));
}
