//! The live page of `harness serve --http`: the HTML report's look (its style sheet), drawn
//! in the browser from the server's events as they come (`live.js`). One fixed document:
//! nothing of a run is in it, so nothing of a run is ever written into markup here; the
//! script puts every string from the server in as text. Like every report, it runs nothing.

use super::html::page::STYLE;

/// What the live page adds to the report's style sheet.
const LIVE_STYLE: &str = r#"
header { display: flex; gap: 1rem; align-items: baseline; }
#status { font-size: 12px; }
section.task { margin-bottom: 1.5rem; }
section.task.running h2 .verdict .badge { opacity: 0.6; }
.runs td.near { color: var(--TLE); font-weight: 600; }
.share { font-size: 11px; }
.diagnostics { padding-left: 1.2rem; }
.diagnostics li[data-severity="error"] { color: var(--WA); }
table.dialogue td { padding: 0 0.8rem 0 0; border-bottom: 1px solid var(--line); white-space: pre; }
table.dialogue th { text-align: left; color: var(--muted); font-weight: normal; padding-right: 0.8rem; }
table.dialogue tr.interactor td:last-child { background: var(--ins); }
table.dialogue tr.submission td:first-child { background: var(--panel); }
#received { list-style: none; padding: 0; }
"#;

/// The script, kept beside this file so that it reads as JavaScript.
const SCRIPT: &str = include_str!("live.js");

/// The whole page, as `GET /` serves it.
pub fn page() -> String {
    format!(
        r#"<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>harness · live</title>
<style>{STYLE}{LIVE_STYLE}</style>
</head>
<body>
<header><h1>harness · live</h1><span id="status" class="muted">connecting…</span></header>
<p id="empty" class="muted">Nothing judged yet: tasks an editor starts through <code>harness serve</code> appear here as they run.</p>
<ul id="received" hidden></ul>
<main id="tasks"></main>
<footer>Follows the server's events as they come; it starts nothing itself.</footer>
<script>{SCRIPT}</script>
</body>
</html>
"#
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_page_is_whole_and_fetches_nothing() {
        let page = page();
        assert!(page.starts_with("<!DOCTYPE html>") && page.ends_with("</html>\n"));
        // The script cannot end its own element early, nor reach another site.
        assert!(
            !SCRIPT.contains("</script"),
            "live.js must not hold `</script`"
        );
        for fetched in ["http://", "https://", "src=", "@import", "url("] {
            assert!(!page.contains(fetched), "the page holds `{fetched}`");
        }
        // Strings from the server go in as text only.
        for markup in [
            "innerHTML",
            "outerHTML",
            "insertAdjacentHTML",
            "document.write",
        ] {
            assert!(!SCRIPT.contains(markup), "live.js uses `{markup}`");
        }
    }
}
