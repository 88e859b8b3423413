//! The book under docs/ and the README: the command reference is what clap says (it is
//! generated, and a stale page fails here with the command that regenerates it), every
//! internal link and include resolves, every page is in SUMMARY.md, the source-tree page names
//! every entry of harness/src, and the README fits on a page.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Component, Path, PathBuf};

use harness::cli::book::{reference_pages, PAGES_DIR, REGENERATE};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("harness/ has a parent")
        .to_path_buf()
}

fn book_src() -> PathBuf {
    repo().join("docs/src")
}

/// Every Markdown file under `dir`, sorted.
fn markdown_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = walkdir::WalkDir::new(dir)
        .into_iter()
        .map(|entry| entry.expect("readable docs/src").into_path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "md"))
        .collect();
    files.sort();
    files
}

#[test]
fn the_command_reference_is_what_clap_says() {
    let dir = repo().join(PAGES_DIR);
    let update = std::env::var_os("UPDATE_BOOK").is_some_and(|v| v == "1");
    let pages = reference_pages();
    let mut stale = Vec::new();
    for (name, text) in &pages {
        let path = dir.join(name);
        if fs::read_to_string(&path).ok().as_deref() != Some(text.as_str()) {
            if update {
                fs::create_dir_all(&dir).unwrap();
                fs::write(&path, text).unwrap();
                eprintln!("wrote {}", path.display());
            } else {
                stale.push(format!("{PAGES_DIR}/{name}"));
            }
        }
    }
    let wanted: BTreeSet<&str> = pages.iter().map(|(name, _)| name.as_str()).collect();
    for entry in fs::read_dir(&dir).into_iter().flatten() {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        if !wanted.contains(name.as_str()) {
            if update {
                fs::remove_file(dir.join(&name)).unwrap();
                eprintln!("removed {PAGES_DIR}/{name} (no such command)");
            } else {
                stale.push(format!("{PAGES_DIR}/{name} (no such command)"));
            }
        }
    }
    assert!(
        stale.is_empty(),
        "the book's command reference differs from `harness help`: {}\n(regenerate it with `{REGENERATE}` and commit the pages)",
        stale.join(", ")
    );
}

/// The real binary's `harness help CMD`: each option it lists has its row on the page.
#[test]
fn every_option_of_harness_help_is_on_its_page() {
    let dir = repo().join(PAGES_DIR);
    for (name, page) in reference_pages() {
        let command = name.trim_end_matches(".md");
        let mut harness = assert_cmd::Command::cargo_bin("harness").unwrap();
        if command != "harness" {
            harness.args(["help", command]);
        } else {
            harness.arg("--help");
        }
        let help = String::from_utf8(harness.output().unwrap().stdout).unwrap();
        let on_disk = fs::read_to_string(dir.join(&name)).unwrap_or_default();
        for line in help.lines().map(str::trim_start) {
            // An option's first line: `-p, --problem <PROBLEM>` or `--no-build`; not a value's
            // `- human: …` line.
            if !line.starts_with('-')
                || !line[1..].starts_with(|c: char| c == '-' || c.is_ascii_alphanumeric())
            {
                continue;
            }
            let flag = line
                .split([' ', ','])
                .find(|w| w.starts_with("--"))
                .unwrap_or(line);
            let flag = flag.split(['<', '=']).next().unwrap();
            if flag == "--help" || flag == "--version" || flag == "-h" || flag == "-V" {
                continue;
            }
            assert!(
                page.contains(flag) && on_disk.contains(flag),
                "`harness help {command}` lists `{flag}`, {PAGES_DIR}/{name} does not (regenerate with `{REGENERATE}`)"
            );
        }
    }
}

