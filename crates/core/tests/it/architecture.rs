//! The floors inside core (ARCHITECTURE.md "Floors inside core"), held by reading core's
//! own module imports: no circle between top-level modules, no arrow up a floor. The floors
//! and the arrows still excused are in `crates/core/floors.txt`, which
//! `scripts/core-imports.py` reads the same way to print the counts.
//!
//! How imports are read: production code only (comments and `#[cfg(test)] mod … { … }`
//! blocks are skipped); `crate::x…` and `use crate::{x, y…}` name the top-level modules x
//! and y; a name the crate root re-exports (`crate::AppCore`) names the module it comes
//! from; a `super::` chain long enough to reach the crate root names the module after it.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use regex::Regex;

const SRC: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/src");
const FLOORS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/floors.txt");

type Edge = (String, String);
/// Arrows between top-level modules, each with the files that make it.
type Arrows = BTreeMap<Edge, BTreeSet<String>>;

/// Drops `//` and `/* */` comments, keeping string and char literals whole.
fn strip_comments(text: &str) -> String {
    let b = text.as_bytes();
    let n = b.len();
    let mut out: Vec<u8> = Vec::with_capacity(n);
    let mut i = 0;
    let ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    while i < n {
        let c = b[i];
        if b[i..].starts_with(b"//") {
            i = b[i..].iter().position(|&x| x == b'\n').map_or(n, |p| i + p);
        } else if b[i..].starts_with(b"/*") {
            let mut depth = 1;
            i += 2;
            while i < n && depth > 0 {
                if b[i..].starts_with(b"/*") {
                    depth += 1;
                    i += 2;
                } else if b[i..].starts_with(b"*/") {
                    depth -= 1;
                    i += 2;
                } else {
                    i += 1;
                }
            }
        } else if c == b'r' && (i == 0 || !ident(b[i - 1])) && raw_string_hashes(&b[i..]).is_some()
        {
            let hashes = raw_string_hashes(&b[i..]).unwrap_or(0);
            let mut end = vec![b'"'];
            end.extend(std::iter::repeat_n(b'#', hashes));
            let start = i + 2 + hashes;
            let j = find(b, start, &end).map_or(n, |p| p + end.len());
            out.extend_from_slice(&b[i..j]);
            i = j;
        } else if c == b'"' {
            let mut j = i + 1;
            while j < n && b[j] != b'"' {
                j += if b[j] == b'\\' { 2 } else { 1 };
            }
            let j = (j + 1).min(n);
            out.extend_from_slice(&b[i..j]);
            i = j;
        } else if c == b'\'' {
            let len = char_literal_len(&b[i..]);
            out.extend_from_slice(&b[i..i + len]);
            i += len;
        } else {
            out.push(c);
            i += 1;
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// `r"`, `r#"`, … at the start: how many `#`.
fn raw_string_hashes(b: &[u8]) -> Option<usize> {
    let hashes = b[1..].iter().take_while(|&&x| x == b'#').count();
    (b.get(1 + hashes) == Some(&b'"')).then_some(hashes)
}

fn find(b: &[u8], from: usize, needle: &[u8]) -> Option<usize> {
    (from..b.len().saturating_sub(needle.len() - 1)).find(|&k| b[k..].starts_with(needle))
}

/// The length of a char literal at the start (`'x'`, `'\n'`, `'\u{…}'`), or 1 for the
/// quote of a lifetime.
fn char_literal_len(b: &[u8]) -> usize {
    if b.get(1) == Some(&b'\\') {
        if b.get(2) == Some(&b'u') {
            if let Some(close) = b.iter().position(|&x| x == b'}')
                && b.get(close + 1) == Some(&b'\'')
            {
                return close + 2;
            }
        } else if b.get(3) == Some(&b'\'') {
            return 4;
        }
        return 1;
    }
    let width = match b.get(1) {
        Some(&x) if x < 0x80 => 1,
        Some(&x) if x >= 0xF0 => 4,
        Some(&x) if x >= 0xE0 => 3,
        Some(_) => 2,
        None => return 1,
    };
    if b.get(1 + width) == Some(&b'\'') && b.get(1) != Some(&b'\'') {
        2 + width
    } else {
        1
    }
}

/// Drops `#[cfg(test)] mod name { … }` blocks; returns the rest and the names of
/// `#[cfg(test)] mod name;` files.
fn strip_test_modules(text: &str) -> (String, Vec<String>) {
    let re = Regex::new(
        r"#\[cfg\(test\)\]\s*(?:#\[[^\]]*\]\s*)*(?:pub(?:\([^)]*\))?\s+)?mod\s+(\w+)\s*([;{])",
    )
    .unwrap();
    let b = text.as_bytes();
    let (mut out, mut files, mut pos) = (String::new(), Vec::new(), 0);
    for m in re.captures_iter(text) {
        let whole = m.get(0).unwrap();
        if whole.start() < pos {
            continue;
        }
        out.push_str(&text[pos..whole.start()]);
        if &m[2] == ";" {
            files.push(m[1].to_owned());
            pos = whole.end();
            continue;
        }
        let (mut depth, mut i) = (1, whole.end());
        while i < b.len() && depth > 0 {
            match b[i] {
                b'{' => depth += 1,
                b'}' => depth -= 1,
                b'"' => {
                    i += 1;
                    while i < b.len() && b[i] != b'"' {
                        i += if b[i] == b'\\' { 2 } else { 1 };
                    }
                }
                _ => {}
            }
            i += 1;
        }
        pos = i.min(b.len());
    }
    out.push_str(&text[pos..]);
    (out, files)
}

fn first_ident(s: &str) -> Option<String> {
    let s = s.trim_start();
    let end = s
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(s.len());
    (end > 0 && !s.as_bytes()[0].is_ascii_digit()).then(|| s[..end].to_owned())
}

/// The names a path names right after `i`: one, or each top-level item of a `{…}` group.
fn heads_after(text: &str, i: usize) -> Vec<String> {
    let rest = text[i..].trim_start();
    if !rest.starts_with('{') {
        return first_ident(rest).into_iter().collect();
    }
    let (mut heads, mut depth, mut item_start) = (Vec::new(), 0, 1);
    for (j, c) in rest.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    heads.extend(first_ident(&rest[item_start..j]));
                    break;
                }
            }
            ',' if depth == 1 => {
                heads.extend(first_ident(&rest[item_start..j]));
                item_start = j + 1;
            }
            _ => {}
        }
    }
    heads
}

