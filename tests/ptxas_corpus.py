"""ptxas_corpus.py: record ptxas verdicts for a corpus of PTX modules.

Shared by tests/ptxas-agree/gen.py and tests/isa-forms/gen.py: find ptxas,
run it on each module (two at a time), classify the outcome as ok, error or
crash, and write the corpus file the test runner reads.
"""
import os
import re
import shutil
import subprocess
import tempfile
from concurrent.futures import ThreadPoolExecutor


def find_ptxas():
    env = os.environ.get("PTXAS")
    if env:
        return env if os.path.isfile(env) and os.access(env, os.X_OK) else None
    p = shutil.which("ptxas")
    if p:
        return p
    for c in ["/usr/local/cuda/bin/ptxas"]:
        if os.path.exists(c) and os.access(c, os.X_OK):
            return c
    return None


CRASH_RE = re.compile(r"internal (compiler )?error|assertion|segmentation|"
                      r"core dumped|unexpected exception|\bAborted\b|bus error|"
                      r"floating point exception", re.I)


def run_one(ptxas, tmpdir, name, text, arch="sm_90"):
    fn = os.path.join(tmpdir, name.replace(":", "_") + ".ptx")
    with open(fn, "w") as f:
        f.write(text)
    try:
        # a case named *.compile_only.* is relocatable code: ptxas --compile-only
        extra = ["--compile-only"] if ".compile_only." in name else []
        r = subprocess.run([ptxas, "-arch=" + arch] + extra + ["-o", "/dev/null", fn],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           timeout=120)
        out = r.stdout.decode("utf-8", "replace")
        rc = r.returncode
    except subprocess.TimeoutExpired:
        return "crash", "timeout"
    finally:
        try:
            os.unlink(fn)
        except OSError:
            pass
    lines = []
    for l in out.splitlines():
        l = l.replace("ptxas " + fn + ", ", "").replace(fn, "FILE")
        if l.startswith("ptxas "):
            l = l[len("ptxas "):]
        l = re.sub(r"\s+", " ", l).strip()
        if l:
            lines.append(l)
    diag = [l for l in lines if "aborted due to errors" not in l]
    first = next((l for l in diag if re.search(r"\b(error|fatal)\b", l)), None)
    if first is None:
        first = diag[0] if diag else (lines[0] if lines else "")
    if rc < 0:
        return "crash", ("signal %d" % -rc) + ((": " + first) if first else "")
    if rc == 0:
        return "ok", ""
    if any(CRASH_RE.search(l) for l in diag):
        c = next(l for l in diag if CRASH_RE.search(l))
        return "crash", c
    return "error", first or ("exit %d" % rc)


def recorded(cases_txt):
    """{(name, text): (verdict, message)} of the cases in cases_txt."""
    out = {}
    if not os.path.exists(cases_txt):
        return out
    name = None
    with open(cases_txt) as f:
        for line in f:
            if line.startswith("@@ "):
                if name is not None:
                    out[(name, "".join(text))] = verdict
                head, _, msg = line[3:].rstrip("\n").partition(" # ")
                parts = head.split()
                name, verdict, text = parts[0], (parts[1], msg), []
            elif name is not None:
                text.append(line)
    if name is not None:
        out[(name, "".join(text))] = verdict
    return out


def record(cases, cases_txt, arch="sm_90"):
    """Runs ptxas on every (name, text) case, two at a time, and writes
    cases_txt as "@@ NAME VERDICT [# first diagnostic]" + text blocks."""
    ptxas = find_ptxas()
    if ptxas is None:
        print("gen.py: ptxas not found ($PTXAS, PATH, /usr/local/cuda/bin); cases.txt left unchanged")
        return 0
    # a case whose name and text are those of a recorded one keeps its
    # verdict (the same ptxas gives the same); PTXAS_FRESH=1 runs them all
    known = {} if os.environ.get("PTXAS_FRESH") else recorded(cases_txt)
    todo = [c for c in cases if (c[0], c[1]) not in known]
    tmpdir = tempfile.mkdtemp(prefix="ptxas-corpus-")
    try:
        with ThreadPoolExecutor(max_workers=2) as ex:
            # arch: the -arch of every case, or a function of the case name
            fresh = dict(zip(todo, ex.map(lambda c: run_one(ptxas, tmpdir, c[0], c[1],
                                                            arch(c[0]) if callable(arch) else arch), todo)))
    finally:
        shutil.rmtree(tmpdir, ignore_errors=True)
    print("gen.py: ptxas ran on %d cases, %d kept their recorded verdict" % (len(todo), len(cases) - len(todo)))
    results = [known.get((c[0], c[1])) or fresh[c] for c in cases]
    out = []
    counts = {}
    for (name, text), (verdict, msg) in zip(cases, results):
        counts[verdict] = counts.get(verdict, 0) + 1
        line = "@@ %s %s" % (name, verdict)
        if verdict != "ok":
            line += " # " + msg
        out.append(line + "\n")
        out.append(text)
    tmp = cases_txt + ".tmp"
    with open(tmp, "w") as f:
        f.write("".join(out))
    os.replace(tmp, cases_txt)
    print("gen.py: %d cases written to %s (%s)" % (
        len(cases), cases_txt, ", ".join("%s %d" % kv for kv in sorted(counts.items()))))
    return 0


def stats(cases_txt, group, label):
    """Prints a table of verdicts per group of case names (group(name))."""
    if not os.path.exists(cases_txt):
        print("gen.py: no cases.txt")
        return 1
    per, tot = {}, {}
    with open(cases_txt) as f:
        for line in f:
            if not line.startswith("@@ "):
                continue
            parts = line.split()
            d = per.setdefault(group(parts[1]), {})
            d[parts[2]] = d.get(parts[2], 0) + 1
            tot[parts[2]] = tot.get(parts[2], 0) + 1
    print("| %s | cases | ok | error | crash |" % label)
    print("| --- | ---: | ---: | ---: | ---: |")
    for cat in sorted(per):
        d = per[cat]
        print("| %s | %d | %d | %d | %d |" % (cat, sum(d.values()), d.get("ok", 0),
                                             d.get("error", 0), d.get("crash", 0)))
    print("| **total** | %d | %d | %d | %d |" % (sum(tot.values()), tot.get("ok", 0),
                                                tot.get("error", 0), tot.get("crash", 0)))
    return 0


def main(doc, generate, cases_txt, arch, group, label):
    """The command line both generators share: --out, --record, --list, --stats."""
    import argparse
    ap = argparse.ArgumentParser(description=doc.split("\n")[0])
    ap.add_argument("--out", metavar="DIR", help="write DIR/NAME.ptx for each case")
    ap.add_argument("--record", action="store_true", help="run ptxas and rewrite cases.txt")
    ap.add_argument("--list", action="store_true", help="print case names")
    ap.add_argument("--stats", action="store_true", help="summarise cases.txt by " + label)
    a = ap.parse_args()
    if a.stats:
        return stats(cases_txt, group, label)
    cases = generate()
    if not (a.out or a.record or a.list):
        ap.print_help()
        return 2
    if a.list:
        for n, _ in cases:
            print(n)
    if a.out:
        os.makedirs(a.out, exist_ok=True)
        for n, t in cases:
            with open(os.path.join(a.out, n + ".ptx"), "w") as f:
                f.write(t)
        print("gen.py: wrote %d modules to %s" % (len(cases), a.out))
    if a.record:
        return record(cases, cases_txt, arch)
    return 0
