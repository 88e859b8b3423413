//! `harness cache`'s report: the build cache's folder, what it holds and its limit.

use std::io::{self, Write};

use crate::compile::cache::{Store, Usage};
use crate::units::{format_bytes, format_size_limit};

/// Writes what the cache holds, or what `--clear` removed.
pub fn write_cache(
    out: &mut impl Write,
    store: &Store,
    usage: Usage,
    cleared: bool,
) -> io::Result<()> {
    writeln!(out, "build cache: {}", store.dir.display())?;
    let size = format_bytes;
    if cleared {
        writeln!(
            out,
            "removed: {} builds, {}",
            usage.entries,
            size(usage.bytes)
        )?;
    } else {
        writeln!(
            out,
            "holds: {} builds, {}",
            usage.entries,
            size(usage.bytes)
        )?;
    }
    writeln!(
        out,
        "limit: {} (HARNESS_CACHE_SIZE; the builds used longest ago go first)",
        format_size_limit(store.max_bytes)
    )
}
