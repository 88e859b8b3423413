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

/// The whole page, as `GET /` serves it: it follows `/events` (an `EventSource`).
pub fn page() -> String {
    document(None, None)
}

/// The same page for a host that hands it the events itself, as an editor's webview does:
/// each `message` posted to its window is an event, or an array of them (the `page` method
/// of `harness serve`). With a `nonce`, a Content-Security-Policy lets in nothing but the
/// page's own script and style, those carrying the nonce. The caller checks the nonce with
/// [`is_nonce`]: it goes into the markup.
pub fn hosted_page(nonce: Option<&str>) -> String {
    debug_assert!(nonce.is_none_or(is_nonce));
    document(Some("message"), nonce)
}

/// A nonce that may go into a CSP and an attribute as it is: base64's letters (and the URL
/// variant's), 16 to 256 of them; no quote, space or `<` can pass.
pub fn is_nonce(nonce: &str) -> bool {
    (16..=256).contains(&nonce.len())
        && nonce
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"+/=_-".contains(&b))
}

fn document(feed: Option<&str>, nonce: Option<&str>) -> String {
    let (policy, nonce_attr) = match nonce {
        Some(nonce) => (
            format!(
                "\n<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'nonce-{nonce}'; script-src 'nonce-{nonce}'\">"
            ),
            format!(" nonce=\"{nonce}\""),
        ),
        None => (String::new(), String::new()),
    };
    let feed = feed.map_or(String::new(), |feed| format!(" data-feed=\"{feed}\""));
    format!(
        r#"<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">{policy}
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>harness · live</title>
<style{nonce_attr}>{STYLE}{LIVE_STYLE}</style>
</head>
<body{feed}>
<header><h1>harness · live</h1><span id="status" class="muted">connecting…</span></header>
<p id="empty" class="muted">Nothing judged yet: tasks an editor starts through <code>harness serve</code> appear here as they run.</p>
<ul id="received" hidden></ul>
<main id="tasks"></main>
<footer>Follows the server's events as they come; it starts nothing itself.</footer>
<script{nonce_attr}>{SCRIPT}</script>
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

    #[test]
    fn the_hosted_page_is_the_same_page_fed_by_messages_under_a_policy() {
        let nonce = "c2FtcGxlLW5vbmNlLTEyMzQ1Ng==";
        let hosted = hosted_page(Some(nonce));
        // The same document, told where its events come from and locked to its own parts.
        assert!(hosted.contains("<body data-feed=\"message\">"));
        assert!(hosted.contains(&format!("script-src 'nonce-{nonce}'")));
        assert!(hosted.contains("default-src 'none'"));
        assert_eq!(hosted.matches(&format!(" nonce=\"{nonce}\">")).count(), 2);
        assert!(hosted.contains(SCRIPT) && hosted.contains(LIVE_STYLE));
        assert!(!page().contains("data-feed") && !page().contains("nonce"));
        let bare = hosted_page(None);
        assert!(bare.contains("<body data-feed=\"message\">") && !bare.contains("nonce"));
    }

    #[test]
    fn a_nonce_is_base64_letters_only() {
        for good in [
            "abcdefghijklmnop",
            "c2FtcGxlLW5vbmNlLTEyMzQ1Ng==",
            "A-_+/=0123456789ab",
        ] {
            assert!(is_nonce(good), "{good}");
        }
        let long = "a".repeat(257);
        for bad in [
            "",
            "short",
            "abcdefghijklmnop\"",
            "abcdefghijklmnop'",
            "abcdefgh ijklmnop",
            "abcdefghijklmnop><script>",
            "abcdefghijklmnopé",
            long.as_str(),
        ] {
            assert!(!is_nonce(bad), "{bad}");
        }
    }
}
