#!/usr/bin/env python3
"""Import circles between the source files of src/ (issue 51: dependencies run one way).

Reads every .rs file under src/, resolves the module paths it names (`crate::a::b`,
`super::x`, `self::x`, a child module's name, and `use` groups such as `crate::{a, b::c}`)
to the file that defines the longest existing module prefix, and prints every strongly
connected group of two or more files. Exit 1 if there is one, 0 if none.

A folder's mod.rs (and lib.rs) naming the files of its own folder is not counted: it is the
folder's door, declaring them and re-exporting what they hold, and its files may use the
types it defines. Anything else that goes round is a circle.

    scripts/import_cycles.py [SRC_DIR] [--graph]

--graph prints each file's dependencies as well. Only the standard library is used, so CI
can run it anywhere.
"""
import os
import re
import sys

WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def module_files(src):
    """Module path (tuple of names, () for the crate root) -> file path."""
    files = {}
    for root, _, names in os.walk(src):
        for name in names:
            if not name.endswith(".rs"):
                continue
            path = os.path.join(root, name)
            rel = os.path.relpath(path, src)[:-3].split(os.sep)
            if rel[-1] == "mod":
                rel = rel[:-1]
            if rel in (["lib"], ["main"]):
                rel = [] if rel == ["lib"] else ["<main>"]
            files[tuple(rel)] = path
    return files


LEXEMES = re.compile(
    r"//[^\n]*"  # a line comment
    r"|/\*.*?\*/"  # a block comment
    r'|\br(#*)".*?"\1'  # a raw string
    r'|"(?:\\.|[^"\\])*"'  # a string
    r"|'(?:\\.|[^'\\\n])'",  # a character (a lifetime has no closing quote)
    re.S,
)


def strip_comments_and_strings(text):
    """One pass, so that `//` in a string or `"` in a comment fools neither."""
    return LEXEMES.sub(lambda m: '""' if m.group(0)[0] in "r\"'" else " ", text)


def strip_test_modules(text):
    """Drops `#[cfg(test)] mod NAME { ... }`: tests may reach any layer to check this one."""
    out, at = "", 0
    for m in re.finditer(r"#\[cfg\(test\)\]\s*mod\s+\w+\s*\{", text):
        if m.start() < at:
            continue
        depth, i = 1, m.end()
        while depth and i < len(text):
            depth += {"{": 1, "}": -1}.get(text[i], 0)
            i += 1
        out += text[at : m.start()]
        at = i
    return out + text[at:]


def expand_use(tree):
    """`a::{b, c::{d, e}}` -> [a::b, a::c::d, a::c::e] (as lists of names)."""
    tree = tree.strip()
    if "{" not in tree:
        return [tree.split(" as ")[0].strip().split("::")]
    head, rest = tree.split("{", 1)
    inner = rest[: rest.rfind("}")]
    parts, depth, cur = [], 0, ""
    for ch in inner:
        if ch == "," and depth == 0:
            parts.append(cur)
            cur = ""
            continue
        depth += ch == "{"
        depth -= ch == "}"
        cur += ch
    parts.append(cur)
    prefix = [p for p in head.strip().rstrip(":").split("::") if p]
    out = []
    for part in parts:
        if part.strip():
            out += [prefix + sub for sub in expand_use(part)]
    return out


def paths_named(text):
    """Every path a file names: `use` trees and inline `x::y::z` paths."""
    found = []
    for tree in re.findall(r"\buse\s+([^;]+);", text):
        found += expand_use(tree)
    text = re.sub(r"\buse\s+[^;]+;", "", text)
    for m in re.finditer(r"\b(?:[A-Za-z_][A-Za-z0-9_]*::)+[A-Za-z_][A-Za-z0-9_]*", text):
        found.append(m.group(0).split("::"))
    return found


def resolve(path, here, files):
    """The file a path names from module `here`, or None (std, a crate, a local item)."""
    path = [p.strip() for p in path if p.strip()]
    path = path[:1] + [p for p in path[1:] if p != "self"]
    if not path:
        return None
    start, rest = path[0], path[1:]
    if start == "crate":
        base = ()
    elif start == "super":
        base = here[:-1]
        while rest and rest[0] == "super":
            base, rest = base[:-1], rest[1:]
    elif start == "self":
        base = here
    elif here + (start,) in files:
        base, rest = here + (start,), rest
    else:
        return None
    full = base + tuple(rest)
    for n in range(len(full), -1, -1):
        if full[:n] in files:
            # A name a door re-exports (`pub use x::Y` in lib.rs or a mod.rs) is the file's
            # that defines it.
            if n < len(full) and (full[:n], full[n]) in REEXPORTS:
                return files.get(REEXPORTS[(full[:n], full[n])], files[full[:n]])
            return files[full[:n]]
    return None


REEXPORTS = {}


def read_reexports(files):
    """(door module, name) -> module of the file it is re-exported from."""
    for module, path in files.items():
        if os.path.basename(path) not in ("mod.rs", "lib.rs"):
            continue
        with open(path, encoding="utf-8") as f:
            text = strip_comments_and_strings(f.read())
        for tree in re.findall(r"\bpub\s+use\s+([^;]+);", text):
            for named in expand_use(tree):
                named = [p.strip() for p in named if p.strip()]
                if named[0] == "crate":
                    source = tuple(named[1:-1])
                elif named[0] == "self":
                    source = module + tuple(named[1:-1])
                else:
                    source = module + tuple(named[:-1])
                while source and source not in files:
                    source = source[:-1]
                REEXPORTS[(module, named[-1])] = source


def door_to_own(path, target):
    """A folder's mod.rs (or lib.rs) naming a file inside its folder: the door declaring
    and re-exporting what it holds, not a dependency (its files may use its types)."""
    name = os.path.basename(path)
    if name not in ("mod.rs", "lib.rs"):
        return False
    return target.startswith(os.path.dirname(path) + os.sep)


def graph(src):
    files = module_files(src)
    read_reexports(files)
    edges = {}
    for module, path in files.items():
        here = () if module == ("<main>",) else module
        with open(path, encoding="utf-8") as f:
            text = strip_test_modules(strip_comments_and_strings(f.read()))
        deps = set()
        for named in paths_named(text):
            target = resolve(named, here, files)
            if target and target != path and not door_to_own(path, target):
                deps.add(target)
        edges[path] = deps
    return edges


def circles(edges):
    """Tarjan's strongly connected components of two or more files."""
    index, low, stack, on, out, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in edges[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                out.append(sorted(group))

    sys.setrecursionlimit(10000)
    for v in sorted(edges):
        if v not in index:
            visit(v)
    return out


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    src = args[0] if args else os.path.join(os.path.dirname(__file__), "..", "src")
    edges = graph(os.path.normpath(src))
    if "--graph" in sys.argv:
        for f in sorted(edges):
            print(f, "->", " ".join(sorted(edges[f])))
    found = circles(edges)
    for group in found:
        print("import circle:", " ".join(group))
    print(f"{len(edges)} files, {len(found)} import circles")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
