#!/usr/bin/env python3
"""The longest functions of src/ (tests included), in lines from the `fn` line to its
closing brace: `python3 scripts/longest_fn.py [--top N]`.

A function starts at a line whose code (comments stripped) holds the word `fn` followed
by a name and ends where the braces opened after it balance again; braces inside string
and character literals and comments are not counted. Declarations without a body (trait
methods ending in `;`) are skipped. Closures are part of the function they are in.
"""

import argparse
import pathlib
import re

FN = re.compile(r"\bfn\s+([A-Za-z_][A-Za-z0-9_]*)")


def code_of(line, in_block):
    """The line without comments and literals' contents; and whether a block comment is
    still open at its end."""
    out = []
    i = 0
    while i < len(line):
        if in_block:
            end = line.find("*/", i)
            if end < 0:
                return "".join(out), True
            i, in_block = end + 2, False
            continue
        c = line[i]
        if line.startswith("//", i):
            break
        if line.startswith("/*", i):
            in_block, i = True, i + 2
            continue
        if c == '"':
            j = i + 1
            while j < len(line) and line[j] != '"':
                j += 2 if line[j] == "\\" else 1
            out.append('""')
            i = j + 1
            continue
        if c == "'" and re.match(r"'(\\.|[^\\'])'", line[i:]):
            i += len(re.match(r"'(\\.|[^\\'])'", line[i:]).group(0))
            continue
        out.append(c)
        i += 1
    return "".join(out), in_block


def functions(path):
    """(length, name, first line) of every function with a body in `path`."""
    lines = path.read_text().splitlines()
    codes, in_block = [], False
    for line in lines:
        code, in_block = code_of(line, in_block)
        codes.append(code)
    found = []
    for start, code in enumerate(codes):
        m = FN.search(code)
        if not m:
            continue
        depth, opened = 0, False
        for n in range(start, len(codes)):
            text = codes[n] if n > start else codes[n][m.end():]
            for c in text:
                if c == "{":
                    depth, opened = depth + 1, True
                elif c == "}":
                    depth -= 1
                elif c == ";" and not opened and depth == 0:
                    break
            else:
                if opened and depth == 0:
                    found.append((n - start + 1, m.group(1), start + 1))
                    break
                continue
            break
    return found


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--top", type=int, default=5)
    parser.add_argument("--root", default=pathlib.Path(__file__).parent.parent / "src")
    args = parser.parse_args()
    rows = []
    for path in sorted(pathlib.Path(args.root).rglob("*.rs")):
        rows += [(n, f"{path.relative_to(args.root)}:{line}", name)
                 for n, name, line in functions(path)]
    rows.sort(key=lambda r: (-r[0], r[1]))
    for n, where, name in rows[: args.top]:
        print(f"{n:5} {where} {name}")


if __name__ == "__main__":
    main()
