//! Reporters: render a run's events (or judged results) to any writer. Nothing here runs
//! anything.

pub mod author;
pub mod cache;
pub mod calibrate;
pub mod custom;
pub mod diff;
pub mod doctor;
pub mod excerpt;
#[cfg(test)]
pub mod fixtures;
pub mod html;
pub mod human;
pub mod json;
pub mod junit;
pub mod live;
pub mod notice;
pub mod package;
pub mod progress;
pub mod project;
pub mod record;
pub mod reporter;
pub mod score;
pub mod scoreboard;
pub mod stress;
pub mod style;
pub mod workspace;

/// A path as the user would type it: relative to the current folder when inside it.
pub fn shown_path(path: &std::path::Path) -> String {
    let here = std::env::current_dir().ok();
    let relative = here
        .as_deref()
        .and_then(|here| path.strip_prefix(here).ok())
        .filter(|p| !p.as_os_str().is_empty());
    let path = relative.unwrap_or(path);
    let path = path.strip_prefix(".").unwrap_or(path);
    path.display().to_string()
}
