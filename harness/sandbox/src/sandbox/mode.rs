//! judge.toml's `sandbox` keys: whether programs under test must, may or must not be
//! sandboxed (`[defaults]`), and what a language's programs may go without (`[languages.*]`).

/// judge.toml's `sandbox` key.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Mode {
    /// Sandboxed, or an error when this machine cannot make the sandbox.
    Required,
    /// Sandboxed where possible; otherwise the plain runner, with one warning.
    #[default]
    Auto,
    /// The plain runner (own process group, rlimits, scratch folder).
    Off,
}

impl Mode {
    /// The value as written in judge.toml.
    pub fn as_str(self) -> &'static str {
        match self {
            Mode::Required => "required",
            Mode::Auto => "auto",
            Mode::Off => "off",
        }
    }
}

/// A language's `sandbox` key (`[languages.<id>]`): what of the sandbox its programs may go
/// without.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum LanguageSandbox {
    /// All of it (the default).
    #[default]
    Full,
    /// Everything but the seccomp filter: for a runtime that needs io_uring, namespaces,
    /// mounts, keys, ptrace, bpf or perf.
    NoSyscallFilter,
}

impl LanguageSandbox {
    /// Whether its programs run under the seccomp filter.
    pub fn syscall_filter(self) -> bool {
        self == LanguageSandbox::Full
    }
}
