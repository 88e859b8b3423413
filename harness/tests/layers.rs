//! The layer rule as a test: every `crate::` and `super::` path in `harness/src` and in
//! `harness/sandbox/src` (layers 1 and 2 as a crate of their own, whose modules the harness
//! re-exports at its root, so one module tree) points to its own layer or a lower one, and no module depends on itself through others. The layer table
//! is read from `lib.rs`'s docs, so the docs and this check cannot drift apart.
//!
//! The reading is lexical, not a compiler's: comments, string literals and `#[cfg(test)]`
//! items are blanked out first, then every path that starts with `crate::`, `super::`,
//! `self::` or the name of a child module is collected (with `use` groups expanded). A
//! `pub use` of a sibling's item inside one top-level module is a re-export, not a use: a path
//! to the re-exported name counts as a path to where it is defined.

mod common;

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

use common::project::Project;

/// A module path from the crate root: `["judge", "suite"]`.
type ModPath = Vec<String>;

#[derive(Debug, Clone)]
struct Layer {
    name: String,
    modules: Vec<String>,
}

/// One path found in a file, resolved to absolute segments from the crate root.
#[derive(Debug, Clone)]
struct Reference {
    line: usize,
    segments: Vec<String>,
    /// Written inside a `pub use` (a re-export).
    reexport: bool,
}

#[derive(Debug)]
struct SourceFile {
    /// Relative to the source root, for messages.
    shown: String,
    module: ModPath,
    references: Vec<Reference>,
}

/// Parse the layer table: the `//!` lines of lib.rs that read
/// ``N. name: `module`, `module` — what the layer is for``, bottom to top.
fn layer_table(lib_rs: &str) -> Result<Vec<Layer>, String> {
    let mut layers = Vec::new();
    for line in lib_rs.lines() {
        let Some(doc) = line.trim_start().strip_prefix("//!") else {
            continue;
        };
        let doc = doc.trim();
        let Some((number, rest)) = doc.split_once(". ") else {
            continue;
        };
        if number.is_empty() || !number.chars().all(|c| c.is_ascii_digit()) {
            continue;
        }
        let Some((name, rest)) = rest.split_once(':') else {
            continue;
        };
        let list = rest.split('—').next().unwrap_or("");
        let modules: Vec<String> = list
            .split('`')
            .skip(1)
            .step_by(2)
            .map(str::to_string)
            .collect();
        if modules.is_empty() {
            continue;
        }
        if number.parse::<usize>().ok() != Some(layers.len() + 1) {
            return Err(format!(
                "lib.rs: layer `{}` is numbered {number}, expected {}",
                name.trim(),
                layers.len() + 1
            ));
        }
        layers.push(Layer {
            name: name.trim().to_string(),
            modules,
        });
    }
    if layers.is_empty() {
        return Err("lib.rs: no layer table (lines like ``1. base: `text` — …``)".to_string());
    }
    Ok(layers)
}

