//! A compiler's message read into diagnostics an editor can place: file, line, column,
//! severity and text, from gcc's and clang's `file:line:col: error: text`, rustc's
//! `error[E0308]: text` with its `--> file:line:col`, and Python's `File "f", line N`.

use serde::Serialize;

/// One place the compiler pointed at.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Diagnostic {
    pub file: String,
    pub line: u64,
    /// 0 when the compiler gave none (Python).
    pub column: u64,
    /// `error`, `warning` or `note`, as the compiler says it (`fatal error` is `error`).
    pub severity: String,
    pub text: String,
}

/// The diagnostics of `message`, in its order; lines that point nowhere are left out.
pub fn read(message: &str) -> Vec<Diagnostic> {
    let lines: Vec<&str> = message.lines().collect();
    let mut found = Vec::new();
    let mut python_place: Option<(String, u64)> = None;
    for (at, line) in lines.iter().enumerate() {
        if let Some(diagnostic) = gcc(line) {
            found.push(diagnostic);
        } else if let Some((severity, text)) = rustc_head(line) {
            // Its place is on one of the next lines: `  --> src/main.rs:4:5`.
            let place = lines[at + 1..]
                .iter()
                .take(4)
                .find_map(|next| next.trim_start().strip_prefix("--> ").and_then(place));
            if let Some((file, line, column)) = place {
                found.push(Diagnostic {
                    file,
                    line,
                    column,
                    severity,
                    text,
                });
            }
        } else if let Some(place) = python_file(line) {
            python_place = Some(place);
        } else if let Some((file, line_number)) = &python_place {
            if let Some(text) = python_error(line) {
                found.push(Diagnostic {
                    file: file.clone(),
                    line: *line_number,
                    column: 0,
                    severity: "error".into(),
                    text,
                });
                python_place = None;
            }
        }
    }
    found
}

/// `file:line:col: severity: text` (gcc, clang).
fn gcc(line: &str) -> Option<Diagnostic> {
    // The first `:N:N: ` after a non-empty file name: a file may hold a colon, a number
    // seldom follows one.
    let mut from = 0;
    while let Some(offset) = line[from..].find(':') {
        let colon = from + offset;
        from = colon + 1;
        if colon == 0 {
            continue;
        }
        let rest = &line[colon + 1..];
        let Some((line_number, rest)) = number_then_colon(rest) else {
            continue;
        };
        let Some((column, rest)) = number_then_colon(rest) else {
            continue;
        };
        let rest = rest.strip_prefix(' ')?;
        let (severity, text) = rest.split_once(": ")?;
        let severity = match severity {
            "error" | "fatal error" => "error",
            "warning" => "warning",
            "note" => "note",
            _ => return None,
        };
        return Some(Diagnostic {
            file: line[..colon].to_string(),
            line: line_number,
            column,
            severity: severity.into(),
            text: text.to_string(),
        });
    }
    None
}

/// `123:` at the start of `text`: the number and what follows the colon.
fn number_then_colon(text: &str) -> Option<(u64, &str)> {
    let digits = text.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 || text.as_bytes().get(digits) != Some(&b':') {
        return None;
    }
    Some((text[..digits].parse().ok()?, &text[digits + 1..]))
}

/// `error[E0308]: text` or `warning: text` at the start of a line (rustc).
fn rustc_head(line: &str) -> Option<(String, String)> {
    for severity in ["error", "warning"] {
        let Some(rest) = line.strip_prefix(severity) else {
            continue;
        };
        let rest = match rest.strip_prefix('[') {
            Some(coded) => &coded[coded.find(']')? + 1..],
            None => rest,
        };
        let text = rest.strip_prefix(": ")?;
        // The summary rustc ends with is no diagnostic.
        if text.starts_with("aborting due to") || text.contains("warning emitted") {
            return None;
        }
        return Some((severity.to_string(), text.to_string()));
    }
    None
}

/// `src/main.rs:4:5`.
fn place(text: &str) -> Option<(String, u64, u64)> {
    let (rest, column) = text.trim_end().rsplit_once(':')?;
    let (file, line) = rest.rsplit_once(':')?;
    Some((file.to_string(), line.parse().ok()?, column.parse().ok()?))
}

/// `  File "a.py", line 3` (Python).
fn python_file(line: &str) -> Option<(String, u64)> {
    let rest = line.trim_start().strip_prefix("File \"")?;
    let (file, rest) = rest.split_once("\", line ")?;
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    Some((file.to_string(), digits.parse().ok()?))
}

/// `SyntaxError: text` (Python's last line).
fn python_error(line: &str) -> Option<String> {
    let (name, text) = line.split_once(": ")?;
    let is_error = !name.is_empty()
        && !name.starts_with(' ')
        && (name.ends_with("Error") || name.ends_with("Exception"))
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.');
    is_error.then(|| format!("{name}: {text}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(file: &str, line: u64, column: u64, severity: &str, text: &str) -> Diagnostic {
        Diagnostic {
            file: file.into(),
            line,
            column,
            severity: severity.into(),
            text: text.into(),
        }
    }

    #[test]
    fn gcc_and_clang() {
        let message = "a.cpp: In function 'int main()':\n\
            a.cpp:3:5: error: 'x' was not declared in this scope\n\
            \x20   3 |     x = 1;\n\
            \x20     |     ^\n\
            /tmp/dir:odd/b.cpp:10:2: warning: unused variable 'y' [-Wunused-variable]\n\
            a.cpp:1:10: fatal error: nothing.h: No such file or directory\n\
            In file included from a.cpp:1:\n\
            a.cpp:7:1: note: declared here\n";
        assert_eq!(
            read(message),
            [
                at("a.cpp", 3, 5, "error", "'x' was not declared in this scope"),
                at(
                    "/tmp/dir:odd/b.cpp",
                    10,
                    2,
                    "warning",
                    "unused variable 'y' [-Wunused-variable]"
                ),
                at(
                    "a.cpp",
                    1,
                    10,
                    "error",
                    "nothing.h: No such file or directory"
                ),
                at("a.cpp", 7, 1, "note", "declared here"),
            ]
        );
    }

    #[test]
    fn rustc() {
        let message = "error[E0308]: mismatched types\n --> src/a.rs:4:18\n  |\n4 |     let x: u32 = \"a\";\n\
            warning: unused variable: `y`\n  --> src/a.rs:5:9\n\
            error: aborting due to 1 previous error\n";
        assert_eq!(
            read(message),
            [
                at("src/a.rs", 4, 18, "error", "mismatched types"),
                at("src/a.rs", 5, 9, "warning", "unused variable: `y`"),
            ]
        );
    }

    #[test]
    fn python() {
        let message = "  File \"/p/a.py\", line 2\n    print(\n         ^\nSyntaxError: '(' was never closed\n";
        assert_eq!(
            read(message),
            [at(
                "/p/a.py",
                2,
                0,
                "error",
                "SyntaxError: '(' was never closed"
            )]
        );
    }

    #[test]
    fn nothing_that_points_nowhere() {
        assert_eq!(read(""), []);
        assert_eq!(read("collect2: error: ld returned 1 exit status\n"), []);
        assert_eq!(read("a.cpp:3: error: no column\n"), []);
        assert_eq!(read("error: could not compile\n"), []);
    }
}
