//! The build cache every program shares, kept across runs in the user's cache folder: one
//! folder per build, named by a hash of everything that decides the binary (see
//! [`Key`]). A build is made aside and renamed into place, so several judges at once never
//! see half of one; past a size limit the builds used longest ago are swept.

use std::fs;
use std::hash::{DefaultHasher, Hasher};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

/// The cache's size when `HARNESS_CACHE_SIZE` does not say: a C++ binary is about 2 MiB, so
/// this holds hundreds of builds.
pub const DEFAULT_MAX_BYTES: u64 = 1 << 30;

/// A build used this recently is never swept: another judge may be about to start it.
const IN_USE: Duration = Duration::from_secs(10 * 60);

/// Bumped when the layout of a build folder changes, so that an old harness's builds are not
/// read by a new one.
const LAYOUT: &str = "harness-build-2";

/// Where the harness keeps what lasts between runs: `$HARNESS_CACHE_DIR`, else
/// `$XDG_CACHE_HOME/harness`, else `~/.cache/harness`, else the temporary folder.
pub fn cache_root() -> PathBuf {
    // Unit tests share one folder of their own, never the user's cache.
    if cfg!(test) {
        return std::env::temp_dir().join("harness-unit-test-cache");
    }
    if let Some(dir) = std::env::var_os("HARNESS_CACHE_DIR").filter(|d| !d.is_empty()) {
        return PathBuf::from(dir);
    }
    if let Some(dir) = std::env::var_os("XDG_CACHE_HOME").filter(|d| !d.is_empty()) {
        return PathBuf::from(dir).join("harness");
    }
    if let Some(home) = std::env::var_os("HOME").filter(|d| !d.is_empty()) {
        return PathBuf::from(home).join(".cache/harness");
    }
    std::env::temp_dir().join("harness-cache")
}

/// Why the cache's settings cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum CacheError {
    /// `HARNESS_CACHE_SIZE` is not a size.
    #[error("HARNESS_CACHE_SIZE: {0} (hint: write it like \"512MiB\" or \"2GiB\")")]
    Size(String),
    /// The folder could not be read or emptied.
    #[error("cannot use the build cache `{}`: {source}", path.display())]
    Io {
        /// The folder or entry.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
}

/// The builds folder and its size limit.
#[derive(Debug, Clone)]
pub struct Store {
    /// `<cache root>/build`.
    pub dir: PathBuf,
    /// Past this many bytes, the builds used longest ago are removed.
    pub max_bytes: u64,
}

/// How much the cache holds.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Usage {
    /// Builds.
    pub entries: usize,
    /// Bytes of their files.
    pub bytes: u64,
}

impl Store {
    /// The store the environment names (see [`cache_root`] and `HARNESS_CACHE_SIZE`).
    pub fn from_env() -> Result<Store, CacheError> {
        let max_bytes = match std::env::var("HARNESS_CACHE_SIZE") {
            Ok(text) if !text.trim().is_empty() => {
                crate::units::parse_size(&text).map_err(CacheError::Size)?
            }
            _ => DEFAULT_MAX_BYTES,
        };
        Ok(Store {
            dir: cache_root().join("build"),
            max_bytes,
        })
    }

    /// The folder of the build `key` names, whether it exists or not.
    pub fn entry(&self, key: &Key) -> PathBuf {
        self.dir.join(&key.name)
    }

    /// Marks a build as used now, so that a sweep takes older ones first.
    pub fn touch(entry: &Path) {
        if let Ok(folder) = fs::File::open(entry) {
            let _ = folder.set_modified(SystemTime::now());
        }
    }

