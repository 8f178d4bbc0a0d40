#!/usr/bin/env python3
"""gen.py OUT [MIN_LINES]: one large valid module made of copies of the
fixtures in tests/ptx, each copy's module-scope names given a suffix so that
they do not collide.  .extern declarations are kept once."""
import glob, os, re, sys

root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
out, min_lines = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 100000

HEADER = re.compile(r"^\s*(\.version|\.target|\.address_size)\b")
NAME_DECL = re.compile(r"^\s*(?:\.(?:visible|weak|common)\s+)?(?:\.entry|\.func)\s*(?:\([^)]*\)\s*)?([\w$]+)")
VAR_DECL = re.compile(r"^\s*(?:\.(?:visible|weak|common)\s+)?\.(?:global|const|shared)\b[^;=]*?([\w$%]+)\s*(?:\[[^\]]*\])*\s*(?:=|;)")

EXTERN = re.compile(r"^\.extern\b[^;]*;", re.M | re.S)

bodies = []
for path in sorted(glob.glob(os.path.join(root, "tests", "ptx", "*.ptx"))):
    if path.endswith((".debug.ptx", ".lineinfo.ptx")):
        continue    # its .file indices and DWARF labels cannot be repeated
    text = "\n".join(l for l in open(path).read().split("\n") if not HEADER.match(l))
    externs = EXTERN.findall(text)
    text = EXTERN.sub("", text)
    names = set()
    for l in text.split("\n"):
        m = NAME_DECL.match(l) or VAR_DECL.match(l)
        if m and not l.startswith("\t"):
            names.add(m.group(1))
    bodies.append((text, names, externs))

pattern = {}
def rename(text, names, k):
    if not names:
        return text
    key = frozenset(names)
    if key not in pattern:
        alt = "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
        pattern[key] = re.compile(r"(?<![\w$%.])(" + alt + r")(?![\w$.])")
    return pattern[key].sub(lambda m: m.group(1) + "_c" + k, text)

# sm_90a: the .sm_90a fixtures use its instructions; the .rdc fixtures
# call the device runtime, so the module is checked as relocatable code
# (ptxvm check -c, ptxas -c)
parts = [".version 9.0", ".target sm_90a", ".address_size 64", ""]
seen_ext = set()
for _, _, ext in bodies:
    for e in ext:
        if e not in seen_ext:
            seen_ext.add(e)
            parts.append(e)
n, k = len(parts), 0
while n < min_lines:
    for i, (text, names, _) in enumerate(bodies):
        t = rename(text, names, "%d_%d" % (k, i))
        parts.append(t)
        n += t.count("\n") + 1
    k += 1
open(out, "w").write("\n".join(parts) + "\n")
print("%s: %d lines, %d copies of %d fixtures" % (out, n, k, len(bodies)))
