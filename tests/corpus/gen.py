#!/usr/bin/env python3
"""gen.py: the toolkit-header corpus.

Each tests/corpus/NAME.cu uses the device code of CUDA's own headers (CUB,
Thrust, cooperative groups, cuda_fp16/bf16/fp8.h, mma.h, libcu++'s atomics,
barriers and pipelines, the device runtime, clusters) the way applications
do.  This script compiles each into tests/corpus/ptx/NAME.ptx with
`nvcc -arch=sm_90 -ptx` (plus the flags below) and records ptxas's verdicts
in tests/corpus/verdicts.txt, which `make test` replays without CUDA:

    NAME.ptx KERNELS WHOLE COMPILE_ONLY [# first ptxas diagnostic]

WHOLE is `ptxas -arch=ARCH` (a whole program), COMPILE_ONLY is
`ptxas -arch=ARCH --compile-only` (relocatable code); each is ok or error.
ARCH is the module's .target.  KERNELS counts its .entry functions.

    python3 tests/corpus/gen.py            regenerate the PTX and the verdicts
    python3 tests/corpus/gen.py --verdicts re-record the verdicts of the committed PTX

Without nvcc (or ptxas) it says so, keeps the committed files and exits 0.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
PTX = os.path.join(HERE, "ptx")
VERDICTS = os.path.join(HERE, "verdicts.txt")

# NAME: (source, extra nvcc flags).
MODULES = [
    ("cub_block", "cub_block.cu", []),
    ("cub_device", "cub_device.cu", []),
    ("thrust", "thrust.cu", []),
    ("cg", "cg.cu", []),
    ("halfprec", "halfprec.cu", []),
    ("sync", "sync.cu", []),
    ("runtime", "runtime.cu", []),
    ("math", "math.cu", []),
    ("cluster", "cluster.cu", []),
    ("rdc", "rdc.cu", ["-rdc=true"]),
    ("wmma", "wmma.cu", []),
]


def tool(name):
    env = os.environ.get(name.upper())
    if env:
        return env
    p = shutil.which(name)
    if p:
        return p
    c = "/usr/local/cuda/bin/" + name
    return c if os.access(c, os.X_OK) else None


def arch_of(text):
    m = re.search(r"^\s*\.target\s+(sm_\w+)", text, re.M)
    return m.group(1) if m else "sm_90"


def verdict(ptxas, path, arch, extra):
    r = subprocess.run([ptxas, "-arch=" + arch] + extra + ["-o", os.devnull, path],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    if r.returncode == 0:
        return "ok", ""
    out = r.stdout.decode("utf-8", "replace").replace(path, "FILE")
    first = next((l for l in out.splitlines() if re.search(r"\b(error|fatal)\b", l)), "exit %d" % r.returncode)
    return "error", re.sub(r"^ptxas\s+", "", first.strip())


def record(ptxas):
    lines = []
    for name, _, _ in MODULES:
        path = os.path.join(PTX, name + ".ptx")
        text = open(path).read()
        arch = arch_of(text)
        kernels = len(re.findall(r"^\s*(?:\.visible\s+|\.weak\s+)?\.entry\s", text, re.M))
        whole, msg = verdict(ptxas, path, arch, [])
        part, msg2 = verdict(ptxas, path, arch, ["--compile-only"])
        line = "%s.ptx %d %s %s" % (name, kernels, whole, part)
        if msg or msg2:
            line += " # " + (msg or msg2)
        lines.append(line)
        print("gen.py: %s" % line)
    with open(VERDICTS, "w") as f:
        f.write("".join(l + "\n" for l in lines))


def main():
    nvcc, ptxas = tool("nvcc"), tool("ptxas")
    if not ptxas:
        print("gen.py: ptxas not found ($PTXAS, PATH, /usr/local/cuda/bin); keeping the committed corpus")
        return 0
    if "--verdicts" not in sys.argv[1:]:
        if not nvcc:
            print("gen.py: nvcc not found ($NVCC, PATH, /usr/local/cuda/bin); keeping the committed corpus")
            return 0
        os.makedirs(PTX, exist_ok=True)
        for name, src, flags in MODULES:
            out = os.path.join(PTX, name + ".ptx")
            tmp = tempfile.NamedTemporaryFile(dir=PTX, suffix=".tmp", delete=False).name
            cmd = [nvcc, "-arch=sm_90", "-ptx"] + flags + ["-o", tmp, os.path.join(HERE, src)]
            print("gen.py: " + " ".join(cmd[1:-3] + [src]))
            if subprocess.run(cmd).returncode != 0:
                os.unlink(tmp)
                print("gen.py: nvcc failed on %s" % src, file=sys.stderr)
                return 1
            os.replace(tmp, out)
    record(ptxas)
    return 0


if __name__ == "__main__":
    sys.exit(main())
