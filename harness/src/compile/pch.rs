//! A precompiled `bits/stdc++.h` for g++, kept in the cache per compiler and flags: most
//! contest C++ includes the whole standard library, and parsing it is most of a compile
//! (2.0 s of a 2.4 s `g++ -O2` build here; 0.4 s with the PCH).
//!
//! g++ looks for `NAME.gch` in each include folder just before `NAME`, so the builds that
//! include the header get `-I <cache>/pch/<key>`, a folder holding `bits/stdc++.h.gch` and
//! a `bits/stdc++.h` that is `#include_next <bits/stdc++.h>`. g++ checks that the PCH was
//! made with the same compiler and options and that nothing before the `#include` changed
//! what it means (a `#define`, a `#pragma GCC optimize`); when it cannot be used it quietly
//! takes the wrapper, which is the system header: the program is what it is without it.
//! What g++ does not check, a PCH file cut short, makes the compile fail: the build then
//! compiles again without it, and the entry is thrown away ([`discard`]).

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use super::cache::{self, KeyBuilder};
use super::submit;
use super::CompileLimits;

/// The environment variable that turns the PCH off (`off`), as a user short of disk space
/// (a PCH is about 100 MB) or a test comparing verdicts wants.
pub const ENV: &str = "HARNESS_PCH";

/// Bumped when the layout of a PCH folder changes.
const LAYOUT: &str = "harness-pch-1";

/// The header the PCH stands for, as sources include it.
const HEADER: &str = "bits/stdc++.h";

/// In a PCH folder: the PCH could not be made or is not used by this compiler; what it said.
const UNUSABLE: &str = "unusable";

/// One PCH is built at a time by this process: a second compile that wants it meanwhile waits
/// for it, rather than spend the seconds of parsing the header that the PCH saves (on a busy
/// machine those seconds are taken from the PCH's own build). `verify` compiles the sources
/// that do not include the header first, so a second compiler has work while it is made.
static BUILDING: Mutex<()> = Mutex::new(());

/// The folder to put ahead of the include path (`-I`) for this compile, building the PCH
/// first when it is not in the cache; `None` when the compile goes without one: the compiler
/// is not g++, the main source does not include `<bits/stdc++.h>`, it is off, or it cannot
/// be made.
pub(super) fn include_dir(
    command: &[String],
    program: &Path,
    main: &Path,
    limits: CompileLimits,
) -> Option<PathBuf> {
    if std::env::var_os(ENV).is_some_and(|v| v == "off" || v == "0") {
        return None;
    }
    let resolved = crate::sandbox::run::find_program(program).ok()?;
    if !is_gxx(&resolved) {
        return None;
    }
    let text = std::fs::read(main).ok()?;
    if !includes_header(&String::from_utf8_lossy(&text)) {
        return None;
    }
    let flags = flags(command);
    let entry = cache::cache_root().join("pch").join(key(&resolved, &flags));
    if let Some(usable) = made(&entry) {
        return usable.then_some(entry);
    }
    let _building = BUILDING.lock().ok()?;
    // Made meanwhile by the compile that held the lock, or found unusable.
    if let Some(usable) = made(&entry) {
        return usable.then_some(entry);
    }
    if crate::sandbox::interrupt::is_interrupted() {
        return None;
    }
    build(&resolved, &flags, &entry, limits).then_some(entry)
}

/// Whether the file `source` includes `<bits/stdc++.h>`: such a compile may have to wait for
/// the PCH to be made. `false` for a folder or a file that cannot be read.
pub fn includes_the_header(source: &Path) -> bool {
    std::fs::read(source).is_ok_and(|text| includes_header(&String::from_utf8_lossy(&text)))
}

/// Whether the PCH folder `entry` has been made: with a usable PCH (`true`) or with a note
/// that it is not usable (`false`).
fn made(entry: &Path) -> Option<bool> {
    if entry.join(HEADER).with_extension("h.gch").is_file() {
        Some(true)
    } else if entry.join(UNUSABLE).exists() {
        Some(false)
    } else {
        None
    }
}

/// `-I dir` ahead of the compile's own arguments.
pub(super) fn with_include(dir: &Path, args: &[OsString]) -> Vec<OsString> {
    let mut with = vec![OsString::from("-I"), dir.as_os_str().to_owned()];
    with.extend(args.iter().cloned());
    with
}