/// Blank out comments, string and char literals, keeping every newline, so line numbers hold.
fn strip_comments_and_strings(src: &str) -> String {
    let c: Vec<char> = src.chars().collect();
    let mut out = c.clone();
    let blank = |out: &mut Vec<char>, from: usize, to: usize| {
        for ch in out.iter_mut().take(to.min(c.len())).skip(from) {
            if *ch != '\n' {
                *ch = ' ';
            }
        }
    };
    let ident = |ch: char| ch.is_alphanumeric() || ch == '_';
    let mut i = 0;
    while i < c.len() {
        let next = c.get(i + 1).copied();
        if c[i] == '/' && next == Some('/') {
            let end = (i..c.len()).find(|&j| c[j] == '\n').unwrap_or(c.len());
            blank(&mut out, i, end);
            i = end;
        } else if c[i] == '/' && next == Some('*') {
            let (mut depth, mut j) = (1, i + 2);
            while j < c.len() && depth > 0 {
                if c[j] == '/' && c.get(j + 1) == Some(&'*') {
                    depth += 1;
                    j += 2;
                } else if c[j] == '*' && c.get(j + 1) == Some(&'/') {
                    depth -= 1;
                    j += 2;
                } else {
                    j += 1;
                }
            }
            blank(&mut out, i, j);
            i = j;
        } else if c[i] == 'r'
            && (i == 0 || !ident(c[i - 1]) || (c[i - 1] == 'b' && (i < 2 || !ident(c[i - 2]))))
            && matches!(next, Some('"') | Some('#'))
        {
            // A raw string r"…" or r#"…"#; `r#ident` (a raw identifier) is left alone.
            let mut j = i + 1;
            while c.get(j) == Some(&'#') {
                j += 1;
            }
            if c.get(j) != Some(&'"') {
                i += 1;
                continue;
            }
            let hashes = j - i - 1;
            let mut k = j + 1;
            while k < c.len() {
                if c[k] == '"' && (1..=hashes).all(|h| c.get(k + h) == Some(&'#')) {
                    break;
                }
                k += 1;
            }
            blank(&mut out, i, k + 1 + hashes);
            i = k + 1 + hashes;
        } else if c[i] == '"' {
            let mut j = i + 1;
            while j < c.len() && c[j] != '"' {
                j += if c[j] == '\\' { 2 } else { 1 };
            }
            blank(&mut out, i, j + 1);
            i = j + 1;
        } else if c[i] == '\'' {
            // A char literal ('x', '\n', '\u{1F600}') or a lifetime ('a), which stays.
            if next == Some('\\') {
                let end = (i + 2..c.len()).find(|&j| c[j] == '\'').unwrap_or(c.len());
                blank(&mut out, i, end + 1);
                i = end + 1;
            } else if c.get(i + 2) == Some(&'\'') {
                blank(&mut out, i, i + 3);
                i += 3;
            } else {
                i += 1;
            }
        } else {
            i += 1;
        }
    }
    out.into_iter().collect()
}

/// Blank out every item under `#[cfg(test)]` (or `#[cfg(all(test, …))]`); returns the names
/// of test-only modules declared as `mod name;`, whose files are skipped.
fn strip_test_items(code: &str) -> (String, Vec<String>) {
    let c: Vec<char> = code.chars().collect();
    let mut out = c.clone();
    let mut test_modules = Vec::new();
    let mut i = 0;
    while i < c.len() {
        if c[i] != '#' || c.get(i + 1) != Some(&'[') {
            i += 1;
            continue;
        }
        let close = matching(&c, i + 1, '[', ']');
        let attr: String = c[i + 2..close].iter().collect();
        let attr: String = attr.split_whitespace().collect();
        let is_test = attr.starts_with("cfg(")
            && !attr.contains("not(")
            && attr
                .split(|ch: char| !(ch.is_alphanumeric() || ch == '_'))
                .any(|word| word == "test");
        if !is_test {
            i = close + 1;
            continue;
        }
        // Skip further attributes, then the item: up to its `;` or its closing brace.
        let mut j = close + 1;
        loop {
            while j < c.len() && c[j].is_whitespace() {
                j += 1;
            }
            if c.get(j) == Some(&'#') && c.get(j + 1) == Some(&'[') {
                j = matching(&c, j + 1, '[', ']') + 1;
            } else {
                break;
            }
        }
        let start_item = j;
        let mut end = j;
        while end < c.len() && c[end] != ';' && c[end] != '{' {
            end += 1;
        }
        if end < c.len() && c[end] == '{' {
            end = matching(&c, end, '{', '}');
        } else {
            let head: String = c[start_item..end.min(c.len())].iter().collect();
            let words: Vec<&str> = head.split_whitespace().collect();
            if let Some(pos) = words.iter().position(|w| *w == "mod") {
                if let Some(name) = words.get(pos + 1) {
                    test_modules.push(name.to_string());
                }
            }
        }
        for ch in out.iter_mut().take((end + 1).min(c.len())).skip(i) {
            if *ch != '\n' {
                *ch = ' ';
            }
        }
        i = end + 1;
    }
    (out.into_iter().collect(), test_modules)
}

/// The index of the bracket that closes the one at `open`.
fn matching(c: &[char], open: usize, left: char, right: char) -> usize {
    let mut depth = 0;
    for (j, &ch) in c.iter().enumerate().skip(open) {
        if ch == left {
            depth += 1;
        } else if ch == right {
            depth -= 1;
            if depth == 0 {
                return j;
            }
        }
    }
    c.len().saturating_sub(1)
}