/// `pub use x::{A, B};` at the crate root: each name and the module x it comes from.
fn root_reexports() -> BTreeMap<String, String> {
    let lib = strip_comments(&std::fs::read_to_string(format!("{SRC}/lib.rs")).unwrap());
    let re = Regex::new(r"(?m)^pub use (\w+)::(\{[^}]*\}|\w+)\s*;").unwrap();
    let mut names = BTreeMap::new();
    for m in re.captures_iter(&lib) {
        for item in m[2].trim_matches(|c| c == '{' || c == '}').split(',') {
            let item = item.trim();
            if item.is_empty() {
                continue;
            }
            let name = match item.rsplit_once(" as ") {
                Some((_, alias)) => alias.trim(),
                None => item.rsplit("::").next().unwrap_or(item),
            };
            names.insert(name.to_owned(), m[1].to_owned());
        }
    }
    names
}

/// Every `.rs` file under `src`, as a path relative to it with `/` separators.
fn source_files(dir: &Path, out: &mut Vec<String>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            source_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let rel = path.strip_prefix(SRC).unwrap();
            out.push(rel.to_string_lossy().replace('\\', "/"));
        }
    }
}

/// The module path of a file: `engine/think.rs` is `[engine, think]`, `lib.rs` is `[]`.
fn module_path(rel: &str) -> Vec<String> {
    let stem = rel.trim_end_matches(".rs");
    if stem == "lib" {
        return Vec::new();
    }
    stem.split('/').map(str::to_owned).collect()
}

/// Core's top-level modules and the arrows between them.
fn read_imports() -> (BTreeSet<String>, Arrows) {
    let mut files = Vec::new();
    source_files(Path::new(SRC), &mut files);
    files.sort();
    let tops: BTreeSet<String> = files
        .iter()
        .map(|f| module_path(f))
        .filter(|p| p.len() == 1)
        .map(|p| p[0].clone())
        .collect();
    let reexports = root_reexports();
    let mut texts = BTreeMap::new();
    let mut skipped = Vec::new();
    for rel in &files {
        let raw = std::fs::read_to_string(format!("{SRC}/{rel}")).unwrap();
        let (text, test_files) = strip_test_modules(&strip_comments(&raw));
        let base = rel.trim_end_matches(".rs");
        for t in test_files {
            skipped.push(if rel == "lib.rs" {
                t
            } else {
                format!("{base}/{t}")
            });
        }
        texts.insert(rel.clone(), text);
    }
    let is_test = |rel: &str| {
        let stem = rel.trim_end_matches(".rs");
        skipped
            .iter()
            .any(|s| stem == s || stem.starts_with(&format!("{s}/")))
    };
    let crate_path = Regex::new(r"(^|[^\w$:])crate::").unwrap();
    let super_path = Regex::new(r"(^|[^\w:])((?:super::)+)").unwrap();
    let mut arrows = Arrows::new();
    for (rel, text) in &texts {
        let path = module_path(rel);
        if path.is_empty() || is_test(rel) {
            continue;
        }
        let me = &path[0];
        let mut heads = Vec::new();
        for m in crate_path.captures_iter(text) {
            heads.extend(heads_after(text, m.get(0).unwrap().end()));
        }
        for m in super_path.captures_iter(text) {
            let chain = m.get(2).unwrap();
            if chain.as_str().matches("super::").count() >= path.len() {
                heads.extend(heads_after(text, chain.end()));
            }
        }
        for head in heads {
            let target = if tops.contains(&head) {
                Some(head)
            } else {
                reexports.get(&head).cloned()
            };
            if let Some(target) = target.filter(|t| t != me) {
                arrows
                    .entry((me.clone(), target))
                    .or_default()
                    .insert(rel.clone());
            }
        }
    }
    (tops, arrows)
}

