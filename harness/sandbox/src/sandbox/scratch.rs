//! The folders runs work in: the scratch root (a roomy tmpfs when there is one), folders named
//! for the judge that made them, and the sweep of those a killed judge left behind.

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::Duration;

use super::outcome::RunError;
use super::process::FILE_SIZE_LIMIT;

/// Where runs get their scratch folders: a memory-backed tmpfs when there is one with room,
/// because making and removing a folder there costs microseconds, against a journaled disk
/// write per run (about a tenth of a tiny case's cost) in a disk-backed temp dir. An explicit
/// `TMPDIR` is obeyed; otherwise `$XDG_RUNTIME_DIR`, then `/dev/shm`, then the temp dir.
pub(crate) fn scratch_root() -> &'static Path {
    static ROOT: OnceLock<PathBuf> = OnceLock::new();
    ROOT.get_or_init(|| {
        if std::env::var_os("TMPDIR").is_some() {
            return std::env::temp_dir();
        }
        let candidates = [
            std::env::var_os("XDG_RUNTIME_DIR").map(PathBuf::from),
            Some(PathBuf::from("/dev/shm")),
        ];
        candidates
            .into_iter()
            .flatten()
            .find(|dir| is_roomy_tmpfs(dir))
            .unwrap_or_else(std::env::temp_dir)
    })
}

/// A writable tmpfs with room for the largest file a program may write: a small one (a
/// container's 64 MiB /dev/shm) would fail writes that the disk would take.
fn is_roomy_tmpfs(dir: &Path) -> bool {
    #[cfg(any(target_os = "linux", target_os = "android"))]
    {
        use nix::sys::{statfs, statvfs};
        use nix::unistd::{access, AccessFlags};
        let is_tmpfs =
            statfs::statfs(dir).is_ok_and(|fs| fs.filesystem_type() == statfs::TMPFS_MAGIC);
        #[cfg_attr(
            target_pointer_width = "64",
            expect(
                clippy::useless_conversion,
                reason = "the counts are 32-bit on 32-bit targets"
            )
        )]
        let room = statvfs::statvfs(dir).map_or(0, |fs| {
            u64::from(fs.blocks_available()).saturating_mul(u64::from(fs.fragment_size()))
        });
        is_tmpfs
            && room >= FILE_SIZE_LIMIT
            && access(dir, AccessFlags::W_OK | AccessFlags::X_OK).is_ok()
    }
    #[cfg(not(any(target_os = "linux", target_os = "android")))]
    {
        let _ = dir;
        false
    }
}

/// Removes a run's scratch folder, even one the program filled or made unwritable.
/// The kinds of folder the harness makes under the scratch root (run.rs's `SCRATCH_PREFIX`,
/// stress's and the sandbox's worker folders).
const SCRATCH_KINDS: [&str; 3] = ["harness-run-", "harness-stress-", "harness-worker-"];

/// A stale folder is older than this: a live judge's folders are at most this young between
/// being made and being named here, and the sweep never races one.
const STALE_AFTER: Duration = Duration::from_secs(60);

/// `kind` (one of [`SCRATCH_KINDS`]) followed by this process's PID namespace and pid, for a
/// folder under the scratch root: a judge killed before it could remove its folders (SIGKILL,
/// the OOM killer, a CI timeout) leaves them on a tmpfs, in memory, and the next judge to start
/// removes them when that pid is gone from its own namespace. The first call sweeps.
pub(crate) fn owned_prefix(kind: &str) -> String {
    static SWEPT: std::sync::Once = std::sync::Once::new();
    SWEPT.call_once(|| sweep_stale(scratch_root(), std::time::SystemTime::now()));
    format!("{kind}{}", owner_tag())
}

/// `<pid namespace>-<pid>-` of this process.
fn owner_tag() -> &'static str {
    static TAG: OnceLock<String> = OnceLock::new();
    TAG.get_or_init(|| format!("{}-{}-", pid_namespace().unwrap_or(0), std::process::id()))
}

/// The inode of this process's PID namespace (`pid:[4026531836]`), or `None` without /proc.
fn pid_namespace() -> Option<u64> {
    let link = fs::read_link("/proc/self/ns/pid").ok()?;
    let text = link.to_str()?;
    text.strip_prefix("pid:[")?.strip_suffix(']')?.parse().ok()
}

/// The owner of a scratch folder name: `(namespace, pid)`.
fn scratch_owner(name: &str) -> Option<(u64, u32)> {
    let rest = SCRATCH_KINDS
        .iter()
        .find_map(|kind| name.strip_prefix(kind))?;
    let (namespace, rest) = rest.split_once('-')?;
    let (pid, _random) = rest.split_once('-')?;
    Some((namespace.parse().ok()?, pid.parse().ok()?))
}

/// Removes the folders under `root` whose judge is gone: named for this PID namespace (a pid
/// of another one cannot be checked from here), for a pid no longer running, and older than
/// [`STALE_AFTER`].
pub(crate) fn sweep_stale(root: &Path, now: std::time::SystemTime) {
    let Some(own_namespace) = pid_namespace() else {
        return;
    };
    let Ok(entries) = fs::read_dir(root) else {
        return;
    };
    for entry in entries.flatten() {
        let Some((namespace, pid)) = entry.file_name().to_str().and_then(scratch_owner) else {
            continue;
        };
        let old = entry
            .metadata()
            .and_then(|m| m.modified())
            .ok()
            .and_then(|modified| now.duration_since(modified).ok())
            .is_some_and(|age| age >= STALE_AFTER);
        if namespace == own_namespace
            && pid != std::process::id()
            && old
            && !Path::new(&format!("/proc/{pid}")).exists()
        {
            let path = entry.path();
            if fs::remove_dir_all(&path).is_err() {
                open_up(&path);
                let _ = fs::remove_dir_all(&path);
            }
        }
    }
}

