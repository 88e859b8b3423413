//! judge.toml's `sandbox` key: whether programs under test must, may or must not be sandboxed.

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