/// The module a file is: `judge/suite.rs` and `judge/suite/mod.rs` are `judge::suite`.
fn module_of(relative: &Path) -> ModPath {
    let mut parts: Vec<String> = relative
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    let last = parts.pop().unwrap_or_default();
    let stem = last.trim_end_matches(".rs");
    if !matches!(stem, "mod" | "lib" | "main") {
        parts.push(stem.to_string());
    }
    parts
}

/// A cursor over the stripped source that reads path trees.
struct Paths<'a> {
    c: &'a [char],
    line_starts: Vec<usize>,
}

impl Paths<'_> {
    fn skip_ws(&self, mut i: usize) -> usize {
        while i < self.c.len() && self.c[i].is_whitespace() {
            i += 1;
        }
        i
    }

    fn ident_at(&self, i: usize) -> Option<(String, usize)> {
        let mut j = i;
        if self.c.get(j) == Some(&'r') && self.c.get(j + 1) == Some(&'#') {
            j += 2;
        }
        let start = j;
        while j < self.c.len() && (self.c[j].is_alphanumeric() || self.c[j] == '_') {
            j += 1;
        }
        (j > start && !self.c[start].is_ascii_digit())
            .then(|| (self.c[start..j].iter().collect(), j))
    }

    fn double_colon(&self, i: usize) -> Option<usize> {
        let i = self.skip_ws(i);
        (self.c.get(i) == Some(&':') && self.c.get(i + 1) == Some(&':')).then_some(i + 2)
    }

    /// Read a path tree starting at `i` (after a `::`): `a::b`, `a::{b, c::{d, e}}`, `*`.
    /// Each leaf is appended to `out` with where its last segment starts.
    fn tree(&self, i: usize, prefix: &[String], out: &mut Vec<(usize, Vec<String>)>) -> usize {
        let i = self.skip_ws(i);
        if self.c.get(i) == Some(&'{') {
            let mut j = i + 1;
            loop {
                j = self.skip_ws(j);
                match self.c.get(j) {
                    None => return j,
                    Some('}') => return j + 1,
                    Some(',') => j += 1,
                    _ => {
                        let next = self.tree(j, prefix, out);
                        j = if next == j { j + 1 } else { next };
                    }
                }
            }
        }
        if self.c.get(i) == Some(&'*') {
            out.push((i, prefix.to_vec()));
            return i + 1;
        }
        let Some((name, after)) = self.ident_at(i) else {
            out.push((i, prefix.to_vec()));
            return i;
        };
        let mut path = prefix.to_vec();
        if name != "self" {
            path.push(name);
        }
        if let Some(next) = self.double_colon(after) {
            let k = self.skip_ws(next);
            if self.c.get(k) == Some(&'<') {
                out.push((i, path));
                return k;
            }
            return self.tree(next, &path, out);
        }
        out.push((i, path));
        after
    }

    fn line(&self, i: usize) -> usize {
        self.line_starts.partition_point(|&s| s <= i)
    }

    /// Whether the path starting at `i` is written inside a `pub use`.
    fn in_pub_use(&self, i: usize) -> bool {
        let start = (0..i)
            .rev()
            .find(|&j| matches!(self.c[j], ';' | '}' | '{'))
            .map_or(0, |j| j + 1);
        // A `{` may open a use group: look back past it to the statement's start.
        let mut start = start;
        while start > 0 && self.c[start - 1] == '{' {
            let before: String = self.c[..start - 1].iter().collect();
            if !before.trim_end().ends_with("::") {
                break;
            }
            start = (0..start - 1)
                .rev()
                .find(|&j| matches!(self.c[j], ';' | '}'))
                .map_or(0, |j| j + 1);
        }
        let head: String = self.c[start..i].iter().collect();
        let words: Vec<&str> = head.split_whitespace().collect();
        words
            .iter()
            .position(|w| *w == "use")
            .is_some_and(|p| p > 0 && words[p - 1].starts_with("pub"))
    }
}

