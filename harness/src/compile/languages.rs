//! A language a submission can be written in, what one compile may take, and which package
//! installs a missing toolchain. The tables of languages are data: config/languages.toml (the
//! judge's) and package/languages.toml (the package formats'), read by judge.toml's own
//! `[languages]` parser.

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
    /// Programs it needs on PATH that its commands do not start first: the JDK's compiler
    /// and packer run inside the Java compile script.
    pub tools: Vec<String>,
}

impl Language {
    /// The package formats' code for the language (its `id` where they agree): the folder
    /// name of its `include/<code>/`, shared by the interpreters of one language.
    pub fn format_code(&self) -> &str {
        match self.id.as_str() {
            "python" | "pypy" | "cpython" => "python3",
            "gnu-cpp" => "cpp",
            other => other,
        }
    }
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

/// The JVM's options, as the built-in Java and Kotlin run it (config/languages.toml says why)
/// and `--cmd "java …"` gets them (compile/command.rs).
pub const JVM_OPTIONS: [&str; 7] = [
    "-Xmx{memory-mib}m",
    "-Xss64m",
    "-XX:+UseSerialGC",
    "-XX:ReservedCodeCacheSize=64m",
    "-XX:CompressedClassSpaceSize=64m",
    "-XX:TieredStopAtLevel=1",
    "-Xshare:auto",
];

/// The id of the built-in language of programs that are already built (`harness judge
/// ./a.out`).
pub const EXECUTABLE: &str = "exe";

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hints_name_a_package() {
        assert!(install_hint("javac").unwrap().contains("openjdk"));
        assert!(install_hint("node").unwrap().contains("nodejs"));
        assert_eq!(install_hint("my-compiler"), None);
    }
}
