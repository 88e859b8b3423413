//! What a sandboxed program sees of the machine, as data: the [`rules`] of the worker's root,
//! built from what this machine has ([`Machine`]) and what the worker's runs need
//! ([`Needs`]), each a target, what is mounted there and whether a missing source is
//! skipped (as isolate's `rules.c` lists its directory rules). The zygote applies them in one
//! loop. Shown: the system folders read-only, a small read-only /dev, /proc, the install
//! prefixes of interpreters outside the system folders (pyenv's Pythons under `$HOME`) when
//! showing them reveals neither the project nor `$HOME`, and one writable folder, /tmp.
//! Nothing else of the host.

use std::io;
use std::path::{Path, PathBuf};

/// Top-level host entries shown read-only (folders bound, symlinks copied), when present.
pub(crate) const SYSTEM_ENTRIES: [&str; 10] = [
    "usr", "bin", "sbin", "lib", "lib32", "lib64", "libx32", "etc", "opt", "nix",
];

/// Device files the program may open: a judge's usual set.
pub(crate) const DEVICES: [&str; 5] = ["null", "zero", "full", "random", "urandom"];

/// The folder of the new root that holds the host's scratch root, from which the init binds
/// run folders to /tmp before covering it, so that no program sees any folder but its own.
pub(crate) const HIDDEN_AT: &str = "/.harness";
/// Files and folders a run may make in its folder: far above what contest programs make (a
/// JVM makes two), and few enough that their inodes, which the folder's size does not count,
/// hold little memory (about 1 KiB each).
pub(crate) const SCRATCH_INODES: u32 = 4096;

/// One step of the root: what is mounted at `target`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Rule {
    /// Where it appears, as the program sees it (absolute).
    pub target: PathBuf,
    pub mount: Mount,
    /// Skipped when its source is gone by the time it is applied, instead of failing.
    pub optional: bool,
}

/// What a rule puts at its target.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Mount {
    /// An empty tmpfs; the rules after it fill it.
    Tmpfs(Tmpfs),
    /// The host's `source` bound read-only (with what is mounted under it); `devices`: its
    /// device files may be opened.
    ReadOnly { source: PathBuf, devices: bool },
    /// A symbolic link to `to`: a copy of a host link, or one of /dev's own.
    Symlink { to: PathBuf },
    /// The host's /proc, with what is mounted under it: the kernel lets a user namespace
    /// mount a fresh proc (the init's, over this one) only where a full one is visible.
    Proc,
    /// The host's scratch root, where run folders are made: the init's alone, covered before
    /// any program runs.
    Scratch,
}

/// A tmpfs's options.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Tmpfs {
    pub size_bytes: u64,
    /// Most files and folders (`None`: the kernel's default).
    pub inodes: Option<u32>,
    pub mode: u32,
    /// Its root folder's owner (`None`: the zygote's own id).
    pub owner: Option<(u32, u32)>,
    /// Device files under it may be opened.
    pub devices: bool,
    /// Programs may run from it.
    pub exec: bool,
    /// Programs may write in it; otherwise it is made read-only once every rule is applied.
    pub writable: bool,
}

impl Tmpfs {
    /// The mount's data string.
    pub(crate) fn data(&self) -> String {
        let mut data = format!("size={},mode={:04o}", self.size_bytes, self.mode);
        if let Some(inodes) = self.inodes {
            data.push_str(&format!(",nr_inodes={inodes}"));
        }
        if let Some((uid, gid)) = self.owner {
            data.push_str(&format!(",uid={uid},gid={gid}"));
        }
        data
    }
}

impl Rule {
    /// Whether a program may write under its target (through this mount).
    pub(crate) fn writable(&self) -> bool {
        matches!(&self.mount, Mount::Tmpfs(tmpfs) if tmpfs.writable)
            || matches!(self.mount, Mount::Scratch)
    }

    /// The host path it shows, if it shows one.
    pub(crate) fn source(&self) -> Option<&Path> {
        match &self.mount {
            Mount::ReadOnly { source, .. } => Some(source),
            Mount::Proc => Some(Path::new("/proc")),
            Mount::Tmpfs(_) | Mount::Symlink { .. } | Mount::Scratch => None,
        }
    }
}

/// What this machine has of what the view shows, read before the root is built.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(crate) struct Machine {
    /// The [`SYSTEM_ENTRIES`] it has, in that order.
    pub entries: Vec<(&'static str, Entry)>,
    /// The [`DEVICES`] it has.
    pub devices: Vec<&'static str>,
}