#[test]
fn every_page_is_in_the_summary() {
    let src = book_src();
    let summary = fs::read_to_string(src.join("SUMMARY.md")).unwrap();
    let listed: BTreeSet<String> = links(&summary)
        .into_iter()
        .map(|(_, target)| target)
        .collect();
    let missing: Vec<String> = markdown_files(&src)
        .iter()
        .map(|path| relative(path, &src))
        .filter(|page| page != "SUMMARY.md" && !listed.contains(page))
        .collect();
    assert!(
        missing.is_empty(),
        "pages not in docs/src/SUMMARY.md, so not in the book: {missing:?}"
    );
}

#[test]
fn internal_links_and_includes_resolve() {
    let src = book_src();
    let mut files = markdown_files(&src);
    files.push(repo().join("README.md"));
    let mut broken = Vec::new();
    for file in &files {
        let text = fs::read_to_string(file).unwrap();
        let in_book = file.starts_with(&src);
        for (line, target) in links(&text) {
            if let Err(why) = check_link(file, &target, in_book) {
                broken.push(format!(
                    "{}:{line}: `{target}`: {why}",
                    relative(file, &repo())
                ));
            }
        }
        for (line, target) in includes(&text) {
            if !file.parent().unwrap().join(&target).is_file() {
                broken.push(format!(
                    "{}:{line}: {{{{#include {target}}}}}: no such file",
                    relative(file, &repo())
                ));
            }
        }
    }
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

#[test]
fn the_source_tree_page_names_every_entry_of_harness_src() {
    let page = fs::read_to_string(book_src().join("design/architecture.md")).unwrap();
    let mut missing = Vec::new();
    // harness/sandbox/src holds layers 1 and 2, re-exported at the harness's root.
    let entries = ["harness/src", "harness/sandbox/src"]
        .into_iter()
        .flat_map(|dir| fs::read_dir(repo().join(dir)).unwrap());
    for entry in entries {
        let entry = entry.unwrap();
        let name = entry.file_name().to_string_lossy().into_owned();
        if name == "lib.rs" && entry.path().starts_with(repo().join("harness/sandbox")) {
            continue;
        }
        let shown = if entry.file_type().unwrap().is_dir() {
            format!("| `{name}/` |")
        } else {
            format!("| `{name}` |")
        };
        if !page.contains(&shown) {
            missing.push(shown);
        }
    }
    missing.sort();
    assert!(
        missing.is_empty(),
        "docs/src/design/architecture.md has no row for {missing:?}: add one"
    );
}

#[test]
fn the_readme_fits_on_a_page() {
    let readme = fs::read_to_string(repo().join("README.md")).unwrap();
    let lines = readme.lines().count();
    assert!(
        lines <= 250,
        "README.md has {lines} lines, more than 250: move the detail into its chapter of docs/src"
    );
}

#[test]
fn the_link_checker_finds_what_is_broken() {
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("a.md");
    fs::write(&page, "# A title, `code`\n\n## Second\n").unwrap();
    assert_eq!(check_link(&page, "a.md#a-title-code", false), Ok(()));
    assert_eq!(check_link(&page, "#second", false), Ok(()));
    assert!(check_link(&page, "#third", false).is_err());
    assert!(check_link(&page, "b.md", false).is_err());
    assert_eq!(check_link(&page, "https://example.org/x", false), Ok(()));
    // A file that exists but that the rendered book does not have.
    let chapter = book_src().join("guide/problems.md");
    assert!(check_link(&chapter, "../../problems/king-queens.md", true).is_err());
    assert_eq!(
        check_link(&chapter, "../problems/king-queens.md", true),
        Ok(())
    );
    let text = "[a](a.md) `[b](b.md)`\n```\n[c](c.md)\n```\n[d](d.md \"title\")\n";
    let found: Vec<String> = links(text).into_iter().map(|(_, t)| t).collect();
    assert_eq!(found, ["a.md", "d.md"]);
}

/// The `](target)` links of a Markdown text outside code, with their line numbers.
fn links(text: &str) -> Vec<(usize, String)> {
    let mut found = Vec::new();
    for (number, line) in prose_lines(text) {
        let line = without_code_spans(line);
        let mut rest = line.as_str();
        while let Some(start) = rest.find("](") {
            rest = &rest[start + 2..];
            let Some(end) = rest.find(')') else { break };
            let target = rest[..end].split_whitespace().next().unwrap_or("");
            if !target.is_empty() {
                found.push((number, target.to_owned()));
            }
            rest = &rest[end..];
        }
    }
    found
}

/// The `{{#include path}}` targets of a Markdown text, with their line numbers.
fn includes(text: &str) -> Vec<(usize, String)> {
    let mut found = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let mut rest = line;
        while let Some(start) = rest.find("{{#include ") {
            rest = &rest[start + "{{#include ".len()..];
            let Some(end) = rest.find("}}") else { break };
            // `path:anchor` or `path:1:10` picks a part; the file is before the colon.
            let path = rest[..end].trim().split(':').next().unwrap_or("");
            found.push((number + 1, path.to_owned()));
            rest = &rest[end..];
        }
    }
    found
}

