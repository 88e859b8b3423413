//! A received problem's id: the judge's own short name where the URL tells it (Codeforces
//! `1900A` → `cf1900a`, AtCoder `abc311_a`, Kattis `hello`, CSES `cses1068`), else one made
//! from the problem's name; never one that is taken.

/// Ids made from names are cut to this many characters: long enough to tell problems apart,
/// short enough to type.
const MAX_NAME_ID: usize = 40;

/// The id for a problem at `url` named `name`.
pub fn base_id(url: &str, name: &str) -> String {
    from_url(url)
        .or_else(|| slug(name))
        .unwrap_or_else(|| "problem".to_string())
}

/// `base`, or `base-2`, `base-3`, … : the first one `taken` says is free.
pub fn unique_id(base: &str, taken: impl Fn(&str) -> bool) -> String {
    if !taken(base) {
        return base.to_string();
    }
    (2..)
        .map(|n| format!("{base}-{n}"))
        .find(|id| !taken(id))
        .expect("some suffix is free")
}

fn from_url(url: &str) -> Option<String> {
    let rest = url.split_once("://").map_or(url, |(_, rest)| rest);
    let (host, path) = rest.split_once('/').unwrap_or((rest, ""));
    let host = host.to_ascii_lowercase();
    let (path, query) = path.split_once('?').unwrap_or((path, ""));
    let path = path.split('#').next().unwrap_or_default();
    let parts: Vec<&str> = path.split('/').filter(|p| !p.is_empty()).collect();
    let id = if host.contains("codeforces") {
        codeforces(&parts)
    } else if host.ends_with("atcoder.jp") {
        after(&parts, "tasks").map(str::to_string)
    } else if host.ends_with("kattis.com") {
        after(&parts, "problems").map(str::to_string)
    } else if host.ends_with("cses.fi") {
        after(&parts, "task").map(|n| format!("cses{n}"))
    } else if host.ends_with("usaco.org") {
        query
            .split('&')
            .find_map(|pair| pair.strip_prefix("cpid="))
            .map(|n| format!("usaco{n}"))
    } else if host.ends_with("luogu.com.cn") || host.ends_with("luogu.org") {
        after(&parts, "problem").map(|p| format!("luogu-{p}"))
    } else {
        None
    }?;
    clean(&id)
}

/// `/contest/1900/problem/A`, `/problemset/problem/1900/A`, `/gym/104114/problem/B`,
/// `/group/xyz/contest/123/problem/C`.
fn codeforces(parts: &[&str]) -> Option<String> {
    let (contest, index) = match parts {
        [.., "problemset", "problem", contest, index]
        | [.., "contest" | "gym", contest, "problem", index] => (*contest, *index),
        _ => return None,
    };
    contest
        .chars()
        .all(|c| c.is_ascii_digit())
        .then(|| format!("cf{contest}{index}"))
}

fn after<'a>(parts: &[&'a str], marker: &str) -> Option<&'a str> {
    let at = parts.iter().position(|p| *p == marker)?;
    parts.get(at + 1).copied()
}

/// Lowercase, only characters an id may hold, and never a leading `-`: a URL's
/// `/problems/--help` would give an id that every command takes for an option. `None` when
/// nothing is left.
fn clean(id: &str) -> Option<String> {
    let id: String = id
        .to_ascii_lowercase()
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_')
        .collect();
    let id = id.trim_start_matches('-');
    (!id.is_empty()).then(|| id.to_string())
}

/// `"A. Cover in Water"` → `a-cover-in-water`.
fn slug(name: &str) -> Option<String> {
    let mut slug = String::new();
    for c in name.chars() {
        if c.is_ascii_alphanumeric() {
            slug.push(c.to_ascii_lowercase());
        } else if !slug.is_empty() && !slug.ends_with('-') {
            slug.push('-');
        }
        if slug.len() >= MAX_NAME_ID {
            break;
        }
    }
    let slug = slug.trim_end_matches('-');
    (!slug.is_empty()).then(|| slug.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_from_urls_and_names() {
        // From the page's address alone (the name says nothing that counts): the address and
        // the id on each line. A leading `-` would make the id an option on every command line.
        let by_url = "
            https://codeforces.com/contest/1900/problem/A cf1900a
            https://codeforces.com/problemset/problem/1899/B2 cf1899b2
            https://codeforces.com/gym/104114/problem/C cf104114c
            https://codeforces.com/group/AbC/contest/123/problem/D?locale=en cf123d
            https://m1.codeforces.com/contest/1/problem/A cf1a
            https://atcoder.jp/contests/abc311/tasks/abc311_a abc311_a
            https://open.kattis.com/problems/hello hello
            https://open.kattis.com/contests/nwerc/problems/excursion excursion
            https://cses.fi/problemset/task/1068 cses1068
            http://www.usaco.org/index.php?page=viewproblem2&cpid=1234 usaco1234
            https://www.luogu.com.cn/problem/P1001 luogu-p1001
            https://open.kattis.com/problems/--help help
            https://atcoder.jp/contests/x/tasks/-rm rm
            https://cses.fi/problemset/task/-1 cses-1";
        for line in by_url
            .lines()
            .map(str::trim)
            .filter(|line| !line.is_empty())
        {
            let (url, expected) = line.split_once(' ').unwrap();
            assert_eq!(base_id(url, "x"), expected, "{url}");
        }
        let by_name = [
            (
                "https://example.com/task/7",
                "A. Cover in Water!",
                "a-cover-in-water",
            ),
            ("", "  Snakes & Ladders (hard) ", "snakes-ladders-hard"),
            ("", "排序", "problem"),
            ("https://codeforces.com/blog/entry/1", "Blog", "blog"),
            ("https://open.kattis.com/problems/---", "-v", "v"),
        ];
        for (url, name, expected) in by_name {
            assert_eq!(base_id(url, name), expected, "{url} {name}");
        }
        let long = base_id("", &"word ".repeat(30));
        assert!(long.len() <= MAX_NAME_ID && !long.ends_with('-'), "{long}");
    }

    #[test]
    fn a_taken_id_gets_a_suffix() {
        let taken = ["cf1a", "cf1a-2"];
        assert_eq!(unique_id("cf1a", |id| taken.contains(&id)), "cf1a-3");
        assert_eq!(unique_id("cf1b", |id| taken.contains(&id)), "cf1b");
    }
}