/// A top-level host entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Entry {
    Folder,
    /// A symbolic link (`/lib -> usr/lib`), with its target.
    Link(PathBuf),
}

impl Machine {
    /// This machine's.
    pub(crate) fn here() -> io::Result<Machine> {
        let mut machine = Machine::default();
        for name in SYSTEM_ENTRIES {
            let host = Path::new("/").join(name);
            let Ok(meta) = std::fs::symlink_metadata(&host) else {
                continue;
            };
            if meta.file_type().is_symlink() {
                machine
                    .entries
                    .push((name, Entry::Link(std::fs::read_link(&host)?)));
            } else if meta.is_dir() {
                machine.entries.push((name, Entry::Folder));
            }
        }
        machine.devices = DEVICES
            .into_iter()
            .filter(|device| Path::new("/dev").join(device).exists())
            .collect();
        Ok(machine)
    }
}

/// What a worker's runs need of the view beyond the system.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Needs<'a> {
    /// Install prefixes of interpreters outside the system folders (see [`install_prefix`]).
    pub prefixes: &'a [PathBuf],
    /// The id the program runs as, which owns its folder.
    pub owner: (u32, u32),
}

/// The worker's root, in the order the zygote applies it: a tmpfs as the root, the system
/// folders and the prefixes read-only, /dev, /proc, the worker's folder (/tmp, the only place
/// a program may write: sized per run by the init), and the scratch root under
/// [`HIDDEN_AT`]. Every tmpfs but /tmp is made read-only once the rules are applied.
pub(crate) fn rules(machine: &Machine, needs: &Needs<'_>) -> Vec<Rule> {
    let rule = |target: &Path, mount: Mount, optional: bool| Rule {
        target: target.to_path_buf(),
        mount,
        optional,
    };
    let read_only = |source: &Path, devices: bool| Mount::ReadOnly {
        source: source.to_path_buf(),
        devices,
    };
    let tmpfs = |size_bytes: u64, devices: bool, exec: bool| Tmpfs {
        size_bytes,
        inodes: None,
        mode: 0o755,
        owner: None,
        devices,
        exec,
        writable: false,
    };
    let mut rules = vec![rule(
        Path::new("/"),
        Mount::Tmpfs(tmpfs(1 << 20, false, true)),
        false,
    )];
    for (name, entry) in &machine.entries {
        let target = Path::new("/").join(name);
        rules.push(match entry {
            Entry::Folder => rule(&target, read_only(&target, false), true),
            Entry::Link(to) => rule(&target, Mount::Symlink { to: to.clone() }, false),
        });
    }
    for prefix in needs.prefixes {
        // Under a system folder, or another prefix, it is there already.
        let shown = is_system(prefix)
            || needs
                .prefixes
                .iter()
                .any(|other| other != prefix && prefix.starts_with(other));
        if !shown {
            rules.push(rule(prefix, read_only(prefix, false), false));
        }
    }
    let dev = Path::new("/dev");
    rules.push(rule(dev, Mount::Tmpfs(tmpfs(64 << 10, true, false)), false));
    for device in &machine.devices {
        let path = dev.join(device);
        rules.push(rule(&path, read_only(&path, true), true));
    }
    for (name, to) in [
        ("fd", "/proc/self/fd"),
        ("stdin", "/proc/self/fd/0"),
        ("stdout", "/proc/self/fd/1"),
        ("stderr", "/proc/self/fd/2"),
    ] {
        let link = Mount::Symlink { to: to.into() };
        rules.push(rule(&dev.join(name), link, false));
    }
    rules.push(rule(Path::new("/proc"), Mount::Proc, false));
    rules.push(rule(
        Path::new("/tmp"),
        Mount::Tmpfs(Tmpfs {
            inodes: Some(SCRATCH_INODES),
            owner: Some(needs.owner),
            writable: true,
            // Sized per run by the init.
            ..tmpfs(1 << 20, false, true)
        }),
        false,
    ));
    rules.push(rule(
        &Path::new(HIDDEN_AT).join("scratch"),
        Mount::Scratch,
        false,
    ));
    rules
}

/// Whether `path` (absolute, canonical) is inside the read-only system view.
pub(crate) fn is_system(path: &Path) -> bool {
    let mut components = path.components();
    components.next(); // the root
    match components.next() {
        Some(std::path::Component::Normal(first)) => {
            SYSTEM_ENTRIES.iter().any(|entry| first == *entry) && components.next().is_some()
        }
        _ => false,
    }
}