/// Every path in one stripped file, resolved from the crate root. `children` are the names
/// of this module's own submodules, which it may name without a prefix.
fn references(code: &str, module: &[String], children: &BTreeSet<String>) -> Vec<Reference> {
    let c: Vec<char> = code.chars().collect();
    let mut line_starts = vec![0];
    line_starts.extend(
        c.iter()
            .enumerate()
            .filter(|(_, ch)| **ch == '\n')
            .map(|(i, _)| i + 1),
    );
    let paths = Paths { c: &c, line_starts };
    let mut found = Vec::new();
    let mut i = 0;
    while i < c.len() {
        let boundary =
            i == 0 || !(c[i - 1].is_alphanumeric() || c[i - 1] == '_' || c[i - 1] == ':');
        let Some((word, after)) = boundary.then(|| paths.ident_at(i)).flatten() else {
            i += 1;
            continue;
        };
        let Some(next) = paths.double_colon(after) else {
            i = after;
            continue;
        };
        let base: Option<ModPath> = match word.as_str() {
            "crate" => Some(Vec::new()),
            "self" => Some(module.to_vec()),
            "super" => {
                let mut base = module.to_vec();
                base.pop();
                let mut j = next;
                while let Some((w, a)) = paths.ident_at(paths.skip_ws(j)) {
                    match (w == "super").then(|| paths.double_colon(a)).flatten() {
                        Some(n) => {
                            base.pop();
                            j = n;
                        }
                        None => break,
                    }
                }
                let mut leaves = Vec::new();
                let end = paths.tree(j, &base, &mut leaves);
                let reexport = paths.in_pub_use(i);
                for (at, segments) in leaves {
                    found.push(Reference {
                        line: paths.line(at),
                        segments,
                        reexport,
                    });
                }
                i = end.max(after);
                continue;
            }
            w if children.contains(w) => {
                let mut base = module.to_vec();
                base.push(w.to_string());
                Some(base)
            }
            _ => None,
        };
        let Some(base) = base else {
            i = after;
            continue;
        };
        let mut leaves = Vec::new();
        let end = paths.tree(next, &base, &mut leaves);
        let reexport = paths.in_pub_use(i);
        for (at, segments) in leaves {
            found.push(Reference {
                line: paths.line(at),
                segments,
                reexport,
            });
        }
        i = end.max(after);
    }
    found
}

/// Every `.rs` file under `dir`, sorted.
fn rust_files(dir: &Path) -> Result<Vec<PathBuf>, String> {
    let mut files = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let entries = fs::read_dir(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        for entry in entries {
            let path = entry.map_err(|e| e.to_string())?.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                files.push(path);
            }
        }
    }
    files.sort();
    Ok(files)
}

/// Read every `.rs` file under `root` (but `main.rs`, a separate crate, and test-only modules),
/// and under each of `lower`: the source roots of crates whose modules `root`'s lib.rs
/// re-exports at its own root (`harness/sandbox/src`), read as part of the same module tree
/// (their own lib.rs only declares those modules, so it is skipped). Their files are shown
/// relative to `root`'s parent.
fn read_tree(root: &Path, lower: &[PathBuf]) -> Result<Vec<SourceFile>, String> {
    let mut files: Vec<(PathBuf, PathBuf, String)> = Vec::new();
    for path in rust_files(root)? {
        let relative = path.strip_prefix(root).unwrap().to_path_buf();
        if relative == Path::new("main.rs") {
            continue;
        }
        files.push((path, relative.clone(), relative.display().to_string()));
    }
    let parent = root.parent().unwrap_or(root);
    for crate_root in lower {
        for path in rust_files(crate_root)? {
            let relative = path.strip_prefix(crate_root).unwrap().to_path_buf();
            if relative == Path::new("lib.rs") || relative == Path::new("main.rs") {
                continue;
            }
            let shown = path
                .strip_prefix(parent)
                .unwrap_or(&path)
                .display()
                .to_string();
            files.push((path, relative, shown));
        }
    }
    let mut stripped: Vec<(String, ModPath, String)> = Vec::new();
    let mut test_only: BTreeSet<ModPath> = BTreeSet::new();
    for (path, relative, shown) in files {
        let src = fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        let (code, tests) = strip_test_items(&strip_comments_and_strings(&src));
        let module = module_of(&relative);
        for name in tests {
            let mut m = module.clone();
            m.push(name);
            test_only.insert(m);
        }
        stripped.push((shown, module, code));
    }
    stripped.retain(|(_, m, _)| !test_only.iter().any(|t| m.starts_with(t)));
    let modules: BTreeSet<ModPath> = stripped.iter().map(|(_, m, _)| m.clone()).collect();
    Ok(stripped
        .into_iter()
        .map(|(shown, module, code)| {
            let children: BTreeSet<String> = modules
                .iter()
                .filter(|m| m.len() == module.len() + 1 && m.starts_with(&module))
                .map(|m| m[module.len()].clone())
                .collect();
            SourceFile {
                shown,
                references: references(&code, &module, &children),
                module,
            }
        })
        .collect())
}