/// Throws away a PCH folder a compile failed with where it built without: renamed out of its
/// key first, so that a compile looking it up sees it whole or not at all; the next compile
/// that wants one builds it again.
pub(super) fn discard(dir: &Path) {
    let parent = dir.parent().unwrap_or(Path::new("."));
    let name = dir.file_name().unwrap_or_default().to_string_lossy();
    let doomed = parent.join(format!(".removing-{}-{name}", std::process::id()));
    if std::fs::rename(dir, &doomed).is_ok() {
        let _ = std::fs::remove_dir_all(&doomed);
    }
}

/// Removes every PCH (with `harness cache --clear`): the next compile that wants one makes it.
pub fn clear() -> Result<(), super::cache::CacheError> {
    let root = cache::cache_root().join("pch");
    match std::fs::remove_dir_all(&root) {
        Err(error) if error.kind() != std::io::ErrorKind::NotFound => {
            Err(super::cache::CacheError::Io {
                path: root,
                source: error,
            })
        }
        _ => Ok(()),
    }
}

/// Whether the compiler is GCC's C++ driver (`g++`, `g++-12`, `x86_64-linux-gnu-g++`, or a
/// `c++` that leads to one): clang reads no `.gch` found on the include path.
fn is_gxx(resolved: &Path) -> bool {
    let real = std::fs::canonicalize(resolved).unwrap_or_else(|_| resolved.to_path_buf());
    real.file_name()
        .and_then(|n| n.to_str())
        .is_some_and(|name| {
            let name = name
                .rsplit('-')
                .find(|part| !part.chars().all(|c| c.is_ascii_digit() || c == '.'))
                .unwrap_or(name);
            name == "g++"
        })
}

/// Whether a line of the source is `#include <bits/stdc++.h>` (spaces allowed where the
/// preprocessor allows them). Where it is does not matter here: g++ decides whether the PCH
/// fits.
fn includes_header(text: &str) -> bool {
    text.lines().any(|line| {
        let Some(rest) = line.trim_start().strip_prefix('#') else {
            return false;
        };
        let Some(rest) = rest.trim_start().strip_prefix("include") else {
            return false;
        };
        let rest = rest.trim_start();
        rest.strip_prefix('<')
            .and_then(|r| r.strip_prefix(HEADER))
            .is_some_and(|r| r.starts_with('>'))
    })
}

/// The compile command's options that decide what the header means: all but the program,
/// the output and the sources (the `{…}` parts), and the linker's (`-l`, `-L`, `-Wl,`).
fn flags(command: &[String]) -> Vec<String> {
    let mut flags = Vec::new();
    let mut parts = command.iter().skip(1);
    while let Some(part) = parts.next() {
        if part == "-o" {
            parts.next();
            continue;
        }
        let linker = ["-l", "-L", "-Wl,"].iter().any(|p| part.starts_with(p));
        if linker || part.contains('{') {
            continue;
        }
        flags.push(part.clone());
    }
    flags
}

/// The PCH folder's name: the compiler's identity (its path, size and time: an upgrade
/// changes them, and g++ rejects a PCH of another version anyway) and the options.
fn key(compiler: &Path, flags: &[String]) -> String {
    let mut key = KeyBuilder::new();
    key.part(LAYOUT.as_bytes())
        .part(cache::file_identity(compiler).as_bytes());
    for flag in flags {
        key.part(flag.as_bytes());
    }
    key.finish("stdc++").name
}

/// Builds the PCH in a scratch folder, checks that g++ takes it (`-Winvalid-pch -H` names
/// the `.gch` it read), and renames the folder to `entry`; a PCH that does not pass is kept
/// as an [`UNUSABLE`] note, so that it is not tried again on every compile. Whether `entry`
/// has a usable PCH now.
fn build(compiler: &Path, flags: &[String], entry: &Path, limits: CompileLimits) -> bool {
    let Some(root) = entry.parent() else {
        return false;
    };
    if std::fs::create_dir_all(root).is_err() {
        return false;
    }
    let Ok(scratch) = tempfile::Builder::new()
        .prefix(".building-")
        .tempdir_in(root)
    else {
        return false;
    };
    let made = make(compiler, flags, scratch.path(), limits);
    if crate::sandbox::interrupt::is_interrupted() {
        return false;
    }
    if let Err(why) = &made {
        let _ = std::fs::remove_dir_all(scratch.path().join("bits"));
        if std::fs::write(scratch.path().join(UNUSABLE), why).is_err() {
            return false;
        }
    }
    let scratch = scratch.keep();
    if std::fs::rename(&scratch, entry).is_err() {
        // Another judge got there first.
        let _ = std::fs::remove_dir_all(&scratch);
    }
    entry.join(HEADER).with_extension("h.gch").is_file()
}