pub(crate) fn remove_scratch(dir: tempfile::TempDir) {
    let path = dir.keep();
    // Most programs leave the folder empty: one rmdir, without listing it first.
    if fs::remove_dir(&path).is_ok() || fs::remove_dir_all(&path).is_ok() {
        return;
    }
    open_up(&path);
    // Nothing more to try: a folder left in the temp dir is not worth failing a run.
    let _ = fs::remove_dir_all(&path);
}

/// Makes every folder under `root` writable by us again, without following symlinks.
fn open_up(root: &Path) {
    let mut pending: Vec<PathBuf> = vec![root.to_path_buf()];
    while let Some(dir) = pending.pop() {
        let _ = fs::set_permissions(&dir, fs::Permissions::from_mode(0o700));
        let Ok(entries) = fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            if entry.file_type().is_ok_and(|kind| kind.is_dir()) {
                pending.push(entry.path());
            }
        }
    }
}

/// Scratch folders are named so; a leftover one is easy to tell apart in the temp dir.
const SCRATCH_PREFIX: &str = "harness-run-";

/// A fresh folder for files that live as long as a command (stress's inputs and answers): on
/// a roomy tmpfs when there is one, as runs' own folders are, else in the temp dir.
pub fn scratch_folder(prefix: &str) -> std::io::Result<tempfile::TempDir> {
    let prefix = owned_prefix(prefix);
    let mut builder = tempfile::Builder::new();
    builder.prefix(&prefix);
    builder
        .tempdir_in(scratch_root())
        .or_else(|_| builder.tempdir())
}

/// A fresh scratch folder for one run, on the fast root when there is one.
/// A fresh folder under the sandbox's scratch root (a caller's `workdir` that a sandboxed run
/// can use: the folder of a file-I/O problem, read after the run), or in the temp dir when
/// that root cannot take it.
pub fn scratch_dir() -> Result<tempfile::TempDir, RunError> {
    let prefix = owned_prefix(SCRATCH_PREFIX);
    let mut builder = tempfile::Builder::new();
    builder.prefix(&prefix);
    // The fast root may fill up or go away while the judge runs: fall back to the temp dir
    // rather than fail the run.
    builder
        .tempdir_in(scratch_root())
        .or_else(|_| builder.tempdir())
        .map_err(RunError::Workdir)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scratch_folders_go_to_a_writable_folder() {
        let root = scratch_root();
        assert!(root.is_dir(), "{}", root.display());
        let scratch = tempfile::tempdir_in(root).unwrap();
        assert!(scratch.path().starts_with(root));
    }

    #[test]
    fn scratch_folder_names_name_their_judge() {
        let table = [
            (
                "harness-run-4026531836-123-AbC9",
                Some((4_026_531_836, 123)),
            ),
            ("harness-worker-7-9-x", Some((7, 9))),
            ("harness-stress-1-2-", Some((1, 2))),
            // The names before pids were in them, and others' folders, are not ours to judge.
            ("harness-run-AbC9xy", None),
            ("harness-build-1-2-x", None),
            ("harness-run-1-x-y", None),
            ("other-1-2-x", None),
        ];
        for (name, expected) in table {
            assert_eq!(scratch_owner(name), expected, "{name}");
        }
    }

    #[test]
    fn only_old_folders_of_gone_judges_of_this_namespace_are_swept() {
        let Some(namespace) = pid_namespace() else {
            // Said on stderr itself, which the test harness does not capture.
            assert!(
                std::env::var_os("CI").is_none(),
                "no /proc/self/ns/pid: CI runs on Linux, which has it"
            );
            use std::io::Write;
            let _ = writeln!(
                std::io::stderr(),
                "skipped: only_old_folders_of_gone_judges_of_this_namespace_are_swept: no /proc/self/ns/pid"
            );
            return;
        };
        let root = tempfile::tempdir().unwrap();
        // A pid that has just ended: a child reaped here.
        let mut child = std::process::Command::new("true").spawn().unwrap();
        let gone = child.id();
        child.wait().unwrap();
        let make = |name: String| {
            let path = root.path().join(name);
            fs::create_dir(&path).unwrap();
            fs::write(path.join("input.in"), "1 2\n").unwrap();
            path
        };
        let stale = make(format!("harness-run-{namespace}-{gone}-aaaaaa"));
        let live = make(format!("harness-worker-{namespace}-1-bbbbbb"));
        let own = make(format!(
            "harness-stress-{namespace}-{}-cccccc",
            std::process::id()
        ));
        let elsewhere = make(format!("harness-run-{}-{gone}-dddddd", namespace + 1));
        let unnamed = make("harness-run-eeeeee".to_string());
        // Two minutes on: everything is old enough.
        let later = std::time::SystemTime::now() + Duration::from_secs(120);
        sweep_stale(root.path(), later);
        assert!(!stale.exists(), "the folder of a gone judge was kept");
        for kept in [&live, &own, &elsewhere, &unnamed] {
            assert!(kept.exists(), "{} was removed", kept.display());
        }
        // A young folder of a gone judge may be one being made right now: kept.
        let young = make(format!("harness-run-{namespace}-{gone}-ffffff"));
        sweep_stale(root.path(), std::time::SystemTime::now());
        assert!(young.exists());
    }

    #[test]
    fn a_missing_folder_is_no_scratch_root() {
        assert!(!is_roomy_tmpfs(Path::new("/nonexistent/harness-scratch")));
    }
}