/// One dependency: from a file's module to the module a path lands in.
#[derive(Debug, Clone)]
struct Edge {
    from: ModPath,
    to: ModPath,
    at: String,
    written: String,
}

/// Resolve each path to the module it names (the longest prefix that is a module); a name a
/// module re-exports from a sibling counts as the module that defines it.
fn edges(files: &[SourceFile]) -> Vec<Edge> {
    let modules: BTreeSet<ModPath> = files.iter().map(|f| f.module.clone()).collect();
    let module_prefix = |segments: &[String]| -> ModPath {
        (0..=segments.len())
            .rev()
            .map(|n| segments[..n].to_vec())
            .find(|p| modules.contains(p))
            .unwrap_or_default()
    };
    // (module, name) -> the module that defines it, for re-exports within one top-level module.
    let mut reexports: BTreeMap<(ModPath, String), ModPath> = BTreeMap::new();
    for file in files {
        for r in file.references.iter().filter(|r| r.reexport) {
            let target = module_prefix(&r.segments);
            if target.first() == file.module.first() && r.segments.len() > target.len() {
                let name = r.segments[target.len()].clone();
                reexports.insert((file.module.clone(), name), target);
            }
        }
    }
    let mut edges = Vec::new();
    for file in files {
        for r in &file.references {
            let mut target = module_prefix(&r.segments);
            let rest = r.segments[target.len()..].to_vec();
            let mut hops = 0;
            while let Some(name) = rest.first() {
                let Some(defined) = reexports.get(&(target.clone(), name.clone())) else {
                    break;
                };
                if hops > 8 {
                    break;
                }
                hops += 1;
                target = defined.clone();
            }
            let same_top = target.first() == file.module.first();
            if r.reexport && same_top {
                continue;
            }
            if target == file.module || target.is_empty() {
                continue;
            }
            edges.push(Edge {
                from: file.module.clone(),
                to: target,
                at: format!("{}:{}", file.shown, r.line),
                written: r.segments.join("::"),
            });
        }
    }
    edges
}

