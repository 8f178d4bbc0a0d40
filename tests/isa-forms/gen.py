#!/usr/bin/env python3
"""Generate the "ISA forms" corpus: every row of src/isa/ops.def, checked by ptxas.

For every row F(op, "form", "operands", ptx, sm) of src/isa/ops.def this
expands the form into concrete instructions (typed registers per the operand
spec), wraps them in small complete modules, and records the verdict of

    ptxas -arch=sm_90 -o /dev/null CASE.ptx

(-arch=sm_90a for the rows of that target only, SMA(90) in ops.def, whose
cases are named *.sm_90a*; the test runner checks those for sm_90a too)

in cases.txt next to this script, in the format of tests/ptxas-agree:

    @@ NAME VERDICT[ # first diagnostic, file path removed]
    <module text>

Kinds of case (the first part of NAME):

  F  forms: each optional element present and absent, each word of each set at
     least once, each optional operand present and absent.  Every module is
     emitted twice: at the row's own gate raised to PTX 7.8 / sm_75, and at the
     default .version 9.0 / .target sm_90 (when the row's target gate allows).
     Several instructions share a module only when they are expected to be
     accepted together; instructions expected to be rejected (a rule the row
     format cannot express, see expect_reject()) get a module of their own
     (NAME F.op.K.x.<modifiers>...), so every module has one verdict.
  G  gates: for rows gated above PTX 7.8 (or above sm_75), the row's
     instructions that no other row accepts there, at the PTX version (or
     target) just below the gate; every modifier word among them at least once.
  N  negatives per mnemonic: wrong register type / size, missing type,
     missing required modifier, unknown modifier, wrong operand count.

The verdict always comes from ptxas, never from the expectation.

Usage:
    gen.py --out DIR      write DIR/NAME.ptx for every case
    gen.py --record       regenerate, run ptxas on each case (2 at a time) and
                          rewrite cases.txt.  Without ptxas this says so and
                          exits 0, leaving cases.txt alone.  ptxas is $PTXAS if
                          set, else from PATH, else /usr/local/cuda/bin/ptxas.
    gen.py --list         print the case names
    gen.py --stats        summarise the committed cases.txt per category

Python 3 standard library only; the output is deterministic.
"""

import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import ptxas_corpus  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
ISA = os.path.join(ROOT, "src", "isa")
CASES_TXT = os.path.join(HERE, "cases.txt")


def ARCH(name):
    """ptxas -arch for a case: sm_90a for the arch-specific rows' (named *.sm_90a*)."""
    return "sm_90a" if ".sm_90a" in name else "sm_90"


# ---------------------------------------------------------------------------
# table parsing
# ---------------------------------------------------------------------------


def _strip_comments(s):
    return re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group(0).count("\n"), s, flags=re.S)


def _read(name):
    with open(os.path.join(ISA, name)) as f:
        return _strip_comments(f.read())


# A row of an arch-specific target (SMA(90) in ops.def: sm_90a) has sm
# ARCH_A + 90; a header (version, sm) with such an sm targets sm_90a, and a
# case named *.sm_90a is recorded with ptxas -arch=sm_90a.
ARCH_A = 1000


def load_tables():
    types = {}
    for m in re.finditer(r"T\((\w+),\s*(\d+),\s*(\w)\)", _read("types.def")):
        types[m.group(1)] = (int(m.group(2)), m.group(3))
    mods = set()
    for m in re.finditer(r'M\(\s*(\w+)\s*,\s*"([^"]*)"\s*\)', _read("mods.def")):
        mods.add(m.group(2))
    groups = {}
    for m in re.finditer(r'G\(\s*([A-Z][A-Z0-9_]*)\s*,\s*"([^"]*)"\s*\)', _read("groups.def")):
        groups[m.group(1)] = m.group(2).split()
    rows = []
    for ln, line in enumerate(_read("ops.def").split("\n"), 1):
        line = line.strip()
        if not line or re.fullmatch(r"OP\(\w+\)", line):
            continue
        m = re.fullmatch(r'F\(\s*(\w+)\s*,\s*"([^"]*)"\s*,\s*"([^"]*)"\s*,\s*(\d+)\s*,\s*(\d+|SMA\(\d+\)|GONE\(\d+,\s*\d+\))\s*\)', line)
        if not m:
            raise SystemExit("ops.def:%d: cannot parse %r" % (ln, line))
        op, form, opnds, ptx, sm = m.groups()
        # GONE(sm, ptx): a form that later targets lost, which exists only
        # below this corpus's floor (sm_1x targets); tests/ptxas-agree's
        # G.* cases cover it
        if sm.startswith("GONE"):
            continue
        # SMA(90): only the arch-specific target sm_90a, written 1090 here
        sm = ARCH_A + int(sm[4:-1]) if sm.startswith("SMA") else int(sm)
        els = parse_form(form, mods, types, groups, ln)
        ops = parse_operands(opnds, els, types, ln)
        rows.append(dict(ln=ln, op=op, form=form, opnds=opnds, ptx=int(ptx),
                         sm=sm, els=els, ops=ops))
    return types, groups, rows


