//! Exit codes shared by every binary of the crate, so the harness can tell failures apart.

/// The program's input broke the problem statement (a solution reading stdin). `validate`, a
/// Kattis input validator, exits 42 and 43 instead.
pub const INVALID_INPUT: i32 = 1;

/// The tool itself was misused: unknown problem or family, bad seed, unreadable file.
pub const USAGE: i32 = 2;