/// Strongly connected components with more than one node (Tarjan), each as a cycle path.
fn cycles(graph: &BTreeMap<String, BTreeMap<String, String>>) -> Vec<(Vec<String>, Vec<String>)> {
    struct State<'g> {
        graph: &'g BTreeMap<String, BTreeMap<String, String>>,
        index: BTreeMap<String, usize>,
        low: BTreeMap<String, usize>,
        stack: Vec<String>,
        on: BTreeSet<String>,
        sccs: Vec<Vec<String>>,
    }
    fn visit(s: &mut State, v: &str) {
        let n = s.index.len();
        s.index.insert(v.to_string(), n);
        s.low.insert(v.to_string(), n);
        s.stack.push(v.to_string());
        s.on.insert(v.to_string());
        let next: Vec<String> = s
            .graph
            .get(v)
            .map(|m| m.keys().cloned().collect())
            .unwrap_or_default();
        for w in next {
            if !s.index.contains_key(&w) {
                visit(s, &w);
                let lw = s.low[&w];
                let lv = s.low.get_mut(v).unwrap();
                *lv = (*lv).min(lw);
            } else if s.on.contains(&w) {
                let iw = s.index[&w];
                let lv = s.low.get_mut(v).unwrap();
                *lv = (*lv).min(iw);
            }
        }
        if s.low[v] == s.index[v] {
            let mut scc = Vec::new();
            while let Some(w) = s.stack.pop() {
                s.on.remove(&w);
                let done = w == v;
                scc.push(w);
                if done {
                    break;
                }
            }
            s.sccs.push(scc);
        }
    }
    let mut s = State {
        graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on: BTreeSet::new(),
        sccs: Vec::new(),
    };
    let nodes: BTreeSet<String> = graph
        .iter()
        .flat_map(|(a, m)| std::iter::once(a.clone()).chain(m.keys().cloned()))
        .collect();
    for v in &nodes {
        if !s.index.contains_key(v) {
            visit(&mut s, v);
        }
    }
    let mut out = Vec::new();
    for scc in s.sccs.into_iter().filter(|c| c.len() > 1) {
        // One concrete cycle through the component's smallest node (breadth first).
        let members: BTreeSet<&String> = scc.iter().collect();
        let start = scc.iter().min().unwrap().clone();
        let mut parent: BTreeMap<String, String> = BTreeMap::new();
        let mut queue = std::collections::VecDeque::from([start.clone()]);
        let mut closing = None;
        while let Some(v) = queue.pop_front() {
            for w in graph.get(&v).map(|m| m.keys()).into_iter().flatten() {
                if !members.contains(w) {
                    continue;
                }
                if *w == start {
                    closing = Some(v.clone());
                    break;
                }
                if !parent.contains_key(w) {
                    parent.insert(w.clone(), v.clone());
                    queue.push_back(w.clone());
                }
            }
            if closing.is_some() {
                break;
            }
        }
        let mut path = vec![start.clone()];
        let mut v = closing.unwrap_or_else(|| start.clone());
        while v != start {
            path.push(v.clone());
            v = parent[&v].clone();
        }
        path[1..].reverse();
        path.push(start);
        out.push((path, scc));
    }
    out
}

/// Everything wrong with the tree under `root` (and the `lower` crates it re-exports, see
/// [`read_tree`]), one line each.
fn check(root: &Path, lower: &[PathBuf]) -> Result<Vec<String>, String> {
    let lib = fs::read_to_string(root.join("lib.rs")).map_err(|e| format!("lib.rs: {e}"))?;
    let layers = layer_table(&lib)?;
    let mut layer_of: BTreeMap<String, usize> = BTreeMap::new();
    let mut problems = Vec::new();
    for (n, layer) in layers.iter().enumerate() {
        for m in &layer.modules {
            if layer_of.insert(m.clone(), n).is_some() {
                problems.push(format!("lib.rs: `{m}` is in two layers"));
            }
        }
    }
    let files = read_tree(root, lower)?;
    let tops: BTreeSet<String> = files
        .iter()
        .filter_map(|f| f.module.first().cloned())
        .collect();
    for top in &tops {
        if !layer_of.contains_key(top) {
            let file = files
                .iter()
                .find(|f| f.module.first() == Some(top))
                .unwrap();
            problems.push(format!(
                "{}: top-level module `{top}` is in no layer of lib.rs's layer table",
                file.shown
            ));
        }
    }
    for m in layer_of.keys() {
        if !tops.contains(m) {
            problems.push(format!(
                "lib.rs: the layer table names `{m}`, which is no module"
            ));
        }
    }
    let edges = edges(&files);
    let name = |l: usize| format!("{} (layer {})", layers[l].name, l + 1);
    for e in &edges {
        let (Some(a), Some(b)) = (e.from.first(), e.to.first()) else {
            continue;
        };
        if let (Some(&la), Some(&lb)) = (layer_of.get(a), layer_of.get(b)) {
            if lb > la {
                problems.push(format!(
                    "{}: `{a}` in {} imports `crate::{}` of {}, a higher layer",
                    e.at,
                    name(la),
                    e.written,
                    name(lb)
                ));
            }
        }
    }
    // Cycles: among the top-level modules, and among each module's own children (with the
    // module itself, its mod.rs, as one more node).
    let mut parents: BTreeSet<ModPath> = BTreeSet::new();
    for f in &files {
        for n in 0..f.module.len() {
            parents.insert(f.module[..n].to_vec());
        }
    }
    for parent in &parents {
        let node = |m: &ModPath| -> Option<String> {
            if !m.starts_with(parent) {
                return None;
            }
            Some(if m.len() == parent.len() {
                format!("{} (mod.rs)", parent.join("::"))
            } else {
                m[..=parent.len()].join("::")
            })
        };
        let mut graph: BTreeMap<String, BTreeMap<String, String>> = BTreeMap::new();
        for e in &edges {
            if let (Some(a), Some(b)) = (node(&e.from), node(&e.to)) {
                if a != b {
                    graph
                        .entry(a)
                        .or_default()
                        .entry(b)
                        .or_insert_with(|| e.at.clone());
                }
            }
        }
        for (cycle, mut component) in cycles(&graph) {
            component.sort();
            let steps: Vec<String> = cycle
                .windows(2)
                .map(|w| format!("{} -> {} ({})", w[0], w[1], graph[&w[0]][&w[1]]))
                .collect();
            let within = if parent.is_empty() {
                "the top-level modules".to_string()
            } else {
                format!("the submodules of `{}`", parent.join("::"))
            };
            let others = if component.len() + 1 > cycle.len() {
                format!(" (all of {} depend on each other)", component.join(", "))
            } else {
                String::new()
            };
            problems.push(format!(
                "cycle among {within}: {}: {}{others}",
                cycle.join(" -> "),
                steps.join(", ")
            ));
        }
    }
    Ok(problems)
}