/// The PCH and its wrapper made in `dir`, and checked; `Err` says why not.
fn make(
    compiler: &Path,
    flags: &[String],
    dir: &Path,
    limits: CompileLimits,
) -> Result<(), String> {
    let io = |e: std::io::Error| e.to_string();
    std::fs::create_dir_all(dir.join("bits")).map_err(io)?;
    // As the primary file g++ warns that `#include_next` is an `#include`; included from
    // the `-I` folder it is the system header, the fallback when the PCH does not fit.
    std::fs::write(dir.join(HEADER), "#include_next <bits/stdc++.h>\n").map_err(io)?;
    let gch = dir.join(HEADER).with_extension("h.gch");
    let mut args: Vec<OsString> = flags.iter().map(OsString::from).collect();
    args.extend(["-x", "c++-header"].map(OsString::from));
    args.push(dir.join(HEADER).into_os_string());
    args.push("-o".into());
    args.push(gch.clone().into_os_string());
    let run = |args: &[OsString]| {
        submit::run_compiler(compiler, args, dir, limits).map_err(|error| match error {
            submit::CompilerError::Run(error) => error.to_string(),
            submit::CompilerError::Log(error) => error.to_string(),
        })
    };
    let made = run(&args)?;
    if !made.result.succeeded() {
        return Err(made.output);
    }
    let probe = dir.join("probe.cpp");
    std::fs::write(&probe, "#include <bits/stdc++.h>\n").map_err(io)?;
    let mut args: Vec<OsString> = flags.iter().map(OsString::from).collect();
    args.extend(["-Winvalid-pch", "-H", "-fsyntax-only"].map(OsString::from));
    args.push(probe.clone().into_os_string());
    let checked = run(&with_include(dir, &args))?;
    let _ = std::fs::remove_file(&probe);
    let used = format!("! {}", gch.display());
    if checked.result.succeeded() && checked.output.lines().any(|l| l == used) {
        Ok(())
    } else {
        Err(checked.output)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_an_include_of_the_header_counts() {
        for (text, expected) in [
            ("#include <bits/stdc++.h>\nint main() {}\n", true),
            ("// a\n  #  include   <bits/stdc++.h>\n", true),
            (
                "#pragma GCC optimize(\"O3\")\n#include <bits/stdc++.h>\n",
                true,
            ),
            ("#include <iostream>\n", false),
            ("#include \"bits/stdc++.h\"\n", false),
            ("#include <bits/stdc++.hpp>\n", false),
            ("// #include <bits/stdc++.h> would be slow\n", false),
            ("", false),
        ] {
            assert_eq!(includes_header(text), expected, "{text:?}");
        }
    }

    #[test]
    fn the_flags_leave_out_output_sources_and_linking() {
        let command: Vec<String> = [
            "g++",
            "-O2",
            "-std=gnu++17",
            "-o",
            "{exe}",
            "{source}",
            "-lm",
            "-static",
            "-DLOCAL",
            "-Wl,--stack=1",
        ]
        .map(String::from)
        .to_vec();
        assert_eq!(
            flags(&command),
            ["-O2", "-std=gnu++17", "-static", "-DLOCAL"]
        );
        let other: Vec<String> = ["g++", "-O2", "-std=c++20", "-o", "{exe}", "{source}"]
            .map(String::from)
            .to_vec();
        assert_ne!(
            key(Path::new("/usr/bin/g++"), &flags(&command)),
            key(Path::new("/usr/bin/g++"), &flags(&other))
        );
    }

    #[test]
    fn gcc_drivers_are_told_from_clang() {
        let dir = tempfile::tempdir().unwrap();
        for (name, expected) in [
            ("g++", true),
            ("g++-12", true),
            ("x86_64-linux-gnu-g++-12", true),
            ("clang++", false),
            ("clang++-14", false),
            ("gcc", false),
        ] {
            let path = dir.path().join(name);
            std::fs::write(&path, "").unwrap();
            assert_eq!(is_gxx(&path), expected, "{name}");
        }
        // `c++` is what it leads to.
        std::os::unix::fs::symlink(dir.path().join("g++-12"), dir.path().join("c++")).unwrap();
        assert!(is_gxx(&dir.path().join("c++")));
    }
}