/// The lines outside fenced code blocks, numbered from 1.
fn prose_lines(text: &str) -> Vec<(usize, &str)> {
    let mut fenced = false;
    let mut lines = Vec::new();
    for (number, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
        } else if !fenced {
            lines.push((number + 1, line));
        }
    }
    lines
}

fn without_code_spans(line: &str) -> String {
    line.split('`')
        .enumerate()
        .filter(|(i, _)| i % 2 == 0)
        .map(|(_, part)| part)
        .collect::<Vec<_>>()
        .join(" ")
}

/// Whether `target`, linked from `file`, exists (and so does its `#anchor`). A link from the
/// book must stay inside docs/src: the rendered book has nothing else.
fn check_link(file: &Path, target: &str, in_book: bool) -> Result<(), String> {
    if target.contains("://") || target.starts_with("mailto:") {
        return Ok(());
    }
    let (path, anchor) = match target.split_once('#') {
        Some((path, anchor)) => (path, Some(anchor)),
        None => (target, None),
    };
    let resolved = if path.is_empty() {
        file.to_path_buf()
    } else {
        normalize(&file.parent().unwrap().join(path))
    };
    if !resolved.exists() {
        return Err("no such file".to_owned());
    }
    if in_book && !resolved.starts_with(normalize(&book_src())) && !path.is_empty() {
        return Err("outside docs/src, so not in the rendered book".to_owned());
    }
    if let Some(anchor) = anchor {
        let text = fs::read_to_string(&resolved).map_err(|e| e.to_string())?;
        if !anchors(&text).contains(anchor) {
            return Err(format!("no heading with the anchor `#{anchor}`"));
        }
    }
    Ok(())
}

/// The anchors of a page's headings, as mdBook (and GitHub) make them: lower case, spaces to
/// `-`, punctuation dropped, a repeated one numbered.
fn anchors(text: &str) -> BTreeSet<String> {
    let mut seen = BTreeSet::new();
    for (_, line) in prose_lines(text) {
        let Some(title) = line.strip_prefix('#') else {
            continue;
        };
        let title = title.trim_start_matches('#');
        if !title.starts_with(' ') {
            continue;
        }
        let id: String = title
            .trim()
            .chars()
            .filter_map(|ch| {
                if ch.is_alphanumeric() || ch == '_' || ch == '-' {
                    Some(ch.to_ascii_lowercase())
                } else if ch.is_whitespace() {
                    Some('-')
                } else {
                    None
                }
            })
            .collect();
        let mut unique = id.clone();
        let mut n = 1;
        while seen.contains(&unique) {
            unique = format!("{id}-{n}");
            n += 1;
        }
        seen.insert(unique);
    }
    seen
}

fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

fn relative(path: &Path, base: &Path) -> String {
    path.strip_prefix(base)
        .unwrap_or(path)
        .to_string_lossy()
        .into_owned()
}