    /// The builds in the store with their sizes and last use, oldest first; a folder being
    /// built (`.building-…`) or being removed is not one.
    fn entries(&self) -> Result<Vec<(PathBuf, u64, SystemTime)>, CacheError> {
        let io = |path: &Path| {
            let path = path.to_path_buf();
            move |source| CacheError::Io { path, source }
        };
        let read = match fs::read_dir(&self.dir) {
            Ok(read) => read,
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(error) => return Err(io(&self.dir)(error)),
        };
        let mut entries = Vec::new();
        for entry in read {
            let entry = entry.map_err(io(&self.dir))?;
            let path = entry.path();
            if entry.file_name().to_string_lossy().starts_with('.') {
                continue;
            }
            let Ok(meta) = fs::symlink_metadata(&path) else {
                continue;
            };
            if !meta.is_dir() {
                continue;
            }
            let bytes = walkdir::WalkDir::new(&path)
                .into_iter()
                .filter_map(Result::ok)
                .filter_map(|e| e.metadata().ok())
                .filter(fs::Metadata::is_file)
                .map(|m| m.len())
                .sum();
            let used = meta.modified().unwrap_or(SystemTime::UNIX_EPOCH);
            entries.push((path, bytes, used));
        }
        entries.sort_by_key(|(path, _, used)| (*used, path.clone()));
        Ok(entries)
    }

    /// How much the store holds now.
    pub fn usage(&self) -> Result<Usage, CacheError> {
        let entries = self.entries()?;
        Ok(Usage {
            entries: entries.len(),
            bytes: entries.iter().map(|(_, bytes, _)| bytes).sum(),
        })
    }

    /// Removes the builds used longest ago until the store fits its limit, never `keep` (the
    /// build just made) nor one used in the last minutes. A failure to sweep is not the
    /// build's: it is left for the next sweep.
    pub fn sweep(&self, keep: &Path) {
        let Ok(entries) = self.entries() else {
            return;
        };
        let mut total: u64 = entries.iter().map(|(_, bytes, _)| bytes).sum();
        let now = SystemTime::now();
        for (path, bytes, used) in entries {
            if total <= self.max_bytes {
                break;
            }
            let recent = now.duration_since(used).unwrap_or_default() < IN_USE;
            if path == keep || recent {
                continue;
            }
            if remove(&path).is_ok() {
                total = total.saturating_sub(bytes);
            }
        }
    }

    /// Removes every build; returns what there was.
    pub fn clear(&self) -> Result<Usage, CacheError> {
        let entries = self.entries()?;
        let usage = Usage {
            entries: entries.len(),
            bytes: entries.iter().map(|(_, bytes, _)| bytes).sum(),
        };
        for (path, _, _) in entries {
            remove(&path).map_err(|source| CacheError::Io { path, source })?;
        }
        Ok(usage)
    }
}

/// Removes a build folder: renamed out of its key first, so that a judge looking it up sees
/// it whole or not at all.
fn remove(path: &Path) -> std::io::Result<()> {
    let parent = path.parent().unwrap_or(Path::new("."));
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    let doomed = parent.join(format!(".removing-{}-{name}", std::process::id()));
    fs::rename(path, &doomed)?;
    fs::remove_dir_all(&doomed)
}

/// The name of a build: 128 bits from two differently seeded SipHashes of every part fed to
/// it, after a readable prefix (the program's name and language). std does not promise the
/// same hash across Rust versions: a new harness at worst builds once more.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Key {
    /// The folder's name.
    pub name: String,
}

/// Collects the parts of a [`Key`].
pub struct KeyBuilder {
    halves: [DefaultHasher; 2],
}

impl Default for KeyBuilder {
    fn default() -> Self {
        KeyBuilder::new()
    }
}

impl KeyBuilder {
    /// A key of nothing yet but the layout's version.
    pub fn new() -> KeyBuilder {
        let mut builder = KeyBuilder {
            halves: [DefaultHasher::new(), DefaultHasher::new()],
        };
        for (seed, hasher) in builder.halves.iter_mut().enumerate() {
            hasher.write_u64(seed as u64);
        }
        builder.part(LAYOUT.as_bytes());
        builder
    }

    /// One more part; parts are delimited by their length, so ("ab", "c") ≠ ("a", "bc").
    pub fn part(&mut self, bytes: &[u8]) -> &mut KeyBuilder {
        for hasher in &mut self.halves {
            hasher.write_u64(bytes.len() as u64);
            hasher.write(bytes);
        }
        self
    }

    /// The key, its folder name starting with `label` (made safe for a file name).
    pub fn finish(&self, label: &str) -> Key {
        Key {
            name: format!(
                "{}-{:016x}{:016x}",
                sanitize(label),
                self.halves[0].finish(),
                self.halves[1].finish()
            ),
        }
    }
}

