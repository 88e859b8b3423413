//! `harness doctor`: what this machine supports.

use anyhow::Result;

use crate::exit;
use crate::report::doctor::{write_doctor, Doctor};

use super::GlobalArgs;

/// Compilers and interpreters the default languages use.
const TOOLS: [&str; 6] = ["cc", "gcc", "g++", "rustc", "python3", "pypy3"];

pub fn doctor(global: &GlobalArgs) -> Result<i32> {
    // judge.toml is optional here: doctor also answers outside a project.
    let mode = global
        .session()
        .read_config()
        .ok()
        .map(|config| config.sandbox.as_str());
    let tools = TOOLS
        .iter()
        .map(|name| {
            let found = crate::sandbox::run::find_program(std::path::Path::new(name)).ok();
            ((*name).to_owned(), found)
        })
        .collect();
    #[cfg(target_os = "linux")]
    let (namespaces, memory) = {
        let support = crate::sandbox::support();
        (support.namespaces, support.memory)
    };
    #[cfg(not(target_os = "linux"))]
    let (namespaces, memory) = (
        Err("the sandbox needs Linux".to_owned()),
        "peak RSS of the main process (wait4)".to_owned(),
    );
    let doctor = Doctor {
        package_python: crate::package::languages::PackagePython::here(),
        namespaces,
        memory,
        mode,
        tools,
        cores: std::thread::available_parallelism().map_or(1, usize::from),
    };
    write_doctor(&mut anstream::stdout(), &doctor)?;
    Ok(exit::OK)
}
