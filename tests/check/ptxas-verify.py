#!/usr/bin/env python3
"""ptxas-verify.py [BUILD]: confirm with ptxas what the tests assume.

1. tests/check/*.ptx: a file without "// error:" comments must assemble; a
   file with them must assemble once every such line is removed, and fail
   to assemble when any one of them is put back.
2. `ptxvm fmt` keeps ptxas's verdict: the canonical text of every fixture,
   example and valid agreement case assembles too.

Needs ptxas (PTXAS, PATH or /usr/local/cuda/bin); without it, says so and
exits 0.
"""
import glob, os, shutil, subprocess, sys, tempfile

def find_ptxas():
    for p in (os.environ.get("PTXAS"), shutil.which("ptxas"), "/usr/local/cuda/bin/ptxas"):
        if p and os.path.exists(p):
            return p
    return None

def assembles(ptxas, text):
    with tempfile.NamedTemporaryFile("w", suffix=".ptx", delete=False) as f:
        f.write(text)
    try:
        r = subprocess.run([ptxas, "-arch=sm_90", "-o", os.devnull, f.name], capture_output=True, text=True)
        return r.returncode == 0, (r.stderr or "").strip().splitlines()[:1]
    finally:
        os.unlink(f.name)

def main():
    ptxas = find_ptxas()
    if not ptxas:
        print("ptxas-verify: ptxas not found; skipping (the expectations were recorded with ptxas 13.0)")
        return 0
    root = os.path.dirname(os.path.abspath(__file__))
    bad = 0
    for path in sorted(glob.glob(os.path.join(root, "*.ptx"))):
        lines = open(path).read().split("\n")
        marked = [i for i, l in enumerate(lines) if "// error:" in l]
        clean = "\n".join(l for i, l in enumerate(lines) if i not in marked)
        ok, msg = assembles(ptxas, clean)
        if not ok:
            print(f"{path}: ptxas rejects the file without its error lines: {msg}")
            bad += 1
        for i in marked:
            text = "\n".join(l for j, l in enumerate(lines) if j not in marked or j == i)
            ok, msg = assembles(ptxas, text)
            if ok:
                print(f"{path}:{i + 1}: ptxas accepts this line, which is marked as an error")
                bad += 1
    build = sys.argv[1] if len(sys.argv) > 1 else os.path.join(root, "..", "..", "build")
    ptxvm = os.path.join(build, "ptxvm")
    repo = os.path.join(root, "..", "..")
    inputs = sorted(glob.glob(os.path.join(repo, "tests", "ptx", "*.ptx")) +
                    glob.glob(os.path.join(repo, "examples", "box_blur.ptx")))
    texts = [(p, open(p).read()) for p in inputs]
    cases = open(os.path.join(repo, "tests", "ptxas-agree", "cases.txt")).read().split("\n@@ ")
    for c in cases:
        head, _, body = c.partition("\n")
        parts = head.lstrip("@ ").split()
        if len(parts) >= 2 and parts[1] == "ok":
            texts.append(("agree:" + parts[0], body))
    nfmt = 0
    for name, text in texts:
        r = subprocess.run([ptxvm, "fmt", "-"], input=text, capture_output=True, text=True)
        if r.returncode != 0:
            continue        # not valid for ptxvm: the agreement test reports it
        nfmt += 1
        ok, msg = assembles(ptxas, r.stdout)
        if not ok:
            print(f"{name}: ptxas rejects the output of ptxvm fmt: {msg}")
            bad += 1
    print(f"ptxas-verify: fmt output of {nfmt} modules checked")
    print(f"ptxas-verify: {bad} disagreements")
    return 1 if bad else 0

sys.exit(main())