/// The longest label of a build folder: the label is for people reading the cache; the hash
/// beside it tells builds apart.
const LABEL_CHARS: usize = 64;

/// A label as part of a folder name: letters, digits, `-` and `.` kept, the rest `_`, cut to
/// [`LABEL_CHARS`].
fn sanitize(label: &str) -> String {
    label
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '.' {
                c
            } else {
                '_'
            }
        })
        .take(LABEL_CHARS)
        .collect()
}

/// The identity of the program a command starts, as found now on PATH: its real path, size and
/// modification time (an upgrade changes them; running `--version` on every build would cost
/// more than the lookup saves). Empty when it is not found: the build then says so.
pub fn tool_identity(program: &str) -> String {
    crate::sandbox::run::find_program(Path::new(program))
        .map_or_else(|_| String::new(), |path| file_identity(&path))
}

/// The identity of the file `path` leads to: its real path (links followed), size and
/// modification time; empty when there is none.
pub fn file_identity(path: &Path) -> String {
    let Ok(real) = fs::canonicalize(path) else {
        return String::new();
    };
    let Ok(meta) = fs::metadata(&real) else {
        return String::new();
    };
    let modified = meta
        .modified()
        .ok()
        .and_then(|time| time.duration_since(std::time::UNIX_EPOCH).ok())
        .map_or(0, |since| since.as_nanos());
    format!("{}\0{}\0{modified}", real.display(), meta.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parts_are_delimited_and_labels_are_file_names() {
        let key = |parts: &[&str]| {
            let mut builder = KeyBuilder::new();
            for part in parts {
                builder.part(part.as_bytes());
            }
            builder.finish("output_validators/v")
        };
        assert_eq!(key(&["ab", "c"]), key(&["ab", "c"]));
        assert_ne!(key(&["ab", "c"]), key(&["a", "bc"]));
        assert!(key(&[]).name.starts_with("output_validators_v-"));
        let long = KeyBuilder::new().finish(&"v".repeat(300));
        assert_eq!(long.name.len(), LABEL_CHARS + 1 + 32);
    }

    #[test]
    fn a_changed_tool_changes_its_identity() {
        let dir = tempfile::tempdir().unwrap();
        let tool = dir.path().join("cc");
        fs::write(&tool, "#!/bin/sh\n").unwrap();
        let path = tool.display().to_string();
        let before = tool_identity(&path);
        assert!(!before.is_empty());
        assert_eq!(before, tool_identity(&path));
        fs::write(&tool, "#!/bin/sh\n# version 2\n").unwrap();
        assert_ne!(before, tool_identity(&path));
    }

    #[test]
    fn the_sweep_removes_the_oldest_builds_past_the_limit() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store {
            dir: dir.path().to_path_buf(),
            max_bytes: 2500,
        };
        let old = SystemTime::now() - Duration::from_secs(3600);
        for (index, name) in ["a", "b", "c"].into_iter().enumerate() {
            let entry = dir.path().join(name);
            fs::create_dir(&entry).unwrap();
            fs::write(entry.join("main.bin"), vec![0u8; 1000]).unwrap();
            let when = old + Duration::from_secs(index as u64 * 60);
            fs::File::open(&entry).unwrap().set_modified(when).unwrap();
        }
        // Half built: not a build, never counted nor swept.
        fs::create_dir(dir.path().join(".building-x")).unwrap();
        assert_eq!(
            store.usage().unwrap(),
            Usage {
                entries: 3,
                bytes: 3000
            }
        );
        store.sweep(&dir.path().join("c"));
        assert!(!dir.path().join("a").exists(), "the oldest goes");
        assert!(dir.path().join("b").exists());
        assert!(dir.path().join("c").exists());
        assert!(dir.path().join(".building-x").exists());

        // One used just now stays even past the limit.
        let tight = Store {
            max_bytes: 0,
            ..store.clone()
        };
        Store::touch(&dir.path().join("b"));
        tight.sweep(&dir.path().join("c"));
        assert!(dir.path().join("b").exists());

        assert_eq!(store.clear().unwrap().entries, 2);
        assert_eq!(store.usage().unwrap(), Usage::default());
    }
}
