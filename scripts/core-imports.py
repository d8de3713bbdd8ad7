#!/usr/bin/env python3
"""Counts how crates/core's top-level modules import each other, and the habits issue-free
code avoids: cycles, arrows pointing up a floor, `impl AppCore` outside app.rs, the engine
reaching services through `.core()`, string matches on closed sets, hand-written `as_str`.

The floors are read from crates/core/floors.txt, the same file the architecture test
(crates/core/tests/it/architecture.rs) reads, and the import reading is the same: production
code only (a `#[cfg(test)] mod … { … }` block and comments are skipped), `crate::x` and
`use crate::{x, y}` name x and y, a root re-export (`crate::AppCore`) names the module it
comes from, and a `super::` chain long enough to reach the crate root names the module after it.

Usage: python3 scripts/core-imports.py [--arrows] [--files]
  --arrows  list every arrow between top-level modules (with how many files make it)
  --files   list, for each cycle, the files that make its arrows
"""

import os
import re
import sys
from collections import defaultdict

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORE = os.path.join(ROOT, "crates", "core")
SRC = os.path.join(CORE, "src")
FLOORS = os.path.join(CORE, "floors.txt")

IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def strip_comments(text):
    """Drops // and /* */ comments, keeping string literals (and their line breaks)."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/*", i):
            depth, i = 1, i + 2
            while i < n and depth:
                if text.startswith("/*", i):
                    depth, i = depth + 1, i + 2
                elif text.startswith("*/", i):
                    depth, i = depth - 1, i + 2
                else:
                    i += 1
        elif c == '"' or (c == "r" and re.match(r'r#*"', text[i:i + 8]) and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_"))):
            # a string literal: copy it whole so a "//" inside is not a comment
            if c == "r":
                m = re.match(r'r(#*)"', text[i:])
                end = '"' + m.group(1)
                j = text.find(end, i + len(m.group(0)))
                j = n if j < 0 else j + len(end)
            else:
                j = i + 1
                while j < n and text[j] != '"':
                    j += 2 if text[j] == "\\" else 1
                j += 1
            out.append(text[i:j])
            i = j
        elif c == "'" and re.match(r"'(\\.|[^\\'])'", text[i:i + 4]) or (c == "'" and re.match(r"'\\u\{[0-9a-fA-F]+\}'", text[i:i + 12])):
            # a char literal such as '"' must not open a string
            m = re.match(r"'(\\u\{[0-9a-fA-F]+\}|\\.|[^\\'])'", text[i:])
            out.append(text[i:i + len(m.group(0))])
            i += len(m.group(0))
        else:
            out.append(c)
            i += 1
    return "".join(out)


def strip_test_modules(text):
    """Drops `#[cfg(test)] mod name { … }` blocks (brace-matched); returns the rest and
    the names of `#[cfg(test)] mod name;` files to skip."""
    skipped_files = []
    out = []
    pos = 0
    for m in re.finditer(r"#\[cfg\(test\)\]\s*(?:#\[[^\]]*\]\s*)*(?:pub(?:\([^)]*\))?\s+)?mod\s+(\w+)\s*([;{])", text):
        if m.start() < pos:
            continue
        out.append(text[pos:m.start()])
        if m.group(2) == ";":
            skipped_files.append(m.group(1))
            pos = m.end()
            continue
        depth, i = 1, m.end()
        while i < len(text) and depth:
            if text[i] == "{":
                depth += 1
            elif text[i] == "}":
                depth -= 1
            elif text[i] == '"':
                i += 1
                while i < len(text) and text[i] != '"':
                    i += 2 if text[i] == "\\" else 1
            i += 1
        pos = i
    out.append(text[pos:])
    return "".join(out), skipped_files


def group_heads(text, i):
    """At text[i] == '{', the first identifier of each top-level item of a use group."""
    heads, depth, item_start = [], 0, i + 1
    j = i
    while j < len(text):
        c = text[j]
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                m = IDENT.match(text[item_start:j].strip())
                if m:
                    heads.append(m.group(0))
                break
        elif c == "," and depth == 1:
            m = IDENT.match(text[item_start:j].strip())
            if m:
                heads.append(m.group(0))
            item_start = j + 1
        j += 1
    return heads


def heads_after(text, i):
    """The module names a path names right after position i (one, or a group's)."""
    while i < len(text) and text[i] in " \t\n":
        i += 1
    if i < len(text) and text[i] == "{":
        return group_heads(text, i)
    m = IDENT.match(text, i)
    return [m.group(0)] if m else []


def root_reexports():
    """`pub use x::{A, B}` at the crate root: name -> module x."""
    text = strip_comments(open(os.path.join(SRC, "lib.rs"), encoding="utf-8").read())
    names = {}
    for m in re.finditer(r"^pub use (\w+)::(\{[^}]*\}|\w+)\s*;", text, re.M):
        module, items = m.group(1), m.group(2).strip("{}")
        for item in items.split(","):
            item = item.strip()
            if not item:
                continue
            alias = re.search(r"\bas\s+(\w+)$", item)
            names[alias.group(1) if alias else item.split("::")[-1]] = module
    return names


def source_files():
    """(path relative to src, module path) for each production file of core."""
    files = []
    for dirpath, _dirs, names in os.walk(SRC):
        for name in names:
            if name.endswith(".rs"):
                rel = os.path.relpath(os.path.join(dirpath, name), SRC)
                files.append(rel)
    return sorted(files)


def module_path(rel):
    parts = rel[:-3].split(os.sep)
    if parts == ["lib"]:
        return []
    return parts


def read_imports():
    """arrows[(from, to)] = set of files; plus the list of top-level modules."""
    tops = sorted(module_path(r)[0] for r in source_files() if len(module_path(r)) == 1)
    tops_set = set(tops)
    reexports = root_reexports()
    arrows = defaultdict(set)
    texts = {}
    skip = set()
    for rel in source_files():
        raw = open(os.path.join(SRC, rel), encoding="utf-8").read()
        text, test_files = strip_test_modules(strip_comments(raw))
        texts[rel] = text
        base = rel[:-3] if not rel.endswith("lib.rs") else ""
        for t in test_files:
            skip.add(os.path.join(base, t + ".rs") if base else t + ".rs")
    # a skipped file's own submodules are test code too
    def skipped(rel):
        return any(rel == s or rel.startswith(s[:-3] + os.sep) for s in skip)

    for rel, text in texts.items():
        path = module_path(rel)
        if not path or skipped(rel):
            continue
        me = path[0]
        for m in re.finditer(r"(?<![\w$:])crate::", text):
            for head in heads_after(text, m.end()):
                target = head if head in tops_set else reexports.get(head)
                if target and target != me:
                    arrows[(me, target)].add(rel)
        for m in re.finditer(r"(?<![\w:])((?:super::)+)", text):
            n = m.group(1).count("super::")
            if n < len(path):
                continue
            for head in heads_after(text, m.end()):
                target = head if head in tops_set else reexports.get(head)
                if target and target != me:
                    arrows[(me, target)].add(rel)
    return tops, arrows, texts


def read_floors():
    """floors.txt: `floor <name>: module module …` lines, lowest first, and
    `allow <from> -> <to>: why` lines. Returns ([(name, [modules])], {(from, to): why})."""
    floors, allowed = [], {}
    for line in open(FLOORS, encoding="utf-8"):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        word, rest = line.split(None, 1)
        if word == "floor":
            name, modules = rest.split(":", 1)
            floors.append((name.strip(), modules.split()))
        elif word == "allow":
            edge, why = rest.split(":", 1)
            a, b = [s.strip() for s in edge.split("->")]
            allowed[(a, b)] = why.strip()
    return floors, allowed


def sccs(nodes, edges):
    """Tarjan's strongly connected components."""
    graph = defaultdict(list)
    for a, b in edges:
        graph[a].append(b)
    index, low, on, stack, out = {}, {}, set(), [], []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            out.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in nodes:
        if v not in index:
            visit(v)
    return [c for c in out if len(c) > 1]


def grep_counts(texts):
    engine_core = sum(
        len(re.findall(r"\.core\(\)", t))
        for rel, t in texts.items()
        if rel == "engine.rs" or rel.startswith("engine" + os.sep)
    )
    impl_appcore = sorted(
        rel for rel, t in texts.items()
        if rel != "app.rs" and re.search(r"\bimpl\s+(?:crate::(?:app::)?)?AppCore\b", t)
    )
    # a match arm whose pattern is string literals only: "a" | "b" =>
    literal_arms = sum(
        len(re.findall(r'^\s*(?:Some\()?"[^"\n]*"\)?(?:\s*\|\s*(?:Some\()?"[^"\n]*"\)?)*\s*(?:if\b[^\n]*)?=>', t, re.M))
        for t in texts.values()
    )
    as_str = sum(len(re.findall(r"\bfn\s+as_str\s*\(", t)) for t in texts.values())
    return engine_core, impl_appcore, literal_arms, as_str


def main():
    tops, arrows, texts = read_imports()
    floors, allowed = read_floors()
    floor_of = {}
    for i, (_name, modules) in enumerate(floors):
        for module in modules:
            floor_of[module] = i
    unplaced = [t for t in tops if t not in floor_of]
    edges = set(arrows)
    cycles = sccs(tops, edges)
    upward = sorted(
        (a, b) for a, b in edges
        if a in floor_of and b in floor_of and floor_of[b] > floor_of[a]
    )
    engine_core, impl_appcore, literal_arms, as_str = grep_counts(texts)

    print(f"top-level modules: {len(tops)}")
    print(f"arrows between them: {len(edges)}")
    print(f"cycles (strongly connected, >1 module): {len(cycles)}")
    for c in cycles:
        files = sorted({f for (a, b), fs in arrows.items() if a in c and b in c for f in fs})
        print(f"  {len(c)} modules, {len(files)} files: {' '.join(c)}")
        if "--files" in sys.argv:
            for f in files:
                print(f"    {f}")
    print(f"upward arrows (against crates/core/floors.txt): {len(upward)}")
    for a, b in upward:
        mark = "" if (a, b) in allowed else "  (not allowed)"
        print(f"  {a} -> {b}  [{floors[floor_of[a]][0]} -> {floors[floor_of[b]][0]}]{mark}")
    if unplaced:
        print(f"modules on no floor: {' '.join(unplaced)}")
    print(f"allowed back-edges in floors.txt: {len(allowed)}")
    left = sccs(tops, {e for e in edges if e not in allowed})
    print(f"circles once the allowed arrows are set aside: {len(left)}")
    for c in left:
        print(f"  {' '.join(c)}")
    gone = sorted(e for e in allowed if e not in edges)
    for a, b in gone:
        print(f"  allow {a} -> {b}: the arrow is gone, delete its line")
    print(f"impl AppCore outside app.rs: {len(impl_appcore)} {' '.join(impl_appcore)}")
    print(f"engine .core() calls: {engine_core}")
    print(f"match arms on string literals (rough): {literal_arms}")
    print(f"hand-written fn as_str: {as_str}")
    if "--arrows" in sys.argv:
        for (a, b), fs in sorted(arrows.items()):
            print(f"  {a} -> {b} ({len(fs)} files)")


if __name__ == "__main__":
    main()
