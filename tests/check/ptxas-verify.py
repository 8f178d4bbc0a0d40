#!/usr/bin/env python3
"""ptxas-verify.py: confirm the expectations of tests/check/*.ptx with ptxas.

A file without "// error:" comments must assemble.  A file with them must
assemble once every such line is removed, and fail to assemble when any one
of them is put back.  Needs ptxas (PTXAS, PATH or /usr/local/cuda/bin);
without it, says so and exits 0.
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
    print(f"ptxas-verify: {bad} disagreements")
    return 1 if bad else 0

sys.exit(main())
