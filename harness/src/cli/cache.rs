//! `harness cache`: where the builds are kept and how much they take; `--clear` empties it.

use anyhow::Result;
use clap::Args;

use crate::compile::cache::Store;
use crate::exit;
use crate::report::cache::write_cache;

#[derive(Args, Debug)]
pub(crate) struct CacheArgs {
    /// Remove every build: the next run compiles everything again.
    #[arg(long)]
    clear: bool,
}

pub fn cache(args: &CacheArgs) -> Result<i32> {
    let store = Store::from_env()?;
    let (usage, cleared) = if args.clear {
        crate::compile::pch::clear()?;
        (store.clear()?, true)
    } else {
        (store.usage()?, false)
    };
    write_cache(&mut anstream::stdout(), &store, usage, cleared)?;
    Ok(exit::OK)
}
