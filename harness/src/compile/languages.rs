//! The languages every harness knows without configuration (C, C++, Rust, Python, PyPy, Java,
//! Kotlin, Go, JavaScript), how a user config and judge.toml override them, and which package
//! installs a missing toolchain.

use std::time::Duration;

/// A language a submission can be written in.
#[derive(Debug, Clone)]
pub struct Language {
    /// The table's key (`cpp`), what `--lang` takes.
    pub id: String,
    /// The name shown in reports (`C++17`).
    pub name: String,
    /// File extensions without the dot that select this language.
    pub extensions: Vec<String>,
    /// With `{source}` and `{exe}`; none for interpreted languages.
    pub compile: Option<Vec<String>>,
    /// With `{source}` and `{exe}`.
    pub run: Vec<String>,
    /// The problem's time limit is multiplied by this (slow interpreters).
    pub time_multiplier: f64,
    /// What one compile may take (`compile-time-limit`, `compile-memory-limit`).
    pub compile_limits: CompileLimits,
    /// What of the sandbox its programs go without (`sandbox = "no-syscall-filter"`).
    pub sandbox: crate::sandbox::LanguageSandbox,
}

/// What one compile may take: far more than the programs it builds (a slow compile is not the
/// contestant's fault), but bounded, so that a compiler that hangs or swallows memory (a
/// template explosion) is a CE instead of a hung judge or a swapping machine.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CompileLimits {
    /// Wall-clock time of the whole compile.
    pub time: Duration,
    /// Resident memory of the compiler and every process it starts, together.
    pub memory_bytes: u64,
}

impl Default for CompileLimits {
    fn default() -> Self {
        CompileLimits {
            time: Duration::from_secs(120),
            memory_bytes: 2 << 30,
        }
    }
}

/// Python's compile step byte-compiles the source, so that a syntax error is CE instead of an
/// RE on every case, and links `{exe}` to the real interpreter (`sys.executable`): the
/// `python3` on PATH is often a version manager's shell script (pyenv, asdf) whose ~60 ms of
/// CPU per start would be charged to every case.
const PYTHON_COMPILE: &str = r#"
import os, py_compile, sys
try:
    py_compile.compile(sys.argv[1], doraise=True)
except py_compile.PyCompileError as error:
    sys.exit(error.msg)
os.symlink(sys.executable, sys.argv[2])
"#;

/// javac wants a public class in a file of its name, and contestants name files `a.java`:
/// compile a copy named after the public class, and pack the classes into a jar whose manifest
/// names that class, so that running needs no class name. Without a public class the main
/// class is the one named after the file (`class TestHello` in `TestHello.java`, as Kattis and
/// BAPCtools run it), else `Main`.
const JAVA_COMPILE: &str = r#"
set -e
source="$1"; exe="$2"
class=$(sed -n 's/^[[:space:]]*public[[:space:]]\{1,\}\(final[[:space:]]\{1,\}\)\{0,1\}class[[:space:]]\{1,\}\([A-Za-z_$][A-Za-z0-9_$]*\).*/\2/p' "$source" | head -n 1)
stem=$(basename "$source" .java)
if [ -z "$class" ] && grep -Eq "class[[:space:]]+$stem([^A-Za-z0-9_\$]|\$)" "$source"; then class=$stem; fi
[ -n "$class" ] || class=Main
mkdir -p java-src java-classes
cp "$source" "java-src/$class.java"
javac -encoding UTF-8 -d java-classes "java-src/$class.java"
jar --create --file "$exe" --main-class "$class" -C java-classes .
"#;

/// kotlinc writes a `.jar` only under that extension.
const KOTLIN_COMPILE: &str = r#"
set -e
kotlinc "$1" -include-runtime -d "$2.jar" 2>&1
mv "$2.jar" "$2"
"#;

/// The JVM's options. Under an address-space limit a JVM dies before `main` (it reserves its
/// heap, code cache and class space up front), so the judge does not count on the rlimit:
/// the heap is capped at the problem's memory limit (`{memory-mib}`), the reservations are
/// kept small, and one GC thread and the C1 compiler keep its start-up CPU time down.
pub(super) const JVM_OPTIONS: [&str; 7] = [
    "-Xmx{memory-mib}m",
    "-Xss64m",
    "-XX:+UseSerialGC",
    "-XX:ReservedCodeCacheSize=64m",
    "-XX:CompressedClassSpaceSize=64m",
    "-XX:TieredStopAtLevel=1",
    "-Xshare:auto",
];