def parse_form(form, mods, types, groups, ln):
    els = []
    i = 1 if form.startswith("^") else 0     # '^': the first element leads (ignored here)
    while i < len(form):
        opt = form[i] == "{"
        if opt:
            i += 1
        if form[i] != ".":
            raise SystemExit("ops.def:%d: bad form %r" % (ln, form))
        i += 1
        gname = None
        if form[i] == "{":
            j = form.index("}", i)
            ws = form[i + 1:j].split(",")
            i = j + 1
        else:
            m = re.match(r"[A-Za-z0-9_:]+", form[i:])
            tok = m.group(0)
            i += len(tok)
            if re.fullmatch(r"[A-Z][A-Z0-9_]*", tok) and tok in groups:
                ws, gname = groups[tok], tok
            else:
                ws = [tok]
        for w in ws:
            if w not in mods and w not in types:
                raise SystemExit("ops.def:%d: unknown word %s" % (ln, w))
        if opt:
            if form[i] != "}":
                raise SystemExit("ops.def:%d: unbalanced { in %r" % (ln, form))
            i += 1
        els.append(dict(words=list(ws), opt=opt, group=gname,
                        istype=all(w in types for w in ws)))
    slot = 0
    for e in els:
        if e["istype"]:
            e["slot"] = slot
            slot += 1
    return els


def parse_operands(s, els, types, ln):
    if s == "":
        return []
    nslots = sum(1 for e in els if e["istype"])
    out = []
    if s == "*":
        return [dict(kind="*", type=None, relaxed=False, opt=False)]
    for p in s.split(","):
        m = re.fullmatch(r"([daripPqmlf*])((?:\.\w+)|\d)?(~)?(\?)?", p)
        if not m:
            raise SystemExit("ops.def:%d: bad operand %r" % (ln, p))
        k, t, rel, opt = m.groups()
        if t is None:
            t = 0 if nslots else None
        elif t.startswith("."):
            t = t[1:]
        else:
            t = int(t)
        out.append(dict(kind=k, type=t, relaxed=bool(rel), opt=bool(opt)))
    return out


TYPES, GROUPS, ROWS = load_tables()

# ---------------------------------------------------------------------------
# versions and targets
# ---------------------------------------------------------------------------

# targets usable with ptxas -arch=sm_90 (and their minimum PTX version), in order
TARGETS = [(10, 10), (13, 12), (20, 20), (30, 30), (35, 31), (50, 40), (52, 41),
           (53, 42), (60, 50), (61, 50), (70, 60), (72, 61), (75, 63), (80, 70),
           (86, 71), (87, 74), (89, 78), (90, 78), (100, 86)]
TMIN = dict(TARGETS)
VERSIONS = [10, 11, 12, 13, 14, 15, 20, 21, 22, 23, 30, 31, 32, 40, 41, 42, 43,
            50, 51, 60, 61, 62, 63, 64, 65, 70, 71, 72, 73, 74, 75, 76, 77, 78,
            80, 81, 82, 83, 84, 85, 86, 87, 88, 90]
FLOOR_PTX, FLOOR_SM = 78, 75
DEFAULT = (90, 90)
DEFAULT_A = (90, ARCH_A + 90)
TMIN[ARCH_A + 90] = 80


def row_valid_at(r, hdr):
    """Do a row's gates admit header hdr?  An arch-specific row only its own
    target; other rows take sm_90a as sm_90."""
    sm = hdr[1]
    if r["sm"] > ARCH_A:
        return r["ptx"] <= hdr[0] and sm == r["sm"]
    return r["ptx"] <= hdr[0] and r["sm"] <= (sm - ARCH_A if sm > ARCH_A else sm)