/// The floors (lowest first) and the arrows still excused, with why.
struct Floors {
    names: Vec<String>,
    floor_of: BTreeMap<String, usize>,
    allowed: BTreeMap<Edge, String>,
}

fn read_floors() -> Floors {
    let text = std::fs::read_to_string(FLOORS).unwrap();
    let mut floors = Floors {
        names: Vec::new(),
        floor_of: BTreeMap::new(),
        allowed: BTreeMap::new(),
    };
    for line in text.lines() {
        let line = line.split('#').next().unwrap_or("").trim();
        let Some((word, rest)) = line.split_once(char::is_whitespace) else {
            continue;
        };
        match word {
            "floor" => {
                let (name, modules) = rest.split_once(':').expect("floor <name>: <modules>");
                for m in modules.split_whitespace() {
                    let before = floors.floor_of.insert(m.to_owned(), floors.names.len());
                    assert!(before.is_none(), "{m} is on two floors");
                }
                floors.names.push(name.trim().to_owned());
            }
            "allow" => {
                let (edge, why) = rest.split_once(':').expect("allow a -> b: why");
                let (a, b) = edge.split_once("->").expect("allow a -> b: why");
                floors.allowed.insert(
                    (a.trim().to_owned(), b.trim().to_owned()),
                    why.trim().to_owned(),
                );
            }
            other => panic!("floors.txt: unknown line kind {other:?}"),
        }
    }
    floors
}

/// The strongly connected components of more than one module (Tarjan).
fn circles(nodes: &BTreeSet<String>, edges: &BTreeSet<Edge>) -> Vec<Vec<String>> {
    struct Walk<'a> {
        next: BTreeMap<&'a str, Vec<&'a str>>,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        on: BTreeSet<&'a str>,
        found: Vec<Vec<String>>,
    }
    fn visit<'a>(w: &mut Walk<'a>, v: &'a str) {
        let i = w.index.len();
        w.index.insert(v, i);
        w.low.insert(v, i);
        w.stack.push(v);
        w.on.insert(v);
        for u in w.next.get(v).cloned().unwrap_or_default() {
            if !w.index.contains_key(u) {
                visit(w, u);
                let low = w.low[v].min(w.low[u]);
                w.low.insert(v, low);
            } else if w.on.contains(u) {
                let low = w.low[v].min(w.index[u]);
                w.low.insert(v, low);
            }
        }
        if w.low[v] == w.index[v] {
            let mut comp = Vec::new();
            while let Some(u) = w.stack.pop() {
                w.on.remove(u);
                comp.push(u.to_owned());
                if u == v {
                    break;
                }
            }
            if comp.len() > 1 {
                comp.sort();
                w.found.push(comp);
            }
        }
    }
    let mut w = Walk {
        next: BTreeMap::new(),
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on: BTreeSet::new(),
        found: Vec::new(),
    };
    for (a, b) in edges {
        w.next.entry(a.as_str()).or_default().push(b.as_str());
    }
    for v in nodes {
        if !w.index.contains_key(v.as_str()) {
            visit(&mut w, v);
        }
    }
    w.found
}

/// The fewest arrows that lead from the circle's first module back to it.
fn shortest_circle(circle: &[String], edges: &BTreeSet<Edge>) -> Vec<Edge> {
    let start = &circle[0];
    let mut came_from: BTreeMap<&String, &String> = BTreeMap::new();
    let mut queue = std::collections::VecDeque::from([start]);
    while let Some(v) = queue.pop_front() {
        for (a, b) in edges.iter().filter(|(a, b)| a == v && circle.contains(b)) {
            if b == start {
                let mut hops = vec![(a.clone(), b.clone())];
                let mut at = a;
                while at != start {
                    let prev = came_from[at];
                    hops.push((prev.clone(), at.clone()));
                    at = prev;
                }
                hops.reverse();
                return hops;
            }
            if !came_from.contains_key(b) {
                came_from.insert(b, a);
                queue.push_back(b);
            }
        }
    }
    Vec::new()
}

