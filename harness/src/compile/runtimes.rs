//! The identity of the sanitizers' runtimes a C or C++ compile command links (`libasan.so`,
//! `libubsan.so`, as the compiler itself resolves them with `-print-file-name`): part of a
//! sanitized build's cache key. A runtime removed or upgraded after a build then makes the
//! next build, and `--sanitize`'s probe, run again — refused by name when the runtime is gone —
//! instead of taking a cached program that no longer starts (a loader error, judged RE).

use std::ffi::OsString;
use std::path::Path;
use std::time::Duration;

use crate::sandbox::run::{self, Limits, Output, RunRequest, Scope, Termination};

/// What `-print-file-name` may take: it reads the compiler's spec, nothing more.
const LIMITS: Limits = Limits {
    cpu_time: Duration::from_secs(10),
    wall_time: Duration::from_secs(20),
    memory_bytes: 1 << 30,
    output_bytes: 1 << 16,
};

/// The shared runtime each `-fsanitize=` check links (gcc's names; clang links its own
/// statically, so that `-print-file-name` finds no such file, which is stable too).
const RUNTIMES: [(&str, &str); 4] = [
    ("address", "libasan.so"),
    ("undefined", "libubsan.so"),
    ("thread", "libtsan.so"),
    ("leak", "liblsan.so"),
];

/// The runtimes `command` (a compile command: the compiler, then its arguments) links, by
/// its `-fsanitize=` flags, in a fixed order.
pub fn linked(command: &[String]) -> Vec<&'static str> {
    let checks: Vec<&str> = command
        .iter()
        .skip(1)
        .filter_map(|arg| arg.strip_prefix("-fsanitize="))
        .flat_map(|list| list.split(','))
        .collect();
    RUNTIMES
        .iter()
        .filter(|(check, _)| checks.contains(check))
        .map(|&(_, library)| library)
        .collect()
}

/// One line per runtime `command` links: where its compiler finds it now and that file's
/// identity (real path, size, modification time), or that it finds none. Empty for a command
/// that is not sanitized, and costs nothing then.
pub fn identity(command: &[String]) -> String {
    let Some(compiler) = command.first() else {
        return String::new();
    };
    let mut identity = String::new();
    for library in linked(command) {
        identity.push_str(library);
        identity.push('\0');
        identity.push_str(&resolved(compiler, library));
        identity.push('\n');
    }
    identity
}

/// `library` as `compiler -print-file-name=library` resolves it, with the identity of the file
/// it names; what the compiler said when that is no file (gcc echoes the bare name).
fn resolved(compiler: &str, library: &str) -> String {
    let args = [OsString::from(format!("-print-file-name={library}"))];
    let request = RunRequest::new(Path::new(compiler), LIMITS)
        .args(&args)
        .stdout(Output::Capture)
        .stderr(Output::Null)
        .scope(Scope::Group);
    let answer = match run::run(&request) {
        Ok(result) if result.termination == Termination::Exited(0) => {
            String::from_utf8_lossy(&result.stdout).trim().to_string()
        }
        Ok(result) => return format!("the compiler failed: {:?}", result.termination),
        Err(error) => return format!("the compiler did not start: {error}"),
    };
    let path = Path::new(&answer);
    if path.is_absolute() {
        let file = super::cache::file_identity(path);
        if !file.is_empty() {
            return file;
        }
    }
    format!("not found: {answer}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn command(args: &[&str]) -> Vec<String> {
        args.iter().map(|a| (*a).to_string()).collect()
    }

    #[test]
    fn the_runtimes_follow_the_sanitize_flags() {
        assert_eq!(
            linked(&command(&[
                "g++",
                "-O1",
                "-fsanitize=address,undefined",
                "-fno-sanitize-recover=all",
                "-fno-sanitize=object-size",
            ])),
            ["libasan.so", "libubsan.so"]
        );
        assert_eq!(
            linked(&command(&["gcc", "-fsanitize=thread", "x.c"])),
            ["libtsan.so"]
        );
        assert!(linked(&command(&["g++", "-O2", "x.cpp"])).is_empty());
        // The compiler's own name is no flag.
        assert!(linked(&command(&["-fsanitize=address"])).is_empty());
        assert_eq!(identity(&command(&["g++", "-O2", "x.cpp"])), "");
    }

    #[test]
    fn a_runtime_removed_or_replaced_changes_the_identity() {
        let dir = tempfile::tempdir().unwrap();
        let library = dir.path().join("libasan.so");
        // A compiler that resolves libasan.so as gcc does: its path when there is one, else
        // the bare name.
        let compiler = dir.path().join("gcc");
        std::fs::write(
            &compiler,
            format!(
                "#!/bin/sh\nif [ -e '{0}' ]; then echo '{0}'; else echo libasan.so; fi\n",
                library.display()
            ),
        )
        .unwrap();
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&compiler, std::fs::Permissions::from_mode(0o755)).unwrap();
        let sanitized = command(&[&compiler.display().to_string(), "-fsanitize=address"]);
        std::fs::write(&library, "v1").unwrap();
        let present = identity(&sanitized);
        assert!(
            present.contains(&library.display().to_string()),
            "{present}"
        );
        assert_eq!(
            present,
            identity(&sanitized),
            "stable while nothing changes"
        );
        std::fs::write(&library, "version 2").unwrap();
        let replaced = identity(&sanitized);
        assert_ne!(present, replaced, "an upgraded runtime");
        std::fs::remove_file(&library).unwrap();
        let removed = identity(&sanitized);
        assert!(removed.contains("not found: libasan.so"), "{removed}");
        assert_ne!(removed, replaced);
    }
}