def vstr(v):
    return "%d.%d" % (v // 10, v % 10)


def target_at_least(sm):
    for t, _ in TARGETS:
        if t >= sm:
            return t
    return None


def target_below(sm):
    prev = None
    for t, _ in TARGETS:
        if t >= sm:
            return prev
        prev = t
    return prev


def version_below(v):
    prev = None
    for x in VERSIONS:
        if x >= v:
            return prev
        prev = x
    return prev


def own_header(row):
    if row["sm"] > ARCH_A:
        return (max(row["ptx"], FLOOR_PTX, TMIN[row["sm"]]), row["sm"])
    sm = target_at_least(max(row["sm"], FLOOR_SM))
    return (max(row["ptx"], FLOOR_PTX, TMIN[sm]), sm)


# ---------------------------------------------------------------------------
# registers and modules
# ---------------------------------------------------------------------------

REGTYPE = {"bf16": "b16", "bf16x2": "b32", "tf32": "b32", "e4m3x2": "b16",
           "e5m2x2": "b16", "u16x2": "b32", "s16x2": "b32"}
REG_ORDER = ["pred", "b8", "u8", "s8", "b16", "u16", "s16", "f16", "b32", "u32",
             "s32", "f32", "f16x2", "b64", "u64", "s64", "f64", "b128"]


class Regs:
    """Allocates registers for one instruction; Module keeps the maxima."""

    def __init__(self):
        self.n = {}

    def get(self, t):
        t = REGTYPE.get(t, t or "b32")
        i = self.n.get(t, 0)
        self.n[t] = i + 1
        return "%%%s_%d" % (t, i)


class Inst:
    def __init__(self, text, regs, needs):
        self.text = text
        self.regs = regs      # type -> count
        self.needs = needs    # set of declaration names



# What a module declares for each thing its instruction needs.
NEED_DECLS = [
    ("tex", ".global .texref tex0;"),
    ("smp", ".global .samplerref smp0;"),
    ("surf", ".global .surfref surf0;"),
    ("cvar", ".const .align 16 .b8 cvar[64];"),
    ("gvar", ".global .align 16 .b8 gvar[64];"),
    ("svar", ".shared .align 16 .b8 svar[64];"),
    ("fn", ".func fn()\n{\n\tret;\n}"),
]

def module(insts, ver, sm):
    needs = set()
    regs = {}
    for ins in insts:
        needs |= ins.needs
        for t, n in ins.regs.items():
            regs[t] = max(regs.get(t, 0), n)
    tgt = "sm_%da" % (sm - ARCH_A) if sm > ARCH_A else "sm_%d" % sm
    if "smp" in needs:
        tgt += ", texmode_independent"
    s = ".version %s\n.target %s\n.address_size 64\n\n" % (vstr(ver), tgt)
    decl = [text for need, text in NEED_DECLS if need in needs]
    if decl:
        s += "\n".join(decl) + "\n\n"
    s += ".visible .entry k(%s)\n{\n" % (".param .align 16 .b8 kp[64]" if "kp" in needs else "")
    for t in REG_ORDER:
        if t in regs:
            s += "\t.reg .%s %%%s_<%d>;\n" % (t, t, regs[t])
    if "lp" in needs:
        s += "\t.param .align 16 .b8 lp[64];\n"
    if "bt" in needs:
        s += "BT:\t.branchtargets LBL;\n"
    s += "\n"
    for ins in insts:
        s += "\t" + ins.text + "\n"
    if "lbl" in needs:
        s += "LBL:\n"
    s += "\tret;\n}\n"
    return s


# ---------------------------------------------------------------------------
# instruction builder
# ---------------------------------------------------------------------------

SPACES = ("global", "shared", "local", "const", "param", "shared::cta", "shared::cluster")
GEOMN = {"1d": 1, "2d": 2, "3d": 4, "a1d": 2, "a2d": 4, "cube": 4, "acube": 4,
         "2dms": 4, "a2dms": 4}
IMMVAL = {"b16": "1", "b32": "1", "b64": "1", "u8": "1", "u16": "1", "u32": "1",
          "u64": "1", "s8": "1", "s16": "1", "s32": "1", "s64": "1",
          "f32": "0f3F800000", "f64": "0d3FF0000000000000"}
IMM = {"lop3": "0x96", "alloca": "8", "pmevent": "1", "fence": "128", "setmaxnreg": "240",
       "applypriority": "128", "discard": "128"}


class Variant:
    """Chosen word per form element (None = absent) plus operand options."""

    def __init__(self, words, drop_opt=False, pq=False, notq=False, maddr=False, imm=False):
        self.words = tuple(words)
        self.drop_opt = drop_opt   # leave out the generic optional operand
        self.pq = pq               # P operand written p|q
        self.notq = notq           # q operand written !p
        self.maddr = maddr         # memory operands as [variable+16] / [reg+16]
        self.imm = imm             # last scalar source operand as an immediate

    def flags(self):
        return "".join(x for x, f in ((".noopt", self.drop_opt), (".pq", self.pq),
                                      (".notq", self.notq), (".addr", self.maddr),
                                      (".imm", self.imm)) if f)


def build(row, v, regtype_override=None):
    """Return Inst for row/variant.  regtype_override: (operand index, type)."""
    op = row["op"]
    words = [w for w in v.words if w]
    slots = [w for e, w in zip(row["els"], v.words) if e["istype"]]
    mtext = "".join("." + w for w in words)
    vec = next((int(w[1]) for w in words if w in ("v2", "v4", "v8")), 0)
    R = Regs()
    needs = set()
    space = next((w for w in words if w in SPACES), None)
    hint = "L2::cache_hint" in words
    # the state space of each memory operand, in order: cp.* names one per
    # operand (dst then src); an mbarrier operand is in shared memory
    if op == "cp":
        mspaces = [w for w in words if w in SPACES]
    else:
        mspaces = [space] * sum(1 for o in row["ops"] if o["kind"] == "m")
    if op in ("cp", "st", "red") and "mbarrier::complete_tx::bytes" in words:
        mspaces = (mspaces + [None, None, None])[:2] + ["shared"] if op == "cp" else [space, "shared"]
    if op == "cp" and "tensor" in words:
        mspaces = ["shared", "shared"]  # the tensor map is a '*' operand; the others are shared
    form_has_hint = any("L2::cache_hint" in e["words"] for e in row["els"])

    def T(o):
        t = o["type"]
        if isinstance(t, int):
            return slots[t]
        return t

    def vecr(t, n):
        return "{" + ", ".join(R.get(t) for _ in range(n)) + "}"

    imm_idx = None
    if v.imm:
        for idx, o in enumerate(row["ops"]):
            if o["kind"] == "a" and not o["opt"] and T(o) in IMMVAL and not (
                    vec and isinstance(o["type"], int)):
                imm_idx = idx
    ops = []
    for idx, o in enumerate(row["ops"]):
        k = o["kind"]
        t = T(o)
        if idx == imm_idx:
            # barrier numbers are 0..15 but thread counts multiples of the
            # warp size; bulk copy sizes are multiples of 16
            first_a = [i for i, x in enumerate(row["ops"]) if x["kind"] == "a"][0]
            val = IMMVAL[t]
            if op in ("bar", "barrier") and idx != first_a:
                val = "32"
            elif op == "cp":
                val = "16"
            ops.append(val)
            continue
        if o["opt"]:
            if form_has_hint:
                if not hint:
                    continue
            elif v.drop_opt:
                continue
        if regtype_override and regtype_override[0] == idx:
            ops.append(R.get(regtype_override[1]))
            continue
        if k == "d" and op == "mbarrier" and "shared::cluster" in words:
            ops.append("_")
        elif k in "dar":
            if vec and isinstance(o["type"], int):
                ops.append(vecr(t, vec))
            else:
                ops.append(R.get(t))
        elif k == "i":
            val = IMM.get(op, "1")
            if op == "mma" or (op == "wgmma" and "sp" in words and idx == 4):
                val = "0"       # mma.sp's and wgmma.sp's sparsity selector: 0 fits every shape
            if op == "cp":
                val = "0" if "wait_group" in words else "16"
            if op == "tensormap" and "cp_fenceproxy" in words:
                val = "128"     # the size of a tensor map, the only one
            ops.append(val)
        elif k == "P":
            ops.append(R.get("pred") + ("|" + R.get("pred") if v.pq else ""))
        elif k == "q":
            ops.append(("!" if v.notq else "") + R.get("pred"))
        elif k == "p":
            ops.append(R.get("pred"))
        elif k == "m" and v.maddr:
            sp = mspaces[0] if mspaces else None
            mspaces = mspaces[1:]
            var = {"shared": "svar", "shared::cta": "svar", "shared::cluster": "svar",
                   "global": "gvar", "const": "cvar"}.get(sp)
            if sp == "param":
                var = "kp" if op == "ld" else "lp"
            if var:
                ops.append("[%s+16]" % var)
                needs.add(var)
            else:
                ops.append("[" + R.get("b64") + "+16]")
        elif k == "m":
            if space == "const" and op == "ld":
                ops.append("[cvar]")
                needs.add("cvar")
            elif space == "param" and op == "ld":
                ops.append("[kp]")
                needs.add("kp")
            elif space == "param" and op == "st":
                ops.append("[lp]")
                needs.add("lp")
            else:
                ops.append("[" + R.get("b64") + "]")
        elif k == "l":
            ops.append("LBL")
            needs.add("lbl")
        elif k == "f":
            ops.append("fn")
            needs.add("fn")
        elif k == "*":
            ops.append(star(row, words, slots, idx, R, needs))
    text = ("%s%s %s;" % (op, mtext, ", ".join(ops))).replace(" ;", ";")
    return Inst(text, dict(R.n), needs)


def star(row, words, slots, idx, R, needs):
    op = row["op"]
    if op == "mov":
        t = slots[0]
        n = {"b16": "b8", "b32": "b16", "b64": "b32", "b128": "b64"}[t]
        return "{" + ", ".join(R.get(n) for _ in range(2)) + "}"
    if op in ("shfl", "match", "elect", "lop3"):
        return R.get("b32") + "|" + R.get("pred")
    if op in ("suld", "sust", "sured"):
        needs.add("surf")
        g = next(w for w in words if w in GEOMN)
        cs = [R.get("s32") for _ in range(GEOMN[g])]
        return "[surf0, {" + ", ".join(cs) + "}]"
    if op == "suq":
        needs.add("surf")
        return "[surf0]"
    if op == "txq":
        if any(w in words for w in ("force_unnormalized_coords", "filter_mode", "addr_mode_0",
                                    "addr_mode_1", "addr_mode_2")):
            needs.add("smp")
            return "[smp0]"
        needs.add("tex")
        return "[tex0]"
    if op == "cp" and "tensor" in words:
        # the first '*' is [tensor-map, {coordinates}], a second the im2col offsets
        n = int(next(w for w in words if w in ("1d", "2d", "3d", "4d", "5d"))[0])
        first = idx == min(i for i, o in enumerate(row["ops"]) if o["kind"] == "*")
        if first:
            return "[" + R.get("b64") + ", {" + ", ".join(R.get("b32") for _ in range(n)) + "}]"
        return "{" + ", ".join(R.get("b16") for _ in range(n - 2)) + "}"
    if op in ("istypep", "isspacep", "cp"):
        return R.get("b64")
    if op == "brx":
        needs.add("bt")
        needs.add("lbl")
        return "BT"
    if op == "call":
        needs.add("fn")
        return "fn"
    if op == "vmad":
        return R.get(slots[idx - 1])
    if op in ("ldmatrix", "stmatrix"):
        n = {"x1": 1, "x2": 2, "x4": 4}[next(w for w in words if w in ("x1", "x2", "x4"))]
        return "{" + ", ".join(R.get("b32") for _ in range(n)) + "}"
    if op == "mma":
        # fragments: the registers each lane holds of D, A, B, C (src/isa/mma.c)
        shape = next(w for w in words if re.fullmatch(r"m\d+n\d+k\d+", w))
        M, N, K = map(int, re.fullmatch(r"m(\d+)n(\d+)k(\d+)", shape).groups())
        et = ("f16", "bf16", "tf32", "f32", "f64", "e4m3", "e5m2", "s8", "u8", "s4", "u4", "b1", "s32")
        ts = [w for w in words if w in et]
        which = ts[idx]
        bits = {"f16": 16, "bf16": 16, "e4m3": 8, "e5m2": 8, "s8": 8, "u8": 8, "s4": 4, "u4": 4,
                "b1": 1, "f64": 64}.get(which, 32)
        if shape == "m8n8k4" and ts[1] == "f16":
            elems = 4 if idx in (1, 2) else 8
        else:
            # mma.sp: A holds the kept half of each row
            ka = K // 2 if any(w.startswith("sp") for w in words) else K
            elems = (K if idx == 2 else M) * (ka if idx == 1 else N) // 32
        regs = elems * bits // (64 if bits == 64 else 32)
        rt = "f64" if bits == 64 else "f32" if which == "f32" else "s32" if which == "s32" else "b32"
        return "{" + ", ".join(R.get(rt) for _ in range(regs)) + "}"
    if op == "wgmma":
        # one warp's fragments: d (n/2 elements), a from registers (4)
        shape = next(w for w in words if re.fullmatch(r"m\d+n\d+k\d+", w))
        N = int(re.fullmatch(r"m64n(\d+)k\d+", shape).group(1))
        if idx == 1:
            return "{" + ", ".join(R.get("b32") for _ in range(4)) + "}"
        d = slots[0]
        n, rt = (N // 4, "f16x2") if d == "f16" else (N // 2, d)
        return "{" + ", ".join(R.get(rt) for _ in range(n)) + "}"
    if op == "wmma":
        # wmma's fragments: the manual's register counts (src/isa/mma.c)
        shape = next(w for w in words if re.fullmatch(r"m\d+n\d+k\d+", w))
        M, N, K = map(int, re.fullmatch(r"m(\d+)n(\d+)k(\d+)", shape).groups())
        et = ("f16", "bf16", "tf32", "f32", "f64", "s8", "u8", "s4", "u4", "b1", "s32")
        ts = [w for w in words if w in et]
        if "mma" in words:
            if len(ts) == 2:
                ts = [ts[0], "f16", "f16", ts[1]]
            opi, which = idx, ts[idx]
        else:
            opi = {"a": 1, "b": 2, "c": 3}.get(next((w for w in words if w in ("a", "b", "c")), ""), 0)
            which = ts[0]
        bits = {"f16": 16, "bf16": 16, "s8": 8, "u8": 8, "s4": 4, "u4": 4, "b1": 1, "f64": 64}.get(which, 32)
        rows, cols = (K if opi == 2 else M), (K if opi == 1 else N)
        if opi in (1, 2) and which == "f16":
            regs = 8
        else:
            regs = rows * cols // 32 * bits // (64 if bits == 64 else 32)
        rt = "f64" if bits == 64 else "f32" if which == "f32" else "s32" if which == "s32" else "b32"
        return "{" + ", ".join(R.get(rt) for _ in range(regs)) + "}"
    if op in ("tex", "tld4"):
        needs.add("tex")
        g = next(w for w in words if w in GEOMN)
        ct = slots[-1]
        if "f16x2" in words:
            d = "{" + R.get("f16x2") + ", " + R.get("f16x2") + "}"
        elif "f16" in words:
            d = "{" + ", ".join(R.get("f16") for _ in range(4)) + "}"
        else:
            d = "{" + ", ".join(R.get(slots[0]) for _ in range(4)) + "}"
        cs = [R.get(ct) for _ in range(GEOMN[g])]
        if g in ("a1d", "a2d", "acube", "a2dms"):
            cs[0] = R.get("u32")
        s = d + ", [tex0, {" + ", ".join(cs) + "}]"
        if "level" in words:
            s += ", " + R.get(ct)
        if "grad" in words:
            n = {"1d": 1, "2d": 2, "3d": 4, "a1d": 1, "a2d": 2, "cube": 4, "acube": 4}.get(g, 2)
            s += ", {" + ", ".join(R.get("f32") for _ in range(n)) + "}"
            s += ", {" + ", ".join(R.get("f32") for _ in range(n)) + "}"
        return s
    raise SystemExit("no '*' rule for " + op)


# ---------------------------------------------------------------------------
# expectations (used only to decide which instructions share a module)
# ---------------------------------------------------------------------------

VEC_LIMITED = ("ld", "st", "ldu", "atom", "red", "suld", "sust", "sured")


def expect_reject(row, v, hdr=DEFAULT):
    """Rules the row format cannot express (see the ops.def header and the
    ptxas findings): such instructions get a module of their own."""
    op = row["op"]
    words = [w for w in v.words if w]
    vec = next((int(w[1]) for w in words if w in ("v2", "v4", "v8")), 0)
    if vec and op in VEC_LIMITED:
        ts = [w for w in words if w in TYPES]
        if ts and TYPES[ts[-1]][0] * vec > 16:
            return "vector wider than 128 bits"
    if op == "cvt" and "sat" in words:
        ts = [w for w in words if w in TYPES]
        if len(ts) == 2 and ts[0] == ts[1] and TYPES[ts[0]][1] in "US":
            return "cvt.sat between identical integer types"
    if op in ("vote", "shfl") and "sync" not in words and hdr[0] >= 64 and hdr[1] >= 70:
        return "vote/shfl without .sync on sm_70+ at PTX 6.4+"
    if v.imm and re.fullmatch(r"v\w+[24]", op):
        return "SIMD video instructions take no immediate operands"
    if op == "cvta" and "u32" in words:
        return "32-bit address under .address_size 64"
    if op == "setp" and v.pq and ("f16" in words or "bf16" in words):
        return "p|q destination with a scalar f16/bf16 setp"
    return None


# ---------------------------------------------------------------------------
# variants of a row
# ---------------------------------------------------------------------------

def choices(e):
    return ([None] if e["opt"] else []) + list(e["words"])


def base_words(row):
    return [None if e["opt"] else e["words"][0] for e in row["els"]]


def good_base(row):
    """The base form (optional elements absent, first word of each set), or,
    when a rule rejects it (cvta.u32), the nearest form no rule rejects."""
    base = base_words(row)
    if not expect_reject(row, Variant(base)):
        return base
    for i, e in enumerate(row["els"]):
        for c in choices(e):
            w = list(base)
            w[i] = c
            if not expect_reject(row, Variant(w)):
                return w
    return base


def row_groups(row):
    """[(group name, [Variant])]: the base form and each element's choices
    (group eN varies element N), 'all' (every optional element present, first
    and last word of each set), 'opnd' (operand forms: optional operand left
    out, p|q destination, !p source)."""
    els = row["els"]
    base = good_base(row)
    groups = []
    first = True
    for i, e in enumerate(els):
        cs = choices(e)
        if len(cs) < 2:
            continue
        vs = []
        if first:
            vs.append(Variant(base))
            first = False
        for c in cs:
            w = list(base)
            w[i] = c
            vs.append(Variant(w))
        groups.append(("e%d" % i, vs))
    if first:
        groups.append(("base", [Variant(base)]))
    allfirst = [e["words"][0] for e in els]
    alllast = [e["words"][-1] for e in els]
    groups.append(("all", [Variant(allfirst), Variant(alllast)]))
    ov = []
    kinds = [o["kind"] for o in row["ops"]]
    form_has_hint = any("L2::cache_hint" in e["words"] for e in els)
    if any(o["opt"] for o in row["ops"]) and not form_has_hint:
        ov.append(Variant(base, drop_opt=True))
    if "P" in kinds:
        ov.append(Variant(base, pq=True))
        ov.append(Variant(alllast, pq=True))
    if "q" in kinds:
        ov.append(Variant(base, notq=True))
    if ov:
        groups.append(("opnd", ov))
    # one module each: address forms and immediate sources
    if "m" in kinds:
        groups.append(("addr", [Variant(base, maddr=True)]))
    if "a" in kinds:
        groups.append(("imm", [Variant(base, imm=True)]))
    return groups


# ---------------------------------------------------------------------------
# matching an instruction against the rows (to pick distinctive gate
# instances and to drop "negatives" that another row accepts)
# ---------------------------------------------------------------------------

def matches(row, op, words, nops):
    """Does mnemonic op with modifier words (in order) and nops operands fit
    row?  Non-type words may come in any order; types fill the type slots left
    to right.  nops None: do not check operands."""
    if row["op"] != op:
        return False
    tws = [w for w in words if w in TYPES]
    nws = [w for w in words if w not in TYPES]
    els = row["els"]
    tels = [e for e in els if e["istype"]]
    nels = [e for e in els if not e["istype"]]

    def fill_types(i, j):
        if j == len(tels):
            return i == len(tws)
        e = tels[j]
        if i < len(tws) and tws[i] in e["words"] and fill_types(i + 1, j + 1):
            return True
        return e["opt"] and fill_types(i, j + 1)

    if not fill_types(0, 0):
        return False
    if len(set(nws)) != len(nws):
        return False
    used = [False] * len(nels)

    def assign(i):
        if i == len(nws):
            return all(used[k] or nels[k]["opt"] for k in range(len(nels)))
        for k, e in enumerate(nels):
            if not used[k] and nws[i] in e["words"]:
                used[k] = True
                if assign(i + 1):
                    return True
                used[k] = False
        return False

    if not assign(0):
        return False
    if nops is None or any(o["kind"] == "*" for o in row["ops"]):
        return True
    need = sum(1 for o in row["ops"] if not o["opt"])
    return need <= nops <= len(row["ops"])


def parse_inst(text):
    """(op, words, number of operands) of an instruction text."""
    head, _, rest = text.rstrip(";").partition(" ")
    parts = head.split(".")
    return parts[0], parts[1:], len(split_operands(rest)) if rest.strip() else 0


def accepted_by_some_row(text, hdr=DEFAULT):
    op, words, n = parse_inst(text)
    return any(matches(r, op, words, n) and row_valid_at(r, hdr) for r in ROWS)


# ---------------------------------------------------------------------------
# case generation
# ---------------------------------------------------------------------------

CASES = []
_NAMES = set()


def add(name, text):
    if " " in name or name in _NAMES:
        raise SystemExit("bad or duplicate case name: " + name)
    if any(l.startswith("@@") for l in text.splitlines()):
        raise SystemExit("module text contains an @@ line: " + name)
    _NAMES.add(name)
    CASES.append((name, text))


def slug(text):
    """Case-name part from an instruction's mnemonic+modifiers."""
    head = text.split(" ", 1)[0].rstrip(";")
    s = head.split(".", 1)[1] if "." in head else "plain"
    return s.replace("::", "_")


def vslug(ins, v):
    return slug(ins.text) + v.flags()


def hname(h):
    if h[1] > ARCH_A:
        return "ptx%d.sm_%da" % (h[0], h[1] - ARCH_A)
    return "ptx%d.sm_%d" % h


def row_ids():
    """(row, k) with k the row's index among the rows of its mnemonic."""
    seen = {}
    out = []
    for r in ROWS:
        k = seen.get(r["op"], 0)
        seen[r["op"]] = k + 1
        out.append((r, k))
    return out


def row_variants(row):
    """All variants of the row, without duplicates, in group order."""
    seen = set()
    out = []
    for gname, vs in row_groups(row):
        for v in vs:
            ins = build(row, v)
            if ins.text not in seen:
                seen.add(ins.text)
                out.append((gname, v, ins))
    return out


def headers(row):
    hdrs = []
    if row["sm"] > ARCH_A:
        hdrs.append(own_header(row))
        if DEFAULT_A not in hdrs:
            hdrs.append(DEFAULT_A)
    if row["sm"] <= 90:
        hdrs.append(own_header(row))
        if DEFAULT not in hdrs:
            hdrs.append(DEFAULT)
        # vote/shfl without .sync are refused on sm_70+ from PTX 6.4: also
        # test them where they are legal
        if row["op"] in ("vote", "shfl") and not any(
                "sync" in e["words"] for e in row["els"]):
            hdrs.append((63, 75))
    return hdrs


def gen_forms():
    for row, k in row_ids():
        rv = row_variants(row)
        for h in headers(row):
            plan = []
            for gname, v, ins in rv:
                if expect_reject(row, v, h):
                    plan.append(("x." + vslug(ins, v), [ins]))
                elif plan and plan[-1][0] == gname:
                    plan[-1][1].append(ins)
                else:
                    plan.append((gname, [ins]))
            for suffix, insts in plan:
                add("F.%s.%d.%s.%s" % (row["op"], k, suffix, hname(h)), module(insts, h[0], h[1]))


def gate_variants(row, at):
    """Instructions of the row for a gate case at header `at`: those that no
    other row accepts at `at` (so only this row's gate can decide), chosen so
    that every modifier word among them appears at least once."""
    cands = []
    for gname, v, ins in row_variants(row):
        if expect_reject(row, v, at):
            continue
        if accepted_by_some_row(ins.text, at):
            continue
        cands.append((v, ins))
    picked = []
    covered = set()
    for v, ins in cands:
        ws = set(w for w in v.words if w)
        if not picked or ws - covered:
            picked.append((v, ins))
            covered |= ws
    return picked


def gen_gates():
    for row, k in row_ids():
        if row["sm"] > ARCH_A:
            # the version below the row's, and the same number without the suffix
            ver, sm = own_header(row)
            points = []
            pv = version_below(row["ptx"])
            if pv is not None and pv >= TMIN[sm]:
                points.append(("ptx", (pv, sm)))
            points.append(("sm", (ver, sm - ARCH_A)))
            for dim, at in points:
                for v, ins in gate_variants(row, at):
                    add("G.%s.%d.%s.%s.%s" % (row["op"], k, dim, vslug(ins, v), hname(at)),
                        module([ins], at[0], at[1]))
            continue
        if row["sm"] <= 90:
            ver, sm = own_header(row)
        else:
            sm = 90
            ver = max(row["ptx"], TMIN[sm], FLOOR_PTX)
        points = []
        if row["ptx"] > FLOOR_PTX and row["sm"] <= 90:
            pv = version_below(row["ptx"])
            if pv is not None and pv >= TMIN[sm]:
                points.append(("ptx", (pv, sm)))
        if row["sm"] > FLOOR_SM:
            ps = target_below(row["sm"]) if row["sm"] <= 90 else 90
            points.append(("sm", (max(ver, TMIN[ps]), ps)))
        for dim, at in points:
            for v, ins in gate_variants(row, at):
                add("G.%s.%d.%s.%s.%s" % (row["op"], k, dim, vslug(ins, v), hname(at)),
                    module([ins], at[0], at[1]))


def neg_row(op):
    """The first row of op that is valid at 9.0/sm_90 (or sm_90a for an
    arch-specific mnemonic), preferably with plain operands."""
    cands = [r for r in ROWS if r["op"] == op and r["sm"] <= 90]
    if not cands:
        cands = [r for r in ROWS if r["op"] == op and row_valid_at(r, DEFAULT_A)]
    for plain in (True, False):
        for r in cands:
            if plain and any(o["kind"] == "*" for o in r["ops"]):
                continue
            if not expect_reject(r, Variant(good_base(r))):
                return r
    return None


def gen_negatives():
    ops = []
    for r in ROWS:
        if r["op"] not in ops:
            ops.append(r["op"])
    for op in ops:
        row = neg_row(op)
        if row is None:
            continue
        els = row["els"]
        base = good_base(row)
        v = Variant(base)
        good = build(row, v)
        ver, sm = DEFAULT_A if row["sm"] > ARCH_A else DEFAULT
        tag = ".sm_90a" if sm > ARCH_A else ""     # recorded with ptxas -arch=sm_90a
        slots = [w for e, w in zip(els, base) if e["istype"]]

        def emit(kind, text):
            # a "negative" that some row accepts is no negative
            if accepted_by_some_row(text, (ver, sm)):
                return
            add("N.%s.%s%s" % (op, kind, tag), module([Inst(text, good.regs, good.needs)], ver, sm))

        # wrong register type / size for the first required register operand
        vector = any(w in ("v2", "v4", "v8") for w in base)
        for idx, o in enumerate(row["ops"]):
            if o["kind"] not in "darpPq" or o["opt"]:
                continue
            t = o["type"]
            t = slots[t] if isinstance(t, int) else t
            if t is None or (vector and isinstance(o["type"], int)):
                break
            if t == "pred" or o["kind"] in "pPq":
                ins = build(row, v, (idx, "b32"))
                add("N.%s.wrong_type%s" % (op, tag), module([ins], ver, sm))
            else:
                ins = build(row, v, (idx, "pred"))
                add("N.%s.wrong_type%s" % (op, tag), module([ins], ver, sm))
                size = TYPES.get(t, (4, "B"))[0]
                wt = {16: "b64", 8: "b32", 4: "b16", 2: None if o["relaxed"] else "b32"}.get(size)
                if wt:
                    ins = build(row, v, (idx, wt))
                    add("N.%s.wrong_size%s" % (op, tag), module([ins], ver, sm))
            break
        head, _, rest = good.text.partition(" ")
        if not rest:
            head = head.rstrip(";")
            rest = ";"
        else:
            rest = " " + rest
        parts = head.split(".")
        # missing type: drop the word of the last type slot
        if slots:
            ti = max(i for i, p in enumerate(parts) if p == slots[-1])
            emit("missing_type", ".".join(parts[:ti] + parts[ti + 1:]) + rest)
        # missing required modifier: each required non-type element's word
        n = 0
        for e, w in zip(els, base):
            if not e["opt"] and not e["istype"] and w in parts[1:]:
                i = parts.index(w, 1)
                if not accepted_by_some_row(".".join(parts[:i] + parts[i + 1:]) + rest, (ver, sm)):
                    emit("missing_mod" + ("" if n == 0 else str(n)),
                         ".".join(parts[:i] + parts[i + 1:]) + rest)
                    n += 1
        # unknown modifier, in front of the type (or at the end)
        if slots:
            ti = max(i for i, p in enumerate(parts) if p == slots[-1])
            emit("unknown_mod", ".".join(parts[:ti] + ["bogus"] + parts[ti:]) + rest)
        else:
            emit("unknown_mod", ".".join(parts + ["bogus"]) + rest)
        # operand count: one too many, one too few (plain operand lists only)
        if row["ops"] and not any(o["kind"] == "*" or o["opt"] for o in row["ops"]):
            opl = rest.strip().rstrip(";")
            items = split_operands(opl)
            if not re.search(r"[{}\[]", items[-1]):
                emit("extra_operand", head + " " + opl + ", " + items[-1] + ";")
            emit("missing_operand", (head + " " + ", ".join(items[:-1]) + ";").replace(" ;", ";"))


def split_operands(s):
    out, depth, cur = [], 0, ""
    for ch in s:
        if ch in "{[":
            depth += 1
        elif ch in "}]":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


def generate():
    del CASES[:]
    _NAMES.clear()
    gen_forms()
    gen_gates()
    gen_negatives()
    return list(CASES)


# ---------------------------------------------------------------------------
# running ptxas
# ---------------------------------------------------------------------------

def main():
    return ptxas_corpus.main(__doc__, generate, CASES_TXT, ARCH,
                             lambda name: name.split(".")[0], "kind")


if __name__ == "__main__":
    sys.exit(main())