fn strings(parts: &[&str]) -> Vec<String> {
    parts.iter().map(std::string::ToString::to_string).collect()
}

fn jvm_run() -> Vec<String> {
    let mut run = vec!["java".to_string()];
    run.extend(JVM_OPTIONS.iter().map(std::string::ToString::to_string));
    run.extend(strings(&["-jar", "{exe}"]));
    run
}

/// The id of the built-in language of programs that are already built (`harness judge
/// ./a.out`).
pub const EXECUTABLE: &str = "exe";

/// The built-in table, in the order `--lang` errors list it.
pub fn builtin() -> Vec<Language> {
    let language =
        |id: &str, name: &str, extensions: &[&str], compile: Option<Vec<String>>| Language {
            id: id.to_string(),
            name: name.to_string(),
            extensions: strings(extensions),
            compile,
            run: strings(&["{exe}"]),
            time_multiplier: 1.0,
            compile_limits: CompileLimits::default(),
            sandbox: Default::default(),
        };
    vec![
        language(
            "c",
            "C11",
            &["c"],
            Some(strings(&[
                "gcc", "-O2", "-std=c11", "-o", "{exe}", "{source}", "-lm",
            ])),
        ),
        // `.C` is C++ on every judge (and to gcc); `.c` is C.
        language(
            "cpp",
            "C++17",
            &["cpp", "cc", "cxx", "c++", "C"],
            Some(strings(&[
                "g++",
                "-O2",
                "-std=c++17",
                "-o",
                "{exe}",
                "{source}",
            ])),
        ),
        language(
            "rust",
            "Rust 2021",
            &["rs"],
            Some(strings(&[
                "rustc",
                "-O",
                "--edition",
                "2021",
                "-o",
                "{exe}",
                "{source}",
            ])),
        ),
        Language {
            run: strings(&["{exe}", "{source}"]),
            // CPython is tens of times slower than C++; judges (USACO, AtCoder's extra
            // time for slow languages) give it more time.
            time_multiplier: 2.0,
            ..language(
                "python",
                "Python 3",
                &["py"],
                Some(strings(&[
                    "python3",
                    "-c",
                    PYTHON_COMPILE,
                    "{source}",
                    "{exe}",
                ])),
            )
        },
        // No extension: `.py` is CPython; PyPy is picked with `--lang pypy`.
        Language {
            run: strings(&["pypy3", "{source}"]),
            ..language("pypy", "PyPy 3", &[], None)
        },
        Language {
            run: jvm_run(),
            ..language(
                "java",
                "Java",
                &["java"],
                Some(strings(&[
                    "sh",
                    "-c",
                    JAVA_COMPILE,
                    "sh",
                    "{source}",
                    "{exe}",
                ])),
            )
        },
        Language {
            run: jvm_run(),
            ..language(
                "kotlin",
                "Kotlin",
                &["kt"],
                Some(strings(&[
                    "sh",
                    "-c",
                    KOTLIN_COMPILE,
                    "sh",
                    "{source}",
                    "{exe}",
                ])),
            )
        },
        language(
            "go",
            "Go",
            &["go"],
            Some(strings(&["go", "build", "-o", "{exe}", "{source}"])),
        ),
        // A program the user built (`a.out`) or a script with a `#!` line: no extension
        // claims it, so it is picked by its exec bit and first bytes, or with `--lang exe`.
        // `install` makes the build's copy executable, wherever the copy's bits came from.
        language(
            EXECUTABLE,
            "prebuilt executable",
            &[],
            Some(strings(&["install", "-m", "755", "{source}", "{exe}"])),
        ),
        Language {
            // V8 sizes its heap from the machine, not from rlimits: cap it at the limit.
            run: strings(&[
                "node",
                "--max-old-space-size={memory-mib}",
                "--stack-size=65500",
                "{source}",
            ]),
            ..language("javascript", "JavaScript (Node.js)", &["js"], None)
        },
    ]
}

