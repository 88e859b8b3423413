//! `harness doctor`'s report: what this machine gives the judge (sandbox, memory measurement,
//! compilers and interpreters found).

use std::io::{self, Write};
use std::path::PathBuf;

/// What `harness doctor` found.
#[derive(Debug, Clone)]
pub struct Doctor {
    /// `Ok` when the sandbox's namespaces can be made here, or why not.
    pub namespaces: Result<(), String>,
    /// How a run's memory is measured.
    pub memory: String,
    /// judge.toml's `sandbox` mode, when a judge.toml was found.
    pub mode: Option<&'static str>,
    /// Tools looked up in `PATH`: name and where found.
    pub tools: Vec<(String, Option<PathBuf>)>,
    pub cores: usize,
    /// What a package's `.py` runs with here.
    pub package_python: crate::package::languages::PackagePython,
}

pub fn write_doctor(out: &mut impl Write, doctor: &Doctor) -> io::Result<()> {
    match &doctor.namespaces {
        Ok(()) => writeln!(
            out,
            "namespaces: yes (user, PID, mount, network, IPC, UTS; made once per worker)"
        )?,
        Err(why) => writeln!(
            out,
            "namespaces: no ({why}); programs run with rlimits and a process group only"
        )?,
    }
    writeln!(out, "memory: {}", doctor.memory)?;
    if let Some(mode) = doctor.mode {
        writeln!(out, "judge.toml sandbox: {mode}")?;
    }
    writeln!(out, "cores: {}", doctor.cores)?;
    for (name, found) in &doctor.tools {
        match found {
            Some(path) => writeln!(out, "{name}: {}", path.display())?,
            None => writeln!(out, "{name}: not found")?,
        }
    }
    use crate::package::languages::PackagePython;
    match &doctor.package_python {
        PackagePython::PyPy(path) => writeln!(
            out,
            "packages' Python: PyPy ({}), as problemtools, BAPCtools and Kattis run it",
            path.display()
        )?,
        PackagePython::CPython(path) => writeln!(
            out,
            "packages' Python: CPython ({}): pypy3 is not installed, and the format's tools run `.py` with PyPy (hint: apt install pypy3)",
            path.display()
        )?,
        PackagePython::Missing => writeln!(
            out,
            "packages' Python: none (neither pypy3 nor python3 is installed)"
        )?,
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_what_was_found() {
        let doctor = Doctor {
            namespaces: Err("unshare: Operation not permitted".into()),
            memory: "samples".into(),
            mode: Some("auto"),
            tools: vec![
                ("gcc".into(), Some("/usr/bin/gcc".into())),
                ("pypy3".into(), None),
            ],
            cores: 2,
            package_python: crate::package::languages::PackagePython::CPython(
                "/usr/bin/python3".into(),
            ),
        };
        let mut out = Vec::new();
        write_doctor(&mut out, &doctor).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(
            text.starts_with("namespaces: no (unshare: Operation not permitted)"),
            "{text}"
        );
        assert!(text.contains("gcc: /usr/bin/gcc\n"), "{text}");
        assert!(text.contains("pypy3: not found\n"), "{text}");
        assert!(text.contains("judge.toml sandbox: auto\n"), "{text}");
        assert!(
            text.contains("packages' Python: CPython (/usr/bin/python3): pypy3 is not installed"),
            "{text}"
        );
    }
}
