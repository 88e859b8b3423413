//! The book under docs/ and the README: the command reference is what clap says (it is
//! generated, and a stale page fails here with the command that regenerates it), the
//! source-tree page names every entry of harness/src, and the README fits on a page.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

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

#[test]
fn the_source_tree_page_names_every_entry_of_harness_src() {
    let page = fs::read_to_string(book_src().join("design/architecture.md")).unwrap();
    let mut missing = Vec::new();
    for entry in fs::read_dir(repo().join("harness/src")).unwrap() {
        let entry = entry.unwrap();
        let name = entry.file_name().to_string_lossy().into_owned();
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