#[test]
fn harness_layers_point_down_and_no_module_depends_on_itself() {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    // Layers 1 and 2 (but `tool`) are the crate `harness/sandbox`, re-exported at the root.
    let lower = [manifest.join("sandbox/src")];
    let problems = check(&manifest.join("src"), &lower).expect("the source tree is readable");
    assert!(
        problems.is_empty(),
        "{} layer problems:\n{}",
        problems.len(),
        problems.join("\n")
    );
}

/// A synthetic source tree in a temporary folder (the shared builder's): (path, contents)
/// pairs.
fn tree(files: &[(&str, &str)]) -> Project {
    files
        .iter()
        .fold(Project::new(), |tree, (path, text)| tree.file(path, text))
}

const LIB: &str = "//! Layers:\n//!\n\
    //! 1. base: `text` — plain helpers.\n\
    //! 2. middle: `verdict`, `score` — outcomes.\n\
    //! 3. top: `judge` — runs things.\n\
    mod text;\nmod verdict;\nmod score;\nmod judge;\n";

#[test]
fn the_checker_reads_the_layer_table() {
    let layers = layer_table(LIB).unwrap();
    let names: Vec<(&str, Vec<&str>)> = layers
        .iter()
        .map(|l| {
            (
                l.name.as_str(),
                l.modules.iter().map(String::as_str).collect(),
            )
        })
        .collect();
    assert_eq!(
        names,
        [
            ("base", vec!["text"]),
            ("middle", vec!["verdict", "score"]),
            ("top", vec!["judge"])
        ]
    );
    assert!(layer_table("//! No table here.\n").is_err());
}

#[test]
fn the_checker_accepts_a_tree_that_points_down() {
    let dir = tree(&[
        ("lib.rs", LIB),
        ("text.rs", "//! Text.\npub fn t() {}\n"),
        ("verdict.rs", "use crate::text::t;\n"),
        ("score/mod.rs", "mod a;\nmod b;\npub use a::A;\n"),
        ("score/a.rs", "pub struct A; use super::b::B;\n"),
        ("score/b.rs", "pub struct B; use crate::verdict;\n"),
        (
            "judge.rs",
            "use crate::{score::A, verdict, text::{self, t}};\n",
        ),
    ]);
    assert_eq!(check(dir.path(), &[]).unwrap(), Vec::<String>::new());
}

#[test]
fn the_checker_fails_on_an_upward_import_naming_file_and_line() {
    let dir = tree(&[
        ("lib.rs", LIB),
        ("text.rs", "//! Text.\n\nfn f() { crate::judge::run(); }\n"),
        ("verdict.rs", ""),
        ("score.rs", ""),
        ("judge.rs", "pub fn run() {}\n"),
    ]);
    let problems = check(dir.path(), &[]).unwrap();
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(
        problems[0].starts_with("text.rs:3: `text` in base (layer 1) imports `crate::judge::run`"),
        "{problems:?}"
    );
}

