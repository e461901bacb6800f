#!/usr/bin/env python3
"""The code's shape that issue 35 asks of the simulator core and the lock paths, checked on the sources.

1. No function over 70 lines (TigerBeetle's limit) in the simulator's core folders and the lock library.
2. Every non-trivial function (10 lines or more) of sim/core and lib/lockcheck/variants checks an invariant
   while running: it holds a LOCKCHECK_ASSERT (lib/resp/include/lockcheck/assert.hpp).
3. No plain assert(): it vanishes under -DNDEBUG.

A function is a brace block at namespace level (or directly inside a class defined in a .cpp) whose header
has a parameter list; its lines run from the header's first line to the closing brace. Comments and string
literals are blanked first, so a brace in either counts for nothing. Fails naming each function as
file:line, its length and its header.
Usage: code_shape_test.py <repo root>
"""
import pathlib
import re
import sys

MAX_LINES = 70
NON_TRIVIAL_LINES = 10
LENGTH_FOLDERS = ["sim/core", "sim/nemesis", "sim/workload", "lib/lockcheck", "lib/lockcheck/variants"]
ASSERT_FOLDERS = ["sim/core", "lib/lockcheck/variants"]
ALL_SOURCES = ["sim", "lib", "tools", "properties", "reports"]


def blank(text):
    """Comments, string and character literals replaced by spaces (newlines kept, so line numbers hold)."""
    out, i, n = [], 0, len(text)
    keep_newlines = lambda s: re.sub(r"[^\n]", " ", s)
    while i < n:
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i)); i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(keep_newlines(text[i:j])); i = j
        elif text.startswith('R"', i) and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            m = re.match(r'R"([^(\s]*)\(', text[i:])
            if not m:
                out.append(text[i]); i += 1; continue
            end = text.find(")" + m.group(1) + '"', i)
            j = n if end < 0 else end + len(m.group(1)) + 2
            out.append('""' + keep_newlines(text[i + 2:j])); i = j
        elif text[i] in "\"'":
            quote, j = text[i], i + 1
            while j < n and text[j] != quote and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            out.append(quote + " " * (min(j, n) - i - 1) + quote); i = j + 1
        else:
            out.append(text[i]); i += 1
    return "".join(out)


def functions(path):
    """(first line, last line, header) of each function in the file."""
    text = blank(path.read_text())
    found = []
    # A stack of open blocks: (kind, first line of the header, header text); kind: namespace, class, function, other.
    stack, header_start, header = [], None, ""
    line = 1
    for ch in text:
        if ch == "\n":
            line += 1
        inside_function = any(kind == "function" for kind, _, _ in stack)
        if ch == "{":
            if inside_function:
                stack.append(("other", line, ""))
            else:
                h = " ".join(header.split())
                if re.search(r"\bnamespace\b[^;]*$", h) or re.search(r'\bextern\s*""\s*$', h):
                    kind = "namespace"
                elif re.match(r"^(template\s*<.*>\s*)?(struct|class|union)\b", h) and "(" not in h.split("{")[0].split(":")[0]:
                    kind = "class"
                elif "(" in h and not re.search(r"=\s*$", h) and not h.startswith("enum"):
                    kind = "function"
                else:
                    kind = "other"
                stack.append((kind, header_start or line, h))
            header, header_start = "", None
        elif ch == "}":
            if stack:
                kind, first, h = stack.pop()
                if kind == "function":
                    found.append((first, line, h))
            header, header_start = "", None
        elif ch == ";" and not inside_function:
            header, header_start = "", None
        elif not inside_function:
            if header_start is None and not ch.isspace():
                header_start = line
            if header_start is not None:
                # A line that is a preprocessor directive or an access label is no part of a header.
                header += ch
                if ch == "\n" and re.search(r"(^|\n)\s*(#.*|(public|private|protected)\s*:)\s*\n$", header):
                    header, header_start = "", None
    return found


def main():
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".")
    problems = []
    for folder in LENGTH_FOLDERS:
        for path in sorted((root / folder).glob("*.cpp")):
            for first, last, header in functions(path):
                if last - first + 1 > MAX_LINES:
                    problems.append(f"{path.relative_to(root)}:{first}: {last - first + 1} lines (over {MAX_LINES}): {header[:100]}")
    for folder in ASSERT_FOLDERS:
        for path in sorted((root / folder).glob("*.cpp")):
            lines = path.read_text().split("\n")
            for first, last, header in functions(path):
                if last - first + 1 >= NON_TRIVIAL_LINES and "LOCKCHECK_ASSERT" not in "\n".join(lines[first - 1:last]):
                    problems.append(f"{path.relative_to(root)}:{first}: {last - first + 1} lines, no LOCKCHECK_ASSERT: {header[:100]}")
    for top in ALL_SOURCES:
        for path in sorted((root / top).rglob("*")):
            if path.suffix not in (".cpp", ".hpp", ".h", ".cc") or "/test/" in str(path) or "/fuzz/" in str(path):
                continue
            for number, text in enumerate(blank(path.read_text()).split("\n"), 1):
                if re.search(r"(?<![\w:])assert\s*\(", text):
                    problems.append(f"{path.relative_to(root)}:{number}: a plain assert() (vanishes under -DNDEBUG; use LOCKCHECK_ASSERT)")
    for problem in problems:
        print(problem)
    print(f"code_shape: {len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