/// The built-in table, then each layer's tables on top: a table with a built-in's id replaces
/// it, a new id adds a language, and an extension a later table claims is taken from the
/// tables before it (so a user's `[languages.gnu-cpp]` claiming `cpp` wins over the built-in).
pub fn merged(layers: &[&[Language]]) -> Vec<Language> {
    let mut languages = builtin();
    for layer in layers {
        for language in *layer {
            for other in &mut languages {
                other
                    .extensions
                    .retain(|e| !language.extensions.contains(e));
            }
            match languages.iter_mut().find(|l| l.id == language.id) {
                Some(slot) => *slot = language.clone(),
                None => languages.push(language.clone()),
            }
        }
    }
    languages
}

/// What to install for a missing program, as Debian and Ubuntu name the package.
pub fn install_hint(program: &str) -> Option<&'static str> {
    Some(match program {
        "gcc" | "cc" => "install a C compiler: `apt install gcc`",
        "g++" | "c++" => "install a C++ compiler: `apt install g++`",
        "rustc" => "install Rust: https://rustup.rs or `apt install rustc`",
        "python3" => "install Python 3: `apt install python3`",
        "pypy3" => "install PyPy: `apt install pypy3`",
        "java" | "javac" | "jar" => "install a JDK: `apt install openjdk-17-jdk-headless`",
        "kotlinc" => "install Kotlin: `sdk install kotlin` (SDKMAN!) or `snap install kotlin`",
        "go" => "install Go: `apt install golang-go`",
        "node" => "install Node.js: `apt install nodejs`",
        _ => return None,
    })
}

/// The programs a language needs on PATH besides the ones its commands name first: the JDK's
/// compiler and packer run inside the Java compile script.
pub fn inner_tools(language: &Language) -> &'static [&'static str] {
    let script = language
        .compile
        .as_ref()
        .and_then(|c| c.get(2))
        .map(String::as_str);
    if script == Some(JAVA_COMPILE) {
        &["javac", "jar"]
    } else if script == Some(KOTLIN_COMPILE) {
        &["kotlinc"]
    } else {
        &[]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn find<'a>(languages: &'a [Language], id: &str) -> &'a Language {
        languages.iter().find(|l| l.id == id).unwrap()
    }

    #[test]
    fn every_extension_belongs_to_one_builtin_language() {
        let languages = builtin();
        let mut seen = std::collections::HashSet::new();
        for language in &languages {
            for extension in &language.extensions {
                assert!(seen.insert(extension.clone()), "`.{extension}` twice");
            }
        }
        assert!(find(&languages, "cpp")
            .extensions
            .contains(&"C".to_string()));
        assert!(find(&languages, "c").extensions == ["c"]);
    }

    #[test]
    fn later_layers_replace_by_id_and_take_extensions() {
        let mine = Language {
            id: "gnu-cpp".to_string(),
            name: "GNU C++20".to_string(),
            extensions: vec!["cpp".to_string()],
            compile: None,
            run: vec!["{exe}".to_string()],
            time_multiplier: 1.0,
            compile_limits: CompileLimits::default(),
            sandbox: Default::default(),
        };
        let python = Language {
            id: "python".to_string(),
            name: "My Python".to_string(),
            ..mine.clone()
        };
        let languages = merged(&[&[mine], &[python]]);
        assert_eq!(find(&languages, "python").name, "My Python");
        // `cpp` moved to gnu-cpp, then python (a later layer) claimed it too.
        assert_eq!(find(&languages, "python").extensions, ["cpp"]);
        assert!(find(&languages, "gnu-cpp").extensions.is_empty());
        assert!(!find(&languages, "cpp")
            .extensions
            .contains(&"cpp".to_string()));
        assert!(find(&languages, "cpp")
            .extensions
            .contains(&"cc".to_string()));
    }

    #[test]
    fn hints_name_a_package() {
        assert!(install_hint("javac").unwrap().contains("openjdk"));
        assert!(install_hint("node").unwrap().contains("nodejs"));
        assert_eq!(install_hint("my-compiler"), None);
    }
}