/// What breaks the floors: unplaced modules, arrows up a floor that no `allow` line
/// excuses, circles left once the allowed arrows are set aside, and `allow` lines that
/// excuse nothing any more.
fn broken_floors(tops: &BTreeSet<String>, arrows: &Arrows, floors: &Floors) -> Vec<String> {
    let mut broken = Vec::new();
    for t in tops.iter().filter(|t| !floors.floor_of.contains_key(*t)) {
        broken.push(format!("module {t} is on no floor in floors.txt"));
    }
    for m in floors.floor_of.keys().filter(|m| !tops.contains(*m)) {
        broken.push(format!("floors.txt names {m}, which is no module of core"));
    }
    let floor = |m: &str| floors.floor_of.get(m).copied().unwrap_or(0);
    let files = |e: &Edge| {
        arrows
            .get(e)
            .map(|f| f.iter().cloned().collect::<Vec<_>>().join(", "))
            .unwrap_or_default()
    };
    for e @ (a, b) in arrows.keys() {
        if floor(b) > floor(a) && !floors.allowed.contains_key(e) {
            broken.push(format!(
                "{a} -> {b} points up a floor ({} -> {}), in {}",
                floors.names[floor(a)],
                floors.names[floor(b)],
                files(e)
            ));
        }
    }
    let kept = |allowed: &BTreeMap<Edge, String>| -> BTreeSet<Edge> {
        arrows
            .keys()
            .filter(|e| !allowed.contains_key(*e))
            .cloned()
            .collect()
    };
    let kept_now = kept(&floors.allowed);
    for circle in circles(tops, &kept_now) {
        let hops: Vec<String> = shortest_circle(&circle, &kept_now)
            .iter()
            .map(|e @ (a, b)| format!("  {a} -> {b} in {}", files(e)))
            .collect();
        broken.push(format!(
            "a circle ({} modules caught in it: {}), the shortest way round:\n{}",
            circle.len(),
            circle.join(", "),
            hops.join("\n")
        ));
    }
    for ((a, b), why) in &floors.allowed {
        let e = (a.clone(), b.clone());
        if !arrows.contains_key(&e) {
            broken.push(format!(
                "allow {a} -> {b} ({why}): the arrow is gone, delete its line"
            ));
            continue;
        }
        if floor(b) > floor(a) {
            continue;
        }
        let mut without = floors.allowed.clone();
        without.remove(&e);
        if circles(tops, &kept(&without)).is_empty() {
            broken.push(format!(
                "allow {a} -> {b} ({why}): it no longer closes a circle, delete its line"
            ));
        }
    }
    broken
}

#[test]
fn core_modules_import_in_no_circle_and_never_up_a_floor() {
    let (tops, arrows) = read_imports();
    let broken = broken_floors(&tops, &arrows, &read_floors());
    assert!(
        broken.is_empty(),
        "core's floors (crates/core/floors.txt, ARCHITECTURE.md) are broken:\n{}",
        broken.join("\n")
    );
}

#[test]
fn the_import_reader_sees_the_arrows_that_must_exist() {
    // A reader that found nothing would pass the test above for the wrong reason.
    let (tops, arrows) = read_imports();
    assert!(tops.len() > 20, "{tops:?}");
    for (from, to) in [
        ("engine", "chat"), // `use crate::chat::…`
        ("app", "org"),     // `use crate::{…, org::…}`
        ("secretary", "work"),
        ("approvals", "events"),
    ] {
        assert!(
            arrows.contains_key(&(from.to_owned(), to.to_owned())),
            "{from} -> {to} not seen"
        );
    }
}

#[test]
fn the_import_reader_skips_comments_and_test_modules_and_reads_groups() {
    let text = "use crate::{a::X, b::{Y, Z}, c};\n// crate::d\n/* crate::e */ let s = \"// not a comment\"; \
                let c = '\"'; crate::f::g();\n#[cfg(test)]\nmod tests { use crate::h; }\n";
    let (text, _) = strip_test_modules(&strip_comments(text));
    let re = Regex::new(r"(^|[^\w$:])crate::").unwrap();
    let heads: Vec<String> = re
        .captures_iter(&text)
        .flat_map(|m| heads_after(&text, m.get(0).unwrap().end()))
        .collect();
    assert_eq!(heads, ["a", "b", "c", "f"]);
}