/// The install prefix of an interpreter at `executable` (canonical), when it has the usual
/// `PREFIX/bin/NAME` + `PREFIX/lib` shape and showing it reveals none of `hidden` (the project,
/// `$HOME`): `/root/.pyenv/versions/3.12.3` for `/root/.pyenv/versions/3.12.3/bin/python3.12`.
pub(crate) fn install_prefix(executable: &Path, hidden: &[PathBuf]) -> Option<PathBuf> {
    let bin = executable.parent()?;
    if bin.file_name()? != "bin" {
        return None;
    }
    let prefix = bin.parent()?;
    if prefix.parent().is_none() || !prefix.join("lib").is_dir() {
        return None;
    }
    // Showing a folder shows everything under it.
    let reveals = hidden.iter().any(|hidden| hidden.starts_with(prefix));
    (!reveals).then(|| prefix.to_path_buf())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn system_paths() {
        let table = [
            ("/usr/bin/python3", true),
            ("/bin/sh", true),
            ("/etc/passwd", true),
            ("/usr", false),
            ("/usrx/bin", false),
            ("/root/.pyenv/versions/3.12.3/bin/python3", false),
            ("/work/main/target/release/sol", false),
            ("/tmp/x", false),
            ("/", false),
        ];
        for (path, expected) in table {
            assert_eq!(is_system(Path::new(path)), expected, "{path}");
        }
    }

    /// A machine with a merged /usr (`/bin` a link into it), no /lib32 or /nix, and not every
    /// device.
    fn machine() -> Machine {
        Machine {
            entries: vec![
                ("usr", Entry::Folder),
                ("bin", Entry::Link("usr/bin".into())),
                ("lib", Entry::Link("usr/lib".into())),
                ("lib64", Entry::Link("usr/lib64".into())),
                ("etc", Entry::Folder),
                ("opt", Entry::Folder),
            ],
            devices: vec!["null", "zero", "urandom"],
        }
    }

    #[test]
    fn the_root_shows_the_system_and_what_runs_need_and_nothing_else() {
        let home = PathBuf::from("/home/ann");
        let project = home.join("contest");
        let pyenv = home.join(".pyenv/versions/3.12.3");
        let prefixes = [
            pyenv.clone(),
            // Under /opt, which is shown already; inside another prefix.
            PathBuf::from("/opt/pypy3.10"),
            pyenv.join("lib/python3.12"),
        ];
        let needs = Needs {
            prefixes: &prefixes,
            owner: (65534, 65534),
        };
        let rules = rules(&machine(), &needs);
        let at = |target: &Path| rules.iter().filter(|r| r.target == target).count();
        let ro = |path: &str, devices: bool| Mount::ReadOnly {
            source: path.into(),
            devices,
        };
        let link = |to: &str| Mount::Symlink { to: to.into() };
        // What is there, and as what.
        let shown = [
            ("/usr", ro("/usr", false)),
            ("/etc", ro("/etc", false)),
            ("/opt", ro("/opt", false)),
            ("/bin", link("usr/bin")),
            ("/lib64", link("usr/lib64")),
            ("/dev/null", ro("/dev/null", true)),
            ("/dev/urandom", ro("/dev/urandom", true)),
            ("/dev/fd", link("/proc/self/fd")),
            ("/dev/stdin", link("/proc/self/fd/0")),
            ("/proc", Mount::Proc),
            ("/.harness/scratch", Mount::Scratch),
        ];
        for (target, mount) in shown {
            let found: Vec<_> = rules
                .iter()
                .filter(|r| r.target == Path::new(target))
                .collect();
            assert_eq!(found.len(), 1, "{target}: {found:?}");
            assert_eq!(found[0].mount, mount, "{target}");
        }
        assert_eq!(
            rules.iter().find(|r| r.target == pyenv).map(|r| &r.mount),
            Some(&Mount::ReadOnly {
                source: pyenv.clone(),
                devices: false
            })
        );
        // What this machine lacks, and prefixes shown through another rule.
        for absent in [
            "/sbin",
            "/lib32",
            "/nix",
            "/dev/full",
            "/dev/random",
            "/home",
        ] {
            assert_eq!(at(Path::new(absent)), 0, "{absent}");
        }
        assert_eq!(at(&prefixes[1]), 0);
        assert_eq!(at(&prefixes[2]), 0);
        // Nothing shows $HOME or the project, or a folder above them.
        for rule in &rules {
            if let Some(source) = rule.source() {
                for hidden in [&home, &project] {
                    assert!(!hidden.starts_with(source), "{rule:?} shows {hidden:?}");
                }
                assert!(!source.starts_with(&project), "{rule:?}");
            }
        }
        // A missing system folder or device is skipped; a prefix the runs need is not.
        for rule in &rules {
            let system = matches!(&rule.mount, Mount::ReadOnly { source, .. } if *source != pyenv);
            assert_eq!(rule.optional, system, "{rule:?}");
        }
        // Writable: the worker's folder, owned by the program's id, and the scratch root,
        // under the folder the init covers before any program runs.
        let writable: Vec<&Path> = rules
            .iter()
            .filter(|r| r.writable())
            .map(|r| r.target.as_path())
            .collect();
        assert_eq!(
            writable,
            [Path::new("/tmp"), Path::new("/.harness/scratch")]
        );
        assert!(writable[1].starts_with(HIDDEN_AT));
        let Some(Mount::Tmpfs(tmp)) = rules
            .iter()
            .find(|r| r.target == Path::new("/tmp"))
            .map(|r| &r.mount)
        else {
            panic!("no /tmp: {rules:?}");
        };
        assert_eq!(
            tmp.data(),
            "size=1048576,mode=0755,nr_inodes=4096,uid=65534,gid=65534"
        );
        assert!(tmp.exec && !tmp.devices);
        // The root and /dev are read-only; only /dev lets device files be opened, and nothing
        // runs from it.
        for (target, devices, exec) in [("/", false, true), ("/dev", true, false)] {
            let rule = rules.iter().find(|r| r.target == Path::new(target));
            let Some(Mount::Tmpfs(tmpfs)) = rule.map(|r| &r.mount) else {
                panic!("{target}: {rule:?}");
            };
            assert!(!tmpfs.writable, "{target}");
            assert_eq!((tmpfs.devices, tmpfs.exec), (devices, exec), "{target}");
        }
    }

    #[test]
    fn every_mount_point_is_made_in_a_tmpfs_of_an_earlier_rule() {
        // A folder made inside a read-only bind would be made in the host's folder (or fail).
        let prefixes = [PathBuf::from("/root/.pyenv/versions/3.12.3")];
        let needs = Needs {
            prefixes: &prefixes,
            owner: (0, 0),
        };
        let rules = rules(&machine(), &needs);
        assert_eq!(rules[0].target, Path::new("/"));
        for (index, rule) in rules.iter().enumerate().skip(1) {
            let parent = rules[..index]
                .iter()
                .filter(|earlier| rule.target.starts_with(&earlier.target))
                .max_by_key(|earlier| earlier.target.components().count())
                .unwrap_or_else(|| panic!("nothing holds {rule:?}"));
            assert!(
                matches!(parent.mount, Mount::Tmpfs(_)),
                "{:?} is made in {parent:?}",
                rule.target
            );
        }
    }

    #[test]
    fn this_machine_has_a_system_to_show() {
        let machine = Machine::here().unwrap();
        assert!(
            machine
                .entries
                .iter()
                .any(|(name, entry)| *name == "usr" && *entry == Entry::Folder),
            "{machine:?}"
        );
        assert!(machine.devices.contains(&"null"), "{machine:?}");
    }

    #[test]
    fn prefixes_never_reveal_hidden_folders() {
        let root = tempfile::tempdir().unwrap();
        let home = root.path().join("home");
        let python = home.join(".pyenv/versions/3.12.3");
        std::fs::create_dir_all(python.join("bin")).unwrap();
        std::fs::create_dir_all(python.join("lib")).unwrap();
        let project = home.join("project");
        std::fs::create_dir_all(project.join("bin")).unwrap();
        std::fs::create_dir_all(project.join("lib")).unwrap();
        let hidden = [home.clone(), project.clone()];

        let exe = python.join("bin/python3.12");
        assert_eq!(install_prefix(&exe, &hidden), Some(python.clone()));
        // The project itself has the shape of a prefix: never shown.
        assert_eq!(install_prefix(&project.join("bin/tool"), &hidden), None);
        // Not a `bin` folder, or no `lib` beside it.
        assert_eq!(install_prefix(&project.join("target/sol"), &hidden), None);
        assert_eq!(install_prefix(&home.join("bin/x"), &hidden), None);
    }
}