#[test]
fn the_checker_expands_use_groups() {
    let dir = tree(&[
        ("lib.rs", LIB),
        ("text.rs", ""),
        (
            "verdict.rs",
            "use crate::{\n    text::t,\n    score::{self, x::{A, B}},\n    judge::Run,\n};\n",
        ),
        ("score.rs", ""),
        ("judge.rs", ""),
    ]);
    let problems = check(dir.path(), &[]).unwrap();
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(problems[0].starts_with("verdict.rs:4: "), "{problems:?}");
    assert!(problems[0].contains("`crate::judge::Run`"), "{problems:?}");
}

#[test]
fn the_checker_ignores_comments_strings_and_test_items() {
    let dir = tree(&[
        ("lib.rs", LIB),
        (
            "text.rs",
            "//! See crate::judge::run.\n\
             // crate::judge::run();\n\
             /* crate::judge::run(); /* nested */ crate::judge::x */\n\
             const S: &str = \"crate::judge::run\";\n\
             const R: &str = r#\"crate::judge::\"run\"#;\n\
             const C: char = '\"'; fn f<'a>(x: &'a str) {}\n\
             #[cfg(test)]\nmod tests { use crate::judge::run; }\n\
             #[cfg(test)]\nmod more;\n",
        ),
        ("text/more.rs", "use crate::judge::run;\n"),
        ("verdict.rs", ""),
        ("score.rs", ""),
        ("judge.rs", ""),
    ]);
    assert_eq!(check(dir.path(), &[]).unwrap(), Vec::<String>::new());
}

#[test]
fn the_checker_fails_on_a_cycle_within_a_layer_and_within_a_module() {
    let dir = tree(&[
        ("lib.rs", LIB),
        ("text.rs", ""),
        ("verdict.rs", "use crate::score::S;\n"),
        ("score.rs", "use crate::verdict::V;\n"),
        ("judge/mod.rs", "mod a;\nmod b;\n"),
        ("judge/a.rs", "use super::b::f;\n"),
        ("judge/b.rs", "fn g() { super::a::h() }\n"),
    ]);
    let problems = check(dir.path(), &[]).unwrap();
    assert_eq!(problems.len(), 2, "{problems:?}");
    assert!(
        problems[0].starts_with("cycle among the top-level modules: score -> verdict -> score"),
        "{problems:?}"
    );
    assert!(
        problems[1]
            .starts_with("cycle among the submodules of `judge`: judge::a -> judge::b -> judge::a"),
        "{problems:?}"
    );
}

#[test]
fn the_checker_fails_on_a_module_missing_from_the_table() {
    let dir = tree(&[
        ("lib.rs", LIB),
        ("text.rs", ""),
        ("verdict.rs", ""),
        ("score.rs", ""),
        ("judge.rs", ""),
        ("stray.rs", ""),
    ]);
    let problems = check(dir.path(), &[]).unwrap();
    assert_eq!(
        problems,
        ["stray.rs: top-level module `stray` is in no layer of lib.rs's layer table"]
    );
}

#[test]
fn the_checker_reads_a_lower_crate_as_part_of_the_tree() {
    let dir = tree(&[
        ("src/lib.rs", LIB),
        ("src/verdict.rs", "use crate::text::t;\n"),
        ("src/score.rs", ""),
        ("src/judge.rs", "pub fn run() {}\n"),
        ("low/src/lib.rs", "pub mod text;\n"),
        (
            "low/src/text.rs",
            "//! Text.\n\nfn f() { crate::judge::run(); }\n",
        ),
    ]);
    let lower = [dir.path().join("low/src")];
    let problems = check(&dir.path().join("src"), &lower).unwrap();
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(
        problems[0]
            .starts_with("low/src/text.rs:3: `text` in base (layer 1) imports `crate::judge::run`"),
        "{problems:?}"
    );
    // Without the lower crate, `text` is missing from the tree.
    let alone = check(&dir.path().join("src"), &[]).unwrap();
    assert_eq!(
        alone,
        ["lib.rs: the layer table names `text`, which is no module"]
    );
}
