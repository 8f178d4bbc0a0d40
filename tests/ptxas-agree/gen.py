#!/usr/bin/env python3
"""Generate the "agreement with ptxas" corpus.

Every case is a small, complete PTX module that differs from a valid base
module in exactly one construct.  The verdict of

    ptxas -arch=sm_90 -o /dev/null CASE.ptx

is recorded in cases.txt next to this script:

    @@ NAME VERDICT[ # first diagnostic]
    <module text>

VERDICT is `ok` (exit 0), `error` (non-zero exit with a normal diagnostic)
or `crash` (killed by a signal, or an internal/assertion error).

Usage:
    gen.py --out DIR      write DIR/NAME.ptx for every case
    gen.py --record       regenerate the cases, run ptxas on each (2 at a
                          time) and rewrite cases.txt.  Without ptxas this
                          says so and exits 0, leaving cases.txt alone.
                          ptxas is $PTXAS if set, else from PATH, else
                          /usr/local/cuda/bin/ptxas.
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
CASES_TXT = os.path.join(HERE, "cases.txt")
ARCH = "sm_90"

CASES = []          # list of (name, text)
_NAMES = set()


def add(name, text):
    name = name.replace(" ", "_")
    if name in _NAMES:
        raise SystemExit("duplicate case name: " + name)
    if any(l.startswith("@@") for l in text.splitlines()):
        raise SystemExit("module text contains an @@ line: " + name)
    if not text.endswith("\n"):
        text += "\n"
    _NAMES.add(name)
    CASES.append((name, text))


def slug(s):
    """Turn a construct into something usable in a case name."""
    s = s.strip()
    out = []
    for ch in s:
        if ch.isalnum() or ch in "_-+":
            out.append(ch)
        elif ch == ".":
            out.append("")
        elif ch == "%":
            out.append("pct")
        else:
            out.append("_")
    r = re.sub("_+", "_", "".join(out)).strip("_")
    return r or "none"


# ---------------------------------------------------------------------------
# module builders
# ---------------------------------------------------------------------------

def header(version="9.0", target="sm_90", addr="64"):
    lines = []
    if version is not None:
        lines.append(".version " + version)
    if target is not None:
        lines.append(".target " + target)
    if addr is not None:
        lines.append(".address_size " + addr)
    return "\n".join(lines) + "\n"


SURF_REGS = (
    "\t.reg .pred %p<4>;\n"
    "\t.reg .b16 %rs<8>;\n"
    "\t.reg .b32 %r<16>;\n"
    "\t.reg .b64 %rd<8>;\n"
    "\t.reg .f32 %f<8>;\n"
)


def kernel_module(body, decls="", params="", version="9.0", target="sm_90",
                  addr="64", regs=SURF_REGS, extra_regs="", funcs=""):
    """A module with optional module-scope declarations and one kernel."""
    t = header(version, target, addr) + "\n"
    if decls:
        t += decls.rstrip("\n") + "\n\n"
    if funcs:
        t += funcs.rstrip("\n") + "\n\n"
    t += ".visible .entry k(" + params + ")\n{\n"
    t += regs + extra_regs
    if body:
        t += "\n" + "".join("\t" + l + "\n" for l in body.strip("\n").split("\n"))
    t += "\tret;\n}\n"
    return t


def decl_module(decls, body="", version="9.0", target="sm_90", addr="64"):
    """A module whose interesting part is module-scope declarations."""
    t = header(version, target, addr) + "\n"
    if decls:
        t += decls.rstrip("\n") + "\n\n"
    t += ".visible .entry k()\n{\n"
    if body:
        t += "".join("\t" + l + "\n" for l in body.strip("\n").split("\n"))
    t += "\tret;\n}\n"
    return t


# ---------------------------------------------------------------------------
# A. surface instructions
# ---------------------------------------------------------------------------

GEOMS = ["1d", "2d", "3d", "a1d", "a2d"]
COORDS = {
    "1d": "{%r8}",
    "2d": "{%r8, %r9}",
    "3d": "{%r8, %r9, %r10, %r11}",
    "a1d": "{%r8, %r9}",
    "a2d": "{%r8, %r9, %r10, %r11}",
}
COORD_N = {"1d": 1, "2d": 2, "3d": 4, "a1d": 2, "a2d": 4}
CLAMPS = [".trap", ".clamp", ".zero", ""]
VECS = ["", ".v2", ".v4"]
BTYPES = [".b8", ".b16", ".b32", ".b64"]
REG_OF = {".b8": "%rs", ".b16": "%rs", ".b32": "%r", ".b64": "%rd",
          ".u32": "%r", ".s32": "%r", ".u64": "%rd", ".s64": "%rd",
          ".f32": "%f", ".u8": "%rs", ".u16": "%rs", ".s16": "%rs",
          ".f64": "%rd", ".f16": "%rs", ".s8": "%rs"}
SURF_DECL = ".global .surfref surf;"


def data_operand(vec, ty):
    r = REG_OF[ty]
    n = {"": 1, ".v2": 2, ".v4": 4}[vec]
    if n == 1:
        return r + "0"
    return "{" + ", ".join("%s%d" % (r, i) for i in range(n)) + "}"


def nm(mod, none):
    return mod.lstrip(".") if mod else none


def gen_surface():
    # --- A.suld: geom x cop x vec x type, clamp rotated (Latin square) ---
    cops = ["", ".ca", ".cg", ".cs", ".cv"]
    for gi, g in enumerate(GEOMS):
        for ci, c in enumerate(cops):
            for vi, v in enumerate(VECS):
                for ti, t in enumerate(BTYPES):
                    cl = CLAMPS[(gi + ci + vi + ti) % 4]
                    ins = "suld.b.%s%s%s%s%s %s, [surf, %s];" % (
                        g, c, v, t, cl, data_operand(v, t), COORDS[g])
                    add("A.suld.%s.%s.%s.%s.%s" % (g, nm(c, "nocop"), nm(v, "v1"),
                                                  t[1:], nm(cl, "noclamp")),
                        kernel_module(ins, SURF_DECL))

    # --- A.sust_b: geom x cop x vec x type, clamp rotated ---
    cops = ["", ".wb", ".cg", ".cs", ".wt"]
    for gi, g in enumerate(GEOMS):
        for ci, c in enumerate(cops):
            for vi, v in enumerate(VECS):
                for ti, t in enumerate(BTYPES):
                    cl = CLAMPS[(gi + ci + vi + ti + 1) % 4]
                    ins = "sust.b.%s%s%s%s%s [surf, %s], %s;" % (
                        g, c, v, t, cl, COORDS[g], data_operand(v, t))
                    add("A.sust_b.%s.%s.%s.%s.%s" % (g, nm(c, "nocop"), nm(v, "v1"),
                                                    t[1:], nm(cl, "noclamp")),
                        kernel_module(ins, SURF_DECL))

    # --- invalid / unusual cache operators ---
    for g in ["1d", "2d", "a2d"]:
        for c in [".wb", ".wt", ".lu", ".nc", ".L2"]:
            ins = "suld.b.%s%s.b32.trap %%r0, [surf, %s];" % (g, c, COORDS[g])
            add("A.suld_cop.%s.%s" % (g, slug(c)), kernel_module(ins, SURF_DECL))
        for c in [".ca", ".cv", ".lu", ".nc"]:
            ins = "sust.b.%s%s.b32.trap [surf, %s], %%r0;" % (g, c, COORDS[g])
            add("A.sust_cop.%s.%s" % (g, slug(c)), kernel_module(ins, SURF_DECL))

    # --- modifier order / duplicated / missing modifiers ---
    order = [
        ("canonical", "suld.b.2d.ca.v2.b32.trap {%r0, %r1}, [surf, {%r8, %r9}];"),
        ("clamp_before_type", "suld.b.2d.ca.v2.trap.b32 {%r0, %r1}, [surf, {%r8, %r9}];"),
        ("clamp_first", "suld.b.trap.2d.ca.v2.b32 {%r0, %r1}, [surf, {%r8, %r9}];"),
        ("cop_after_type", "suld.b.2d.v2.b32.ca.trap {%r0, %r1}, [surf, {%r8, %r9}];"),
        ("cop_last", "suld.b.2d.v2.b32.trap.ca {%r0, %r1}, [surf, {%r8, %r9}];"),
        ("vec_before_geom", "suld.b.v2.2d.ca.b32.trap {%r0, %r1}, [surf, {%r8, %r9}];"),
        ("type_first", "suld.b.b32.2d.ca.v2.trap {%r0, %r1}, [surf, {%r8, %r9}];"),
        ("b_after_geom", "suld.2d.b.ca.v2.b32.trap {%r0, %r1}, [surf, {%r8, %r9}];"),
        ("b_last", "suld.2d.ca.v2.b32.trap.b {%r0, %r1}, [surf, {%r8, %r9}];"),
        ("missing_b", "suld.2d.ca.v2.b32.trap {%r0, %r1}, [surf, {%r8, %r9}];"),
        ("p_instead_of_b", "suld.p.2d.v2.b32.trap {%r0, %r1}, [surf, {%r8, %r9}];"),
        ("p_instead_of_b_f32", "suld.p.2d.v2.f32.trap {%f0, %f1}, [surf, {%r8, %r9}];"),
        ("missing_geom", "suld.b.ca.v2.b32.trap {%r0, %r1}, [surf, {%r8, %r9}];"),
        ("missing_type", "suld.b.2d.ca.v2.trap {%r0, %r1}, [surf, {%r8, %r9}];"),
        ("two_geoms", "suld.b.2d.1d.v2.b32.trap {%r0, %r1}, [surf, {%r8, %r9}];"),
        ("two_clamps", "suld.b.2d.v2.b32.trap.zero {%r0, %r1}, [surf, {%r8, %r9}];"),
        ("same_clamp_twice", "suld.b.2d.v2.b32.trap.trap {%r0, %r1}, [surf, {%r8, %r9}];"),
        ("two_cops", "suld.b.2d.ca.cg.v2.b32.trap {%r0, %r1}, [surf, {%r8, %r9}];"),
        ("two_vecs", "suld.b.2d.v2.v2.b32.trap {%r0, %r1}, [surf, {%r8, %r9}];"),
        ("two_types", "suld.b.2d.v2.b32.b32.trap {%r0, %r1}, [surf, {%r8, %r9}];"),
        ("v3", "suld.b.2d.v3.b32.trap {%r0, %r1, %r2}, [surf, {%r8, %r9}];"),
        ("v8", "suld.b.2d.v8.b32.trap {%r0, %r1, %r2, %r3, %r4, %r5, %r6, %r7}, [surf, {%r8, %r9}];"),
        ("type_u32", "suld.b.2d.v2.u32.trap {%r0, %r1}, [surf, {%r8, %r9}];"),
        ("type_s32", "suld.b.2d.v2.s32.trap {%r0, %r1}, [surf, {%r8, %r9}];"),
        ("type_f32", "suld.b.2d.v2.f32.trap {%f0, %f1}, [surf, {%r8, %r9}];"),
        ("type_b128", "suld.b.2d.b128.trap %rd0, [surf, {%r8, %r9}];"),
        ("geom_1darray", "suld.b.1darray.b32.trap %r0, [surf, {%r8, %r9}];"),
        ("geom_cube", "suld.b.cube.b32.trap %r0, [surf, {%r8, %r9, %r10, %r11}];"),
        ("geom_4d", "suld.b.4d.b32.trap %r0, [surf, {%r8, %r9, %r10, %r11}];"),
        ("geom_5d", "suld.b.5d.b32.trap %r0, [surf, {%r8, %r9, %r10, %r11}];"),
        ("geom_0d", "suld.b.0d.b32.trap %r0, [surf, {%r8}];"),
        ("geom_9d", "suld.b.9d.b32.trap %r0, [surf, {%r8, %r9, %r10, %r11}];"),
        ("geom_4d_n2_coords", "suld.b.4d.b32.trap %r0, [surf, {%r8, %r9}];"),
        ("geom_2dms", "suld.b.2dms.b32.trap %r0, [surf, {%r8, %r9, %r10, %r11}];"),
        ("geom_a2dms", "suld.b.a2dms.b32.trap %r0, [surf, {%r8, %r9, %r10, %r11}];"),
        ("geom_acube", "suld.b.acube.b32.trap %r0, [surf, {%r8, %r9, %r10, %r11}];"),
        ("geom_a3d", "suld.b.a3d.b32.trap %r0, [surf, {%r8, %r9, %r10, %r11}];"),
        ("geom_4d_scalar_coord", "suld.b.4d.b32.trap %r0, [surf, %r8];"),
        ("clamp_wrap", "suld.b.2d.v2.b32.wrap {%r0, %r1}, [surf, {%r8, %r9}];"),
        ("clamp_mirror", "suld.b.2d.v2.b32.mirror {%r0, %r1}, [surf, {%r8, %r9}];"),
        ("clamp_sat", "suld.b.2d.v2.b32.sat {%r0, %r1}, [surf, {%r8, %r9}];"),
        ("uppercase_trap", "suld.b.2d.v2.b32.TRAP {%r0, %r1}, [surf, {%r8, %r9}];"),
        ("predicated", "@%p0 suld.b.2d.v2.b32.trap {%r0, %r1}, [surf, {%r8, %r9}];"),
        ("negpredicated", "@!%p0 suld.b.2d.v2.b32.trap {%r0, %r1}, [surf, {%r8, %r9}];"),
    ]
    for n, ins in order:
        add("A.suld_form." + n, kernel_module(ins, SURF_DECL))
    sorder = [
        ("canonical", "sust.b.2d.cg.v2.b32.trap [surf, {%r8, %r9}], {%r0, %r1};"),
        ("clamp_before_type", "sust.b.2d.cg.v2.trap.b32 [surf, {%r8, %r9}], {%r0, %r1};"),
        ("cop_last", "sust.b.2d.v2.b32.trap.cg [surf, {%r8, %r9}], {%r0, %r1};"),
        ("vec_before_geom", "sust.b.v2.2d.b32.trap [surf, {%r8, %r9}], {%r0, %r1};"),
        ("b_after_geom", "sust.2d.b.v2.b32.trap [surf, {%r8, %r9}], {%r0, %r1};"),
        ("missing_b", "sust.2d.v2.b32.trap [surf, {%r8, %r9}], {%r0, %r1};"),
        ("missing_geom", "sust.b.v2.b32.trap [surf, {%r8, %r9}], {%r0, %r1};"),
        ("geom_4d", "sust.b.4d.b32.trap [surf, {%r8, %r9, %r10, %r11}], %r0;"),
        ("geom_cube", "sust.b.cube.b32.trap [surf, {%r8, %r9, %r10, %r11}], %r0;"),
        ("p_geom_4d", "sust.p.4d.b32.trap [surf, {%r8, %r9, %r10, %r11}], %r0;"),
        ("missing_type", "sust.b.2d.v2.trap [surf, {%r8, %r9}], {%r0, %r1};"),
        ("two_clamps", "sust.b.2d.v2.b32.clamp.zero [surf, {%r8, %r9}], {%r0, %r1};"),
        ("two_cops", "sust.b.2d.wb.wt.v2.b32.trap [surf, {%r8, %r9}], {%r0, %r1};"),
        ("v3", "sust.b.2d.v3.b32.trap [surf, {%r8, %r9}], {%r0, %r1, %r2};"),
        ("type_u32", "sust.b.2d.v2.u32.trap [surf, {%r8, %r9}], {%r0, %r1};"),
        ("type_f32", "sust.b.2d.v2.f32.trap [surf, {%r8, %r9}], {%f0, %f1};"),
        ("operands_swapped", "sust.b.2d.v2.b32.trap {%r0, %r1}, [surf, {%r8, %r9}];"),
        ("immediate_data", "sust.b.2d.b32.trap [surf, {%r8, %r9}], 7;"),
        ("immediate_vec_data", "sust.b.2d.v2.b32.trap [surf, {%r8, %r9}], {1, 2};"),
        ("sink_data", "sust.b.2d.b32.trap [surf, {%r8, %r9}], _;"),
        ("predicated", "@%p1 sust.b.2d.v2.b32.trap [surf, {%r8, %r9}], {%r0, %r1};"),
    ]
    for n, ins in sorder:
        add("A.sust_form." + n, kernel_module(ins, SURF_DECL))
    # immediate / sink destinations and coordinates for suld
    misc = [
        ("suld_imm_dest", "suld.b.1d.b32.trap 5, [surf, {%r8}];"),
        ("suld_sink_dest", "suld.b.1d.b32.trap _, [surf, {%r8}];"),
        ("suld_sink_in_vec", "suld.b.1d.v2.b32.trap {%r0, _}, [surf, {%r8}];"),
        ("suld_imm_coord", "suld.b.1d.b32.trap %r0, [surf, {0}];"),
        ("suld_imm_coord_scalar", "suld.b.1d.b32.trap %r0, [surf, 0];"),
        ("suld_imm_coord_2d_mixed", "suld.b.2d.b32.trap %r0, [surf, {%r8, 4}];"),
        ("suld_coord_neg_imm", "suld.b.1d.b32.trap %r0, [surf, {-4}];"),
        ("suld_no_coords", "suld.b.1d.b32.trap %r0, [surf];"),
        ("suld_no_brackets", "suld.b.1d.b32.trap %r0, surf, {%r8};"),
        ("suld_empty_coords", "suld.b.1d.b32.trap %r0, [surf, {}];"),
        ("suld_sink_coord", "suld.b.2d.b32.trap %r0, [surf, {%r8, _}];"),
        ("suld_dest_same_reg_twice", "suld.b.1d.v2.b32.trap {%r0, %r0}, [surf, {%r8}];"),
        ("suld_dest_mixed_widths", "suld.b.1d.v2.b32.trap {%r0, %rd1}, [surf, {%r8}];"),
        ("suld_coord_is_dest", "suld.b.1d.b32.trap %r8, [surf, {%r8}];"),
        ("sust_sink_coord", "sust.b.2d.b32.trap [surf, {%r8, _}], %r0;"),
        ("sust_imm_coord", "sust.b.2d.b32.trap [surf, {1, 2}], %r0;"),
        ("sust_no_coords", "sust.b.1d.b32.trap [surf], %r0;"),
        ("sust_imm_in_vec", "sust.b.1d.v2.b32.trap [surf, {%r8}], {%r0, 3};"),
        ("sured_imm_data", "sured.b.add.1d.u32.trap [surf, {%r8}], 1;"),
        ("sured_imm_coord", "sured.b.add.1d.u32.trap [surf, {0}], %r0;"),
        ("sured_sink_data", "sured.b.add.1d.u32.trap [surf, {%r8}], _;"),
        ("sured_has_dest", "sured.b.add.1d.u32.trap %r1, [surf, {%r8}], %r0;"),
        ("suq_imm_dest", "suq.width.b32 3, [surf];"),
        ("suq_sink_dest", "suq.width.b32 _, [surf];"),
        ("suq_with_coords", "suq.width.b32 %r0, [surf, {%r8}];"),
        ("suq_no_brackets", "suq.width.b32 %r0, surf;"),
        ("suq_vec_dest", "suq.width.b32 {%r0}, [surf];"),
    ]
    for n, ins in misc:
        add("A.operand." + n, kernel_module(ins, SURF_DECL))

    # --- A.sust_p: geom x vec x type, two clamps per cell ---
    ptypes = [".b32", ".u32", ".s32", ".f32", ".b8", ".b16", ".b64"]
    for gi, g in enumerate(GEOMS):
        for vi, v in enumerate(VECS):
            for ti, t in enumerate(ptypes):
                for k in range(2 if t == ".b32" else 1):
                    cl = CLAMPS[(gi + vi + ti + 2 * k) % 4]
                    ins = "sust.p.%s%s%s%s [surf, %s], %s;" % (
                        g, v, t, cl, COORDS[g], data_operand(v, t))
                    add("A.sust_p.%s.%s.%s.%s" % (g, nm(v, "v1"), t[1:], nm(cl, "noclamp")),
                        kernel_module(ins, SURF_DECL))
    for c in [".wb", ".cg", ".cs", ".wt"]:
        ins = "sust.p.2d%s.v4.b32.trap [surf, {%%r8, %%r9}], {%%r0, %%r1, %%r2, %%r3};" % c
        add("A.sust_p_cop." + slug(c), kernel_module(ins, SURF_DECL))

    # --- A.sured_b: op x geom x type, clamp rotated ---
    ops = [".add", ".min", ".max", ".and", ".or"]
    rtypes = [".u32", ".u64", ".s32", ".b32", ".s64", ".b64", ".f32", ".u16"]
    for oi, o in enumerate(ops):
        for gi, g in enumerate(GEOMS):
            for ti, t in enumerate(rtypes):
                cl = CLAMPS[(oi + gi + ti) % 4]
                ins = "sured.b%s.%s%s%s [surf, %s], %s0;" % (o, g, t, cl, COORDS[g], REG_OF[t])
                add("A.sured_b.%s.%s.%s.%s" % (o[1:], g, t[1:], nm(cl, "noclamp")),
                    kernel_module(ins, SURF_DECL))
    # --- A.sured_p: op x geom x type, clamp rotated ---
    ptypes = [".b32", ".b64", ".u32", ".s32", ".u64", ".s64"]
    for oi, o in enumerate(ops):
        for gi, g in enumerate(GEOMS):
            for ti, t in enumerate(ptypes):
                cl = CLAMPS[(oi + gi + ti + 2) % 4]
                ins = "sured.p%s.%s%s%s [surf, %s], %s0;" % (o, g, t, cl, COORDS[g], REG_OF[t])
                add("A.sured_p.%s.%s.%s.%s" % (o[1:], g, t[1:], nm(cl, "noclamp")),
                    kernel_module(ins, SURF_DECL))
    # other sured forms
    sforms = [
        ("op_xor", "sured.b.xor.1d.b32.trap [surf, {%r8}], %r0;"),
        ("op_inc", "sured.b.inc.1d.u32.trap [surf, {%r8}], %r0;"),
        ("op_exch", "sured.b.exch.1d.b32.trap [surf, {%r8}], %r0;"),
        ("op_cas", "sured.b.cas.1d.b32.trap [surf, {%r8}], %r0;"),
        ("missing_op", "sured.b.1d.u32.trap [surf, {%r8}], %r0;"),
        ("missing_b", "sured.add.1d.u32.trap [surf, {%r8}], %r0;"),
        ("geom_before_op", "sured.b.1d.add.u32.trap [surf, {%r8}], %r0;"),
        ("clamp_before_type", "sured.b.add.1d.trap.u32 [surf, {%r8}], %r0;"),
        ("op_first", "sured.add.b.1d.u32.trap [surf, {%r8}], %r0;"),
        ("with_v2", "sured.b.add.1d.v2.u32.trap [surf, {%r8}], {%r0, %r1};"),
        ("vec_data_braces", "sured.b.add.1d.u32.trap [surf, {%r8}], {%r0};"),
        ("with_cop_cg", "sured.b.add.1d.cg.u32.trap [surf, {%r8}], %r0;"),
        ("with_cop_wb", "sured.b.add.1d.wb.u32.trap [surf, {%r8}], %r0;"),
        ("two_ops", "sured.b.add.min.1d.u32.trap [surf, {%r8}], %r0;"),
        ("add_f16", "sured.b.add.1d.f16.trap [surf, {%r8}], %rs0;"),
        ("add_b16", "sured.b.add.1d.b16.trap [surf, {%r8}], %rs0;"),
        ("add_f64", "sured.b.add.1d.f64.trap [surf, {%r8}], %rd0;"),
        ("p_add_f32", "sured.p.add.1d.f32.trap [surf, {%r8}], %f0;"),
        ("p_and_b64", "sured.p.and.1d.b64.trap [surf, {%r8}], %rd0;"),
        ("u32_data_in_b64_reg", "sured.b.add.1d.u32.trap [surf, {%r8}], %rd0;"),
        ("u64_data_in_b32_reg", "sured.b.min.1d.u64.trap [surf, {%r8}], %r0;"),
        ("u32_data_in_b16_reg", "sured.b.add.1d.u32.trap [surf, {%r8}], %rs0;"),
        ("u32_data_in_f32_reg", "sured.b.add.1d.u32.trap [surf, {%r8}], %f0;"),
        ("u32_data_in_pred", "sured.b.add.1d.u32.trap [surf, {%r8}], %p0;"),
        ("b32_data_in_b64_reg", "sured.b.and.1d.b32.trap [surf, {%r8}], %rd0;"),
        ("p_b32_data_in_b64_reg", "sured.p.min.1d.b32.trap [surf, {%r8}], %rd0;"),
        ("p_b64_data_in_b32_reg", "sured.p.min.1d.b64.trap [surf, {%r8}], %r0;"),
    ]
    for n, ins in sforms:
        add("A.sured_form." + n, kernel_module(ins, SURF_DECL))

    # --- A.suq: query x type ---
    queries = ["width", "height", "depth", "channel_data_type", "channel_order",
               "array_size", "memory_layout", "normalized_coords", "filter_mode",
               "addr_mode_0", "num_samples", "num_mipmap_levels",
               "force_unnormalized_coords", "size", "pitch"]
    qtypes = [".b32", ".u32", ".s32", ".b64", ".u64", ".b16", ".f32"]
    for q in queries:
        for t in qtypes:
            ins = "suq.%s%s %s0, [surf];" % (q, t, REG_OF[t] if t != ".b16" else "%rs")
            add("A.suq.%s.%s" % (q, t[1:]), kernel_module(ins, SURF_DECL))
    for n, ins in [("no_type", "suq.width %r0, [surf];"),
                   ("no_query", "suq.b32 %r0, [surf];"),
                   ("type_first", "suq.b32.width %r0, [surf];"),
                   ("two_queries", "suq.width.height.b32 %r0, [surf];"),
                   ("with_clamp", "suq.width.b32.trap %r0, [surf];"),
                   ("b32_into_b64_reg", "suq.width.b32 %rd0, [surf];"),
                   ("b32_into_b16_reg", "suq.width.b32 %rs0, [surf];"),
                   ("b32_into_f32_reg", "suq.width.b32 %f0, [surf];"),
                   ("b32_into_pred", "suq.width.b32 %p0, [surf];"),
                   ("predicated", "@%p0 suq.depth.b32 %r0, [surf];")]:
        add("A.suq_form." + n, kernel_module(ins, SURF_DECL))

    # --- data register type vs instruction type ---
    rtys = [".b8", ".u8", ".s8", ".b16", ".u16", ".s16", ".f16", ".b32", ".u32",
            ".s32", ".f32", ".b64", ".u64", ".f64", ".pred"]
    for t in BTYPES:
        for rt in rtys:
            extra = "\t.reg %s %%x<4>;\n" % rt
            ins = "suld.b.1d%s.trap %%x0, [surf, {%%r8}];" % t
            add("A.suld_regtype.%s.in_%s" % (t[1:], rt[1:]),
                kernel_module(ins, SURF_DECL, extra_regs=extra))
            ins = "sust.b.1d%s.trap [surf, {%%r8}], %%x0;" % t
            add("A.sust_regtype.%s.in_%s" % (t[1:], rt[1:]),
                kernel_module(ins, SURF_DECL, extra_regs=extra))
    for rt in [".b16", ".b32", ".u32", ".s32", ".f32", ".b64", ".u64", ".pred"]:
        extra = "\t.reg %s %%x<4>;\n" % rt
        ins = "sust.p.1d.v2.b32.trap [surf, {%r8}], {%x0, %x1};"
        add("A.sust_p_regtype.b32.in_%s" % rt[1:], kernel_module(ins, SURF_DECL, extra_regs=extra))
        ins = "sured.b.add.1d.u32.trap [surf, {%r8}], %x0;"
        add("A.sured_regtype.u32.in_%s" % rt[1:], kernel_module(ins, SURF_DECL, extra_regs=extra))
        ins = "sured.b.min.1d.s64.trap [surf, {%r8}], %x0;"
        add("A.sured_regtype.s64.in_%s" % rt[1:], kernel_module(ins, SURF_DECL, extra_regs=extra))

    # --- coordinate register types ---
    ctys = [".b32", ".s32", ".u32", ".f32", ".b16", ".s16", ".b64", ".u64", ".s64", ".pred"]
    for ct in ctys:
        extra = "\t.reg %s %%c<4>;\n" % ct
        for g in ["1d", "2d", "a1d"]:
            co = "{" + ", ".join("%%c%d" % i for i in range(COORD_N[g])) + "}"
            add("A.coordtype.suld.%s.%s" % (g, ct[1:]),
                kernel_module("suld.b.%s.b32.trap %%r0, [surf, %s];" % (g, co), SURF_DECL,
                              extra_regs=extra))
        g = "2d"
        co = "{%c0, %c1}"
        add("A.coordtype.sust_b.%s.%s" % (g, ct[1:]),
            kernel_module("sust.b.%s.b32.trap [surf, %s], %%r0;" % (g, co), SURF_DECL, extra_regs=extra))
        add("A.coordtype.sust_p.%s.%s" % (g, ct[1:]),
            kernel_module("sust.p.%s.b32.trap [surf, %s], %%r0;" % (g, co), SURF_DECL, extra_regs=extra))
        add("A.coordtype.sured_b.%s.%s" % (g, ct[1:]),
            kernel_module("sured.b.add.%s.u32.trap [surf, %s], %%r0;" % (g, co), SURF_DECL,
                          extra_regs=extra))
    # mixed coordinate widths
    add("A.coordtype.suld.2d.mixed_b32_b64",
        kernel_module("suld.b.2d.b32.trap %r0, [surf, {%r8, %rd1}];", SURF_DECL))
    add("A.coordtype.suld.a1d.index_b16",
        kernel_module("suld.b.a1d.b32.trap %r0, [surf, {%rs1, %r8}];", SURF_DECL))

    # --- coordinate-vector arity for every geometry and instruction ---
    cforms = [("scalar", "%r8"),
              ("n1", "{%r8}"),
              ("n2", "{%r8, %r9}"),
              ("n3", "{%r8, %r9, %r10}"),
              ("n4", "{%r8, %r9, %r10, %r11}"),
              ("n5", "{%r8, %r9, %r10, %r11, %r12}")]
    instrs = [("suld", "suld.b.{g}.b32.trap %r0, [surf, {c}];"),
              ("sust_b", "sust.b.{g}.b32.trap [surf, {c}], %r0;"),
              ("sust_p", "sust.p.{g}.b32.trap [surf, {c}], %r0;"),
              ("sured_b", "sured.b.add.{g}.u32.trap [surf, {c}], %r0;"),
              ("sured_p", "sured.p.min.{g}.b32.trap [surf, {c}], %r0;")]
    for iname, tmpl in instrs:
        for g in GEOMS:
            for cn, c in cforms:
                ins = tmpl.replace("{g}", g).replace("{c}", c)
                add("A.coordarity.%s.%s.%s" % (iname, g, cn), kernel_module(ins, SURF_DECL))

    # --- data-vector arity ---
    dforms = [("scalar", "%r0"), ("n1", "{%r0}"), ("n2", "{%r0, %r1}"),
              ("n3", "{%r0, %r1, %r2}"), ("n4", "{%r0, %r1, %r2, %r3}")]
    for v in VECS:
        for dn, d in dforms:
            add("A.dataarity.suld.%s.%s" % (nm(v, "v1"), dn),
                kernel_module("suld.b.1d%s.b32.trap %s, [surf, {%%r8}];" % (v, d), SURF_DECL))
            add("A.dataarity.sust_b.%s.%s" % (nm(v, "v1"), dn),
                kernel_module("sust.b.1d%s.b32.trap [surf, {%%r8}], %s;" % (v, d), SURF_DECL))
            add("A.dataarity.sust_p.%s.%s" % (nm(v, "v1"), dn),
                kernel_module("sust.p.1d%s.b32.trap [surf, {%%r8}], %s;" % (v, d), SURF_DECL))

    # --- vector size over 128 bits, every instruction ---
    for g in GEOMS:
        add("A.over128.suld.%s.v4_b64" % g,
            kernel_module("suld.b.%s.v4.b64.zero {%%rd0, %%rd1, %%rd2, %%rd3}, [surf, %s];"
                          % (g, COORDS[g]), SURF_DECL))
        add("A.over128.sust_b.%s.v4_b64" % g,
            kernel_module("sust.b.%s.v4.b64.zero [surf, %s], {%%rd0, %%rd1, %%rd2, %%rd3};"
                          % (g, COORDS[g]), SURF_DECL))
        add("A.over128.sust_p.%s.v4_b64" % g,
            kernel_module("sust.p.%s.v4.b64.zero [surf, %s], {%%rd0, %%rd1, %%rd2, %%rd3};"
                          % (g, COORDS[g]), SURF_DECL))

    # --- the surface operand: how the surface is named ---
    SI = {
        "suld": "suld.b.2d.b32.trap %r0, [{s}, {%r8, %r9}];",
        "sust_b": "sust.b.2d.b32.trap [{s}, {%r8, %r9}], %r0;",
        "sust_p": "sust.p.2d.b32.trap [{s}, {%r8, %r9}], %r0;",
        "sured_b": "sured.b.add.2d.u32.trap [{s}, {%r8, %r9}], %r0;",
        "sured_p": "sured.p.min.2d.b32.trap [{s}, {%r8, %r9}], %r0;",
        "suq": "suq.width.b32 %r0, [{s}];",
    }
    forms = [
        # name, decls, params, prelude, operand
        ("global_surfref", SURF_DECL, "", "", "surf"),
        ("extern_global_surfref", ".extern .global .surfref surf;", "", "", "surf"),
        ("visible_global_surfref", ".visible .global .surfref surf;", "", "", "surf"),
        ("kparam_surfref", "", ".param .surfref sp", "", "sp"),
        ("kparam_u64_ptr_surfref", "", ".param .u64 .ptr .surfref sp", "", "sp"),
        ("u64_reg_mov_global", SURF_DECL, "", "mov.u64 %rd1, surf;", "%rd1"),
        ("u64_reg_mov_kparam", "", ".param .surfref sp", "mov.u64 %rd1, sp;", "%rd1"),
        ("u64_reg_ld_param", "", ".param .u64 p", "ld.param.u64 %rd1, [p];", "%rd1"),
        ("u64_reg_ld_ptr_param", "", ".param .u64 .ptr .surfref p", "ld.param.u64 %rd1, [p];", "%rd1"),
        ("b64_reg_mov_global", SURF_DECL, "", "mov.b64 %rd1, surf;", "%rd1"),
        ("u64_reg_uninitialized", SURF_DECL, "", "", "%rd1"),
        ("u32_reg", SURF_DECL, "", "mov.u32 %r1, 0;", "%r1"),
        ("b16_reg", SURF_DECL, "", "", "%rs1"),
        ("f32_reg", SURF_DECL, "", "", "%f1"),
        ("pred_reg", SURF_DECL, "", "", "%p1"),
        ("immediate", SURF_DECL, "", "", "0"),
        ("texref_global", ".global .texref tex;", "", "", "tex"),
        ("samplerref_global", ".global .samplerref smp;",
         "", "", "smp"),
        ("u64_global_var", ".global .u64 gv;", "", "", "gv"),
        ("u32_const_var", ".const .u32 cv;", "", "", "cv"),
        ("kparam_u64_direct", "", ".param .u64 p", "", "p"),
        ("undeclared_name", SURF_DECL, "", "", "nosuch"),
        ("surf_plus_offset", SURF_DECL, "", "", "surf+8"),
        ("reg_plus_offset", SURF_DECL, "", "mov.u64 %rd1, surf;", "%rd1+8"),
        ("kernel_name", SURF_DECL, "", "", "k"),
    ]
    for fname, decls, params, pre, opnd in forms:
        for iname, tmpl in SI.items():
            body = (pre + "\n" if pre else "") + tmpl.replace("{s}", opnd)
            add("A.surfoperand.%s.%s" % (fname, iname),
                kernel_module(body, decls, params=params))
    # surfaces are unaffected by the texture mode
    for mname, tgt in MODES:
        for iname, tmpl in SI.items():
            add("A.surfmode.%s.%s" % (mname, iname),
                kernel_module(tmpl.replace("{s}", "surf"), SURF_DECL, target=tgt))
        add("A.surfmode.%s.indirect_suld" % mname,
            kernel_module("mov.u64 %rd1, surf;\nsuld.b.2d.b32.trap %r0, [%rd1, {%r8, %r9}];",
                          SURF_DECL, target=tgt))
    # mixed register types inside a data vector
    add("A.operand.sust_vec_mixed_b32_f32",
        kernel_module("sust.b.1d.v2.b32.trap [surf, {%r8}], {%r0, %f1};", SURF_DECL))
    add("A.operand.suld_vec_mixed_b32_f32",
        kernel_module("suld.b.1d.v2.b32.trap {%r0, %f1}, [surf, {%r8}];", SURF_DECL))
    add("A.operand.sust_vec_b16_regs_for_b32",
        kernel_module("sust.b.1d.v2.b32.trap [surf, {%r8}], {%rs0, %rs1};", SURF_DECL))
    add("A.operand.suld_vec_b64_regs_for_b32",
        kernel_module("suld.b.1d.v2.b32.trap {%rd0, %rd1}, [surf, {%r8}];", SURF_DECL))
    # surface reached through a .func parameter
    funcs = {
        "func_param_u64": (".func f(.param .u64 s)\n{\n\t.reg .b64 %a;\n\t.reg .b32 %v<4>;\n"
                           "\tld.param.u64 %a, [s];\n\tsuld.b.1d.b32.trap %v0, [%a, {%v1}];\n\tret;\n}",
                           "mov.u64 %rd1, surf;\n{\n\t.param .u64 a0;\n\tst.param.u64 [a0], %rd1;\n"
                           "\tcall f, (a0);\n}"),
        "func_param_surfref": (".func f(.param .surfref s)\n{\n\t.reg .b32 %v<4>;\n"
                               "\tsuld.b.1d.b32.trap %v0, [s, {%v1}];\n\tret;\n}", ""),
        "func_param_surfref_ld": (".func f(.param .surfref s)\n{\n\t.reg .b64 %a;\n\t.reg .b32 %v<4>;\n"
                                  "\tld.param.u64 %a, [s];\n\tsuld.b.1d.b32.trap %v0, [%a, {%v1}];\n\tret;\n}", ""),
        "func_uses_global_surfref": (".func f()\n{\n\t.reg .b32 %v<4>;\n"
                                     "\tsuld.b.1d.b32.trap %v0, [surf, {%v1}];\n\tret;\n}", "call f;"),
        "func_mov_global_surfref": (".func f()\n{\n\t.reg .b32 %v<4>;\n\t.reg .b64 %a;\n"
                                    "\tmov.u64 %a, surf;\n\tsust.b.1d.b32.trap [%a, {%v1}], %v0;\n\tret;\n}", "call f;"),
    }
    for fname, (fn, body) in funcs.items():
        add("A.surfoperand." + fname, kernel_module(body, SURF_DECL, funcs=fn))

    # --- version / target gating of surface features ---
    def gate(name, feature_body, pairs, decls=SURF_DECL, params=""):
        for ver, tgt in pairs:
            addr = "64" if float(ver) >= 2.3 else None
            add("A.gate.%s.v%s.%s" % (name, ver.replace(".", "_"), tgt),
                kernel_module(feature_body, decls, params=params, version=ver, target=tgt, addr=addr))
    old = [("1.4", "sm_13"), ("1.5", "sm_13"), ("2.0", "sm_13"), ("2.0", "sm_20"),
           ("2.3", "sm_20"), ("3.0", "sm_20"), ("3.0", "sm_13"), ("3.1", "sm_20"),
           ("3.1", "sm_13"), ("4.0", "sm_20"), ("6.0", "sm_30"), ("9.0", "sm_20")]
    gate("suld_1d_trap", "suld.b.1d.b32.trap %r0, [surf, {%r8}];", old)
    gate("suld_1d_clamp", "suld.b.1d.b32.clamp %r0, [surf, {%r8}];", old)
    gate("suld_1d_zero", "suld.b.1d.b32.zero %r0, [surf, {%r8}];", old)
    gate("suld_1d_ca", "suld.b.1d.ca.b32.trap %r0, [surf, {%r8}];", old)
    gate("suld_2d_trap", "suld.b.2d.b32.trap %r0, [surf, {%r8, %r9}];", old)
    gate("suld_3d_trap", "suld.b.3d.b32.trap %r0, [surf, {%r8, %r9, %r10, %r11}];", old)
    gate("suld_a1d_trap", "suld.b.a1d.b32.trap %r0, [surf, {%r8, %r9}];", old)
    gate("suld_a2d_trap", "suld.b.a2d.b32.trap %r0, [surf, {%r8, %r9, %r10, %r11}];", old)
    gate("sust_b_1d_trap", "sust.b.1d.b32.trap [surf, {%r8}], %r0;", old)
    gate("sust_b_1d_wt", "sust.b.1d.wt.b32.trap [surf, {%r8}], %r0;", old)
    gate("sust_b_3d_trap", "sust.b.3d.b32.trap [surf, {%r8, %r9, %r10, %r11}], %r0;", old)
    gate("sust_p_1d_trap", "sust.p.1d.b32.trap [surf, {%r8}], %r0;", old)
    gate("sured_b_add_trap", "sured.b.add.1d.u32.trap [surf, {%r8}], %r0;", old)
    gate("sured_p_min_trap", "sured.p.min.1d.b32.trap [surf, {%r8}], %r0;", old)
    gate("suq_width", "suq.width.b32 %r0, [surf];", old)
    gate("suq_channel_order", "suq.channel_order.b32 %r0, [surf];",
         [("2.0", "sm_20"), ("2.1", "sm_20"), ("2.1", "sm_13"), ("9.0", "sm_90")])
    gate("suq_channel_data_type", "suq.channel_data_type.b32 %r0, [surf];",
         [("2.0", "sm_20"), ("2.1", "sm_20"), ("9.0", "sm_90")])
    gate("suq_array_size", "suq.array_size.b32 %r0, [surf];",
         [("4.0", "sm_20"), ("4.1", "sm_20"), ("4.1", "sm_13"), ("9.0", "sm_90")])
    gate("suq_memory_layout", "suq.memory_layout.b32 %r0, [surf];",
         [("4.1", "sm_20"), ("4.2", "sm_20"), ("4.2", "sm_13"), ("9.0", "sm_90")])
    ind = [("3.0", "sm_20"), ("3.1", "sm_20"), ("3.1", "sm_13"), ("3.1", "sm_10"),
           ("4.0", "sm_30"), ("9.0", "sm_90")]
    gate("indirect_suld_mov", "mov.u64 %rd1, surf;\nsuld.b.1d.b32.trap %r0, [%rd1, {%r8}];", ind)
    gate("indirect_sust_mov", "mov.u64 %rd1, surf;\nsust.b.1d.b32.trap [%rd1, {%r8}], %r0;", ind)
    gate("indirect_suq_mov", "mov.u64 %rd1, surf;\nsuq.width.b32 %r0, [%rd1];", ind)
    gate("indirect_suld_param", "ld.param.u64 %rd1, [p];\nsuld.b.1d.b32.trap %r0, [%rd1, {%r8}];",
         ind, decls="", params=".param .u64 p")
    gate("kparam_surfref", "suld.b.1d.b32.trap %r0, [sp, {%r8}];",
         [("1.4", "sm_13"), ("1.5", "sm_13"), ("2.0", "sm_20"), ("3.0", "sm_20"), ("9.0", "sm_90")],
         decls="", params=".param .surfref sp")
    u64 = [("8.0", "sm_50"), ("8.0", "sm_90"), ("8.1", "sm_50"), ("8.1", "sm_35"),
           ("8.1", "sm_30"), ("8.1", "sm_20"), ("8.1", "sm_90"), ("7.8", "sm_90"), ("9.0", "sm_50")]
    gate("sured_b_min_u64", "sured.b.min.1d.u64.trap [surf, {%r8}], %rd0;", u64)
    gate("sured_b_max_s64", "sured.b.max.1d.s64.trap [surf, {%r8}], %rd0;", u64)
    gate("sured_p_min_b64", "sured.p.min.1d.b64.trap [surf, {%r8}], %rd0;", u64)
    gate("sured_b_add_u64", "sured.b.add.1d.u64.trap [surf, {%r8}], %rd0;", u64)
    gate("sured_b_min_u32", "sured.b.min.1d.u32.trap [surf, {%r8}], %r0;", u64)


# ---------------------------------------------------------------------------
# B. variable declarations
# ---------------------------------------------------------------------------

ALL_TYPES = [".b8", ".b16", ".b32", ".b64", ".b128", ".u8", ".u16", ".u32", ".u64",
             ".s8", ".s16", ".s32", ".s64", ".f16", ".f16x2", ".bf16", ".bf16x2",
             ".f32", ".f64", ".tf32", ".e4m3", ".pred"]
TYPE_BITS = {".b8": 8, ".b16": 16, ".b32": 32, ".b64": 64, ".b128": 128, ".u8": 8,
             ".u16": 16, ".u32": 32, ".u64": 64, ".s8": 8, ".s16": 16, ".s32": 32,
             ".s64": 64, ".f16": 16, ".f16x2": 32, ".bf16": 16, ".bf16x2": 32,
             ".f32": 32, ".f64": 64, ".tf32": 32, ".e4m3": 8, ".pred": 1}


def gen_decls():
    # --- B.space_type: state space x type, module scope and kernel scope ---
    mod_spaces = [".global", ".const", ".shared", ".local", ".param", ".reg", ".tex", ".sreg"]
    for sp in mod_spaces:
        for t in ALL_TYPES:
            add("B.space_type.module.%s.%s" % (sp[1:], t[1:]),
                decl_module("%s %s v;" % (sp, t)))
    fn_spaces = [".reg", ".local", ".shared", ".param", ".global", ".const"]
    for sp in fn_spaces:
        for t in ALL_TYPES:
            add("B.space_type.kernel.%s.%s" % (sp[1:], t[1:]),
                decl_module("", body="%s %s v;" % (sp, t)))
    # .func scope
    for sp in [".reg", ".local", ".shared", ".param", ".global", ".const"]:
        for t in [".b32", ".u64", ".f32", ".pred"]:
            t2 = header() + "\n.func f()\n{\n\t%s %s v;\n\tret;\n}\n\n.visible .entry k()\n{\n\tcall f;\n\tret;\n}\n" % (sp, t)
            add("B.space_type.func.%s.%s" % (sp[1:], t[1:]), t2)
    # missing type / missing space / unknown
    for n, d in [("missing_type", ".global v;"), ("missing_space", ".u32 v;"),
                 ("unknown_space", ".gobal .u32 v;"), ("unknown_type", ".global .u31 v;"),
                 ("two_types", ".global .u32 .f32 v;"), ("two_spaces", ".global .const .u32 v;"),
                 ("space_after_type", ".u32 .global v;"), ("missing_name", ".global .u32 ;"),
                 ("missing_semicolon", ".global .u32 v\n.global .u32 w;"),
                 ("global_dotted_name", ".global .u32 a.b;"),
                 ("name_dollar", ".global .u32 $v;"), ("name_underscore", ".global .u32 _v;"),
                 ("name_percent", ".global .u32 %v;"), ("name_digit_first", ".global .u32 1v;"),
                 ("name_keyword_reg", ".global .u32 reg;"), ("name_opcode_add", ".global .u32 add;"),
                 ("name_dot_first", ".global .u32 .v;"),
                 ("multiple_names", ".global .u32 a, b, c;"),
                 ("multiple_names_init", ".global .u32 a = 1, b = 2;"),
                 ("multiple_names_array", ".global .u32 a[2], b[3];"),
                 ("shared_multiple_names", ".shared .u32 a, b;"),
                 ]:
        add("B.syntax." + n, decl_module(d))

    # --- B.vector: vector width x type, global and reg ---
    for v in [".v2", ".v4", ".v8", ".v3", ".v1", ".v16"]:
        if v in (".v2", ".v4"):
            types = ALL_TYPES
        elif v == ".v8":
            types = [".b8", ".b16", ".b32", ".f16", ".f32", ".b64"]
        else:
            types = [".b32"]
        for t in types:
            add("B.vector.global.%s.%s" % (v[1:], t[1:]), decl_module(".global %s %s v;" % (v, t)))
            add("B.vector.reg.%s.%s" % (v[1:], t[1:]), decl_module("", body=".reg %s %s v;" % (v, t)))
        for t in [".u32", ".f64"] if v in (".v2", ".v4") else [".u32"]:
            add("B.vector.shared.%s.%s" % (v[1:], t[1:]), decl_module(".shared %s %s v;" % (v, t)))
            add("B.vector.local_in_kernel.%s.%s" % (v[1:], t[1:]),
                decl_module("", body=".local %s %s v;" % (v, t)))
            add("B.vector.const.%s.%s" % (v[1:], t[1:]), decl_module(".const %s %s v;" % (v, t)))
    for n, d in [("v2v2", ".global .v2 .v2 .u32 v;"), ("type_before_vec", ".global .u32 .v2 v;"),
                 ("vec_no_type", ".global .v2 v;"), ("vec_array", ".global .v4 .f32 v[8];"),
                 ("vec_array_init", ".global .v2 .u32 v[2] = {{1, 2}, {3, 4}};"),
                 ("vec_init", ".global .v4 .f32 v = {1.0, 2.0, 3.0, 4.0};"),
                 ("vec_init_short", ".global .v4 .u32 v = {1, 2};"),
                 ("vec_init_long", ".global .v2 .u32 v = {1, 2, 3};"),
                 ("vec_init_scalar", ".global .v2 .u32 v = 1;"),
                 ("vec_align16", ".global .align 16 .v4 .u32 v;"),
                 ("vec_align4", ".global .align 4 .v4 .u32 v;"),
                 ("vec_param_kernel", None)]:
        if d is None:
            add("B.vector." + n, header() + "\n.visible .entry k(.param .v2 .u32 p)\n{\n\tret;\n}\n")
        else:
            add("B.vector." + n, decl_module(d))

    # --- B.array ---
    arrays = [
        ("fixed", ".global .u32 a[4];"),
        ("fixed_init", ".global .u32 a[4] = {1, 2, 3, 4};"),
        ("omitted_dim_init", ".global .u32 a[] = {1, 2, 3};"),
        ("omitted_dim_no_init", ".global .u32 a[];"),
        ("omitted_dim_extern", ".extern .global .u32 a[];"),
        ("omitted_dim_shared_extern", ".extern .shared .align 16 .b8 a[];"),
        ("omitted_dim_shared_no_extern", ".shared .b8 a[];"),
        ("omitted_dim_const_init", ".const .f32 a[] = {-1.0, 1.0};"),
        ("omitted_dim_empty_init", ".global .u32 a[] = {};"),
        ("multi_2d", ".global .u16 a[19][19];"),
        ("multi_3d", ".global .u8 a[2][3][4];"),
        ("multi_2d_init", ".global .s32 a[2][2] = {{1, 2}, {3, 4}};"),
        ("multi_omitted_first_init", ".global .s32 a[][2] = {{-1, 0}, {0, -1}, {1, 0}, {0, 1}};"),
        ("multi_omitted_second", ".global .s32 a[2][] = {{1, 2}, {3, 4}};"),
        ("multi_omitted_both", ".global .s32 a[][] = {{1, 2}, {3, 4}};"),
        ("multi_omitted_first_no_init", ".global .s32 a[][2];"),
        ("zero_size", ".global .u32 a[0];"),
        ("negative_size", ".global .u32 a[-1];"),
        ("expr_size", ".global .u32 a[4*4];"),
        ("expr_size_shift", ".global .u32 a[1<<4];"),
        ("expr_size_paren", ".global .u32 a[(2+3)*2];"),
        ("hex_size", ".global .u32 a[0x10];"),
        ("float_size", ".global .u32 a[2.0];"),
        ("name_size", ".global .u32 n;\n.global .u32 a[n];"),
        ("huge_size", ".global .u8 a[4294967296];"),
        ("large_size", ".global .u8 a[1048576];"),
        ("shared_fixed", ".shared .u32 a[128];"),
        ("shared_2d", ".shared .f32 a[16][17];"),
        ("const_fixed", ".const .u32 a[8];"),
        ("param_module_array", ".param .u32 a[8];"),
        ("pred_array_global", ".global .pred a[4];"),
        ("b128_array", ".global .b128 a[4];"),
        ("f16_array", ".global .f16 a[4];"),
    ]
    for n, d in arrays:
        add("B.array." + n, decl_module(d))
    for n, b in [("reg_array", ".reg .u32 a[4];"), ("reg_array_2d", ".reg .u32 a[2][2];"),
                 ("local_array_in_kernel", ".local .u32 a[4];"),
                 ("shared_array_in_kernel", ".shared .u32 a[4];"),
                 ("param_array_in_kernel", ".param .u32 a[4];"),
                 ("reg_pred_array", ".reg .pred a[4];"),
                 ("local_omitted_dim", ".local .u32 a[];"),
                 ("reg_vec_array", ".reg .v2 .u32 a[4];")]:
        add("B.array." + n, decl_module("", body=b))
    for n, p in [("kparam_array", ".param .align 8 .b8 p[16]"),
                 ("kparam_array_u32", ".param .u32 p[4]"),
                 ("kparam_array_omitted", ".param .u32 p[]"),
                 ("kparam_array_2d", ".param .u32 p[2][2]")]:
        add("B.array." + n, header() + "\n.visible .entry k(%s)\n{\n\tret;\n}\n" % p)

    # --- B.init: numeric initializers, .global and .const ---
    inits = [
        ("scalar_int", ".u32 v = 10;"),
        ("scalar_neg_unsigned", ".u32 v = -1;"),
        ("scalar_hex", ".u32 v = 0xDEADBEEF;"),
        ("scalar_octal", ".u32 v = 017;"),
        ("scalar_binary", ".u32 v = 0b1011;"),
        ("scalar_u_suffix", ".u32 v = 10U;"),
        ("scalar_too_big_u8", ".u8 v = 300;"),
        ("scalar_too_big_u32", ".u32 v = 0x1FFFFFFFF;"),
        ("scalar_u64_big", ".u64 v = 0xFFFFFFFFFFFFFFFF;"),
        ("scalar_s8_neg", ".s8 v = -128;"),
        ("scalar_expr", ".u32 v = 3*4+1;"),
        ("scalar_expr_shift", ".u32 v = 1<<31;"),
        ("scalar_expr_ternary", ".u32 v = 1 ? 2 : 3;"),
        ("scalar_expr_div0", ".u32 v = 1/0;"),
        ("scalar_float_to_int", ".u32 v = 1.5;"),
        ("scalar_int_to_float", ".f32 v = 1;"),
        ("scalar_float", ".f32 v = 1.5;"),
        ("scalar_float_exp", ".f64 v = 1.5e10;"),
        ("scalar_float_hex_f", ".f32 v = 0f3F800000;"),
        ("scalar_float_hex_d", ".f64 v = 0d3FF0000000000000;"),
        ("scalar_float_hex_d_in_f32", ".f32 v = 0d3FF0000000000000;"),
        ("scalar_float_hex_f_in_f64", ".f64 v = 0f3F800000;"),
        ("scalar_neg_float", ".f32 v = -2.5;"),
        ("scalar_f16", ".f16 v = 1.0;"),
        ("scalar_f16_hex", ".f16 v = 0x3C00;"),
        ("scalar_f16x2", ".f16x2 v = 0;"),
        ("scalar_bf16", ".bf16 v = 0x3F80;"),
        ("scalar_bf16x2", ".bf16x2 v = 0;"),
        ("scalar_pred", ".pred v = 1;"),
        ("scalar_b128", ".b128 v = 1;"),
        ("scalar_b8", ".b8 v = 255;"),
        ("scalar_s64_neg", ".s64 v = -9223372036854775808;"),
        ("scalar_braced", ".u32 v = {5};"),
        ("scalar_empty_braces", ".u32 v = {};"),
        ("scalar_missing_value", ".u32 v = ;"),
        ("array_full", ".u32 a[3] = {1, 2, 3};"),
        ("array_incomplete", ".u32 a[8] = {1, 2, 3};"),
        ("array_too_many", ".u32 a[2] = {1, 2, 3};"),
        ("array_scalar_init", ".u32 a[4] = 5;"),
        ("array_empty_braces", ".u32 a[4] = {};"),
        ("array_trailing_comma", ".u32 a[3] = {1, 2, 3,};"),
        ("array_double_braces", ".u32 a[2] = {{1, 2}};"),
        ("array_nested_elem", ".u32 a[2] = {{1}, {2}};"),
        ("array2d_full", ".s32 a[3][2] = {{1, 2}, {3, 4}, {5, 6}};"),
        ("array2d_incomplete_inner", ".s32 a[3][2] = {{1, 2}, {3}};"),
        ("array2d_incomplete_outer", ".s32 a[3][2] = {{1, 2}};"),
        ("array2d_flat", ".s32 a[2][2] = {1, 2, 3, 4};"),
        ("array2d_too_many_inner", ".s32 a[2][2] = {{1, 2, 3}, {4, 5}};"),
        ("array2d_too_many_outer", ".s32 a[2][2] = {{1, 2}, {3, 4}, {5, 6}};"),
        ("array2d_scalar", ".s32 a[2][2] = 7;"),
        ("array2d_mixed", ".s32 a[2][2] = {{1, 2}, 3};"),
        ("array3d_full", ".u8 a[2][2][2] = {{{1, 2}, {3, 4}}, {{5, 6}, {7, 8}}};"),
        ("array3d_partial", ".u8 a[2][2][2] = {{{1}}, {{5, 6}}};"),
        ("array_omitted_float", ".f32 a[][3] = {{.05, .1, .05}, {.1, .4, .1}, {.05, .1, .05}};"),
        ("array_omitted_nested_incomplete", ".s32 a[][2] = {{1}, {2, 3}};"),
        ("array_omitted_flat", ".s32 a[][2] = {1, 2, 3, 4};"),
        ("array_f16", ".f16 a[2] = {0x3C00, 0};"),
        ("array_pred", ".pred a[2] = {1, 0};"),
        ("array_b8_bytes", ".b8 a[8] = {0, 0, 0, 0, 2, 0, 0, 0};"),
        ("array_u8_char_overflow", ".u8 a[2] = {256, 1};"),
        ("array_neg_in_unsigned", ".u16 a[2] = {-1, 2};"),
        ("vector_v4_f32", ".v4 .f32 v = {1.0, 2.0, 3.0, 4.0};"),
        ("vector_v2_u32_array", ".v2 .u32 v[2] = {{1, 2}, {3, 4}};"),
        ("vector_v4_short", ".v4 .u32 v = {1, 2};"),
    ]
    for n, d in inits:
        for sp in [".global", ".const"]:
            add("B.init.%s.%s" % (sp[1:], n), decl_module("%s %s" % (sp, d)))

    # --- B.init_space: initializers in other spaces ---
    for sp in [".shared", ".local", ".param", ".reg", ".tex"]:
        add("B.init_space.module.%s.scalar" % sp[1:], decl_module("%s .u32 v = 1;" % sp))
        add("B.init_space.module.%s.array" % sp[1:], decl_module("%s .u32 v[2] = {1, 2};" % sp))
    for sp in [".reg", ".local", ".shared", ".param", ".const", ".global"]:
        add("B.init_space.kernel.%s.scalar" % sp[1:], decl_module("", body="%s .u32 v = 1;" % sp))
    add("B.init_space.kernel.reg.array", decl_module("", body=".reg .u32 v[2] = {1, 2};"))
    add("B.init_space.kernel.reg.pred", decl_module("", body=".reg .pred v = 1;"))
    add("B.init_space.kparam_default", header() + "\n.visible .entry k(.param .u32 p = 1)\n{\n\tret;\n}\n")

    # --- B.linkage: extern / visible / weak / common with and without initializers ---
    for link in [".extern", ".visible", ".weak", ".common"]:
        add("B.linkage.%s.global_plain" % link[1:], decl_module("%s .global .u32 v;" % link))
        add("B.linkage.%s.global_init" % link[1:], decl_module("%s .global .u32 v = 1;" % link))
        add("B.linkage.%s.const_init" % link[1:], decl_module("%s .const .u32 v = 1;" % link))
        add("B.linkage.%s.global_array_init" % link[1:],
            decl_module("%s .global .u32 v[2] = {1, 2};" % link))
        add("B.linkage.%s.shared" % link[1:], decl_module("%s .shared .u32 v;" % link))
        add("B.linkage.%s.local" % link[1:], decl_module("%s .local .u32 v;" % link))
        add("B.linkage.%s.in_kernel_global" % link[1:],
            decl_module("", body="%s .global .u32 v;" % link))
        add("B.linkage.%s.in_kernel_reg" % link[1:],
            decl_module("", body="%s .reg .u32 v;" % link))
    add("B.linkage.extern_then_define", decl_module(".extern .global .u32 v;\n.global .u32 v = 3;"))
    add("B.linkage.extern_then_define_visible", decl_module(".extern .global .u32 v;\n.visible .global .u32 v = 3;"))
    add("B.linkage.define_then_extern", decl_module(".global .u32 v = 3;\n.extern .global .u32 v;"))
    add("B.linkage.extern_twice", decl_module(".extern .global .u32 v;\n.extern .global .u32 v;"))
    add("B.linkage.extern_type_mismatch", decl_module(".extern .global .u32 v;\n.global .f32 v;"))
    add("B.linkage.extern_visible", decl_module(".extern .visible .global .u32 v;"))
    add("B.linkage.visible_weak", decl_module(".visible .weak .global .u32 v;"))

    # --- B.addrinit: address-valued initializers ---
    targets_ = {"g": ".global .u32 g[4] = {1, 2, 3, 4};", "c": ".const .u32 c = 42;",
                "s": ".shared .u32 s;", "l": ".local .u32 l;"}
    fn_def = ".func f()\n{\n\tret;\n}"
    addr_forms = [
        ("var", "{v}"), ("var_plus_4", "{v}+4"), ("var_plus_expr", "{v}+(2*4)"),
        ("var_minus_4", "{v}-4"), ("four_plus_var", "4+{v}"), ("var_times_2", "{v}*2"),
        ("generic_var", "generic({v})"), ("generic_var_plus_8", "generic({v})+8"),
        ("generic_of_var_plus", "generic({v}+8)"), ("generic_generic", "generic(generic({v}))"),
        ("var_indexed", "{v}[1]"), ("negated_var", "-{v}"), ("var_plus_var", "{v}+{v}"),
        ("paren_var", "({v})"), ("generic_upper", "GENERIC({v})"),
    ]
    for tv in ["g", "c"]:
        for fn_, expr in addr_forms:
            for dt in [".u64", ".u32"]:
                e = expr.replace("{v}", tv)
                add("B.addrinit.%s.%s.%s" % (tv, fn_, dt[1:]),
                    decl_module(targets_[tv] + "\n.global %s p = %s;" % (dt, e)))
    for tv in ["s"]:
        for fn_, expr in [("var", "{v}"), ("generic_var", "generic({v})"), ("var_plus_4", "{v}+4")]:
            e = expr.replace("{v}", tv)
            add("B.addrinit.%s.%s.u64" % (tv, fn_),
                decl_module(targets_[tv] + "\n.global .u64 p = %s;" % e))
    for dt in [".u8", ".u16", ".u32", ".u64", ".s32", ".s64", ".b32", ".b64", ".f32", ".f64", ".b8"]:
        add("B.addrinit.type.%s" % dt[1:], decl_module(targets_["g"] + "\n.global %s p = g;" % dt))
        add("B.addrinit.type_generic.%s" % dt[1:],
            decl_module(targets_["g"] + "\n.global %s p = generic(g);" % dt))
    misc = [
        ("const_dest_var", targets_["g"] + "\n.const .u64 p = g;"),
        ("const_dest_generic", targets_["g"] + "\n.const .u64 p = generic(g);"),
        ("array_of_ptrs", targets_["g"] + "\n.global .u64 p[3] = {generic(g), generic(g)+4, generic(g)+8};"),
        ("array_of_ptrs_omitted", targets_["g"] + "\n.global .u64 p[] = {g, g+4, g+8};"),
        ("array_of_ptrs_mixed_int", targets_["g"] + "\n.global .u64 p[3] = {g, 0, 7};"),
        ("self_reference", ".global .u64 p = p;"),
        ("self_reference_generic", ".global .u64 p = generic(p);"),
        ("forward_reference", ".global .u64 p = generic(q);\n.global .u32 q;"),
        ("undefined_var", ".global .u64 p = nosuch;"),
        ("generic_undefined", ".global .u64 p = generic(nosuch);"),
        ("func_name", fn_def + "\n.global .u64 p = f;"),
        ("func_name_generic", fn_def + "\n.global .u64 p = generic(f);"),
        ("func_table", fn_def + "\n.global .u64 p[2] = {f, f};"),
        ("func_name_u32", fn_def + "\n.global .u32 p = f;"),
        ("kernel_name", ".visible .entry e()\n{\n\tret;\n}\n.global .u64 p = e;"),
        ("extern_var", ".extern .global .u32 x;\n.global .u64 p = x;"),
        ("extern_var_generic", ".extern .global .u32 x;\n.global .u64 p = generic(x);"),
        ("surfref_var", ".global .surfref sr;\n.global .u64 p = sr;"),
        ("texref_var", ".global .texref tr;\n.global .u64 p = tr;"),
        ("surfref_generic", ".global .surfref sr;\n.global .u64 p = generic(sr);"),
        ("var_in_vec_init", targets_["g"] + "\n.global .v2 .u64 p = {g, g};"),
        ("var_in_f32_array", targets_["g"] + "\n.global .f32 p[2] = {g, 1.0};"),
        ("var_in_u8_array", targets_["g"] + "\n.global .u8 p[2] = {g, 1};"),
        ("generic_of_int", ".global .u64 p = generic(4);"),
        ("offset_past_end", targets_["g"] + "\n.global .u64 p = g+1000;"),
        ("negative_offset_generic", targets_["g"] + "\n.global .u64 p = generic(g)-4;"),
    ]
    for n, d in misc:
        add("B.addrinit.misc." + n, decl_module(d))
    # generic() before PTX 3.1 / legacy semantic
    for ver, tgt in [("3.0", "sm_20"), ("3.1", "sm_20"), ("2.3", "sm_20"), ("4.0", "sm_30"),
                     ("3.1", "sm_35"), ("3.0", "sm_35")]:
        add("B.gate.generic_init.v%s.%s" % (ver.replace(".", "_"), tgt),
            decl_module(targets_["g"] + "\n.global .u64 p = generic(g);", version=ver, target=tgt))
        add("B.gate.plain_addr_init.v%s.%s" % (ver.replace(".", "_"), tgt),
            decl_module(targets_["g"] + "\n.global .u64 p = g;", version=ver, target=tgt))
        add("B.gate.kernel_name_init.v%s.%s" % (ver.replace(".", "_"), tgt),
            decl_module(".visible .entry e()\n{\n\tret;\n}\n.global .u64 p = e;", version=ver, target=tgt))

    # --- B.mask ---
    masks = ["0xFF", "0xFF00", "0XFF0000", "0xFF000000", "0xFF00000000", "0xFF0000000000",
             "0xFF000000000000", "0xFF00000000000000"]
    exprs = [("var", "foo"), ("var_plus_4", "foo+4"), ("generic", "generic(foo)"),
             ("generic_plus_4", "generic(foo)+4"), ("intexpr", "1000+546"), ("int", "131187")]
    base = ".const .u32 foo = 42;\n"
    for m in masks:
        for en, e in exprs:
            add("B.mask.valid.%s.%s" % (m.lower(), en),
                decl_module(base + ".global .u8 addr = %s(%s);" % (m, e)))
    add("B.mask.array_all8", decl_module(
        base + ".global .u8 addr[] = {" + ", ".join("%s(foo)" % m for m in masks) + "};"))
    add("B.mask.array_all8_generic", decl_module(
        base + ".global .u8 addr[] = {" + ", ".join("%s(generic(foo)+4)" % m for m in masks) + "};"))
    add("B.mask.array_intexpr_pair", decl_module(base + ".global .u8 addr5[] = {0xFF(1000 + 546), 0xFF00(131187)};"))
    for m in ["0xF", "0xF0", "0xFFFF", "0xFF0", "0x1FF", "0x7F", "0xFE", "0x100", "0x0", "0x1",
              "0xFFFFFFFF", "0xFF00FF", "255", "65280", "0x0FF", "0xff", "0xfF00"]:
        add("B.mask.value.%s" % slug(m), decl_module(base + ".global .u8 addr = %s(foo);" % m))
    for dt in [".u16", ".u32", ".u64", ".s8", ".b8", ".s32", ".f32", ".b64"]:
        add("B.mask.dest_type.%s" % dt[1:], decl_module(base + ".global %s addr = 0xFF00(foo);" % dt))
    mm = [
        ("of_global_var", ".global .u32 gv;\n.global .u8 addr = 0xFF(gv);"),
        ("of_shared_var", ".shared .u32 sv;\n.global .u8 addr = 0xFF(sv);"),
        ("of_func", ".func f()\n{\n\tret;\n}\n.global .u8 addr = 0xFF(f);"),
        ("of_undefined", ".global .u8 addr = 0xFF(nosuch);"),
        ("of_mask", base + ".global .u8 addr = 0xFF(0xFF00(foo));"),
        ("of_negative", ".global .u8 addr = 0xFF(-1);"),
        ("of_float", ".global .u8 addr = 0xFF(1.5);"),
        ("of_var_minus", base + ".global .u8 addr = 0xFF(foo-4);"),
        ("of_var_plus_var", base + ".global .u8 addr = 0xFF(foo+foo);"),
        ("of_generic_of_plus", base + ".global .u8 addr = 0xFF(generic(foo+4));"),
        ("plus_offset_outside", base + ".global .u8 addr = 0xFF(foo)+1;"),
        ("empty", ".global .u8 addr = 0xFF();"),
        ("space_before_paren", base + ".global .u8 addr = 0xFF (foo);"),
        ("decimal_mask_int", ".global .u8 addr = 255(7);"),
        ("in_const_space", base + ".const .u8 addr = 0xFF(foo);"),
        ("in_shared_space", base + ".shared .u8 addr = 0xFF(foo);"),
        ("in_u8_array_mixed", base + ".global .u8 addr[3] = {0xFF(foo), 7, 0xFF00(foo)};"),
        ("array_too_many", base + ".global .u8 addr[1] = {0xFF(foo), 0xFF00(foo)};"),
        ("intexpr_big", ".global .u8 addr = 0xFF00000000000000(0x1122334455667788);"),
        ("intexpr_mul", ".global .u8 addr = 0xFF00(3*1000);"),
    ]
    for n, d in mm:
        add("B.mask.misc." + n, decl_module(d))
    for ver, tgt in [("7.0", "sm_80"), ("7.1", "sm_80"), ("7.2", "sm_80"), ("7.3", "sm_80"),
                     ("6.5", "sm_75"), ("8.0", "sm_90")]:
        v_ = ver.replace(".", "_")
        add("B.gate.mask_var.v%s.%s" % (v_, tgt),
            decl_module(base + ".global .u8 addr = 0xFF00(foo);", version=ver, target=tgt))
        add("B.gate.mask_intexpr.v%s.%s" % (v_, tgt),
            decl_module(".global .u8 addr = 0xFF(1000+546);", version=ver, target=tgt))
        add("B.gate.mask_generic.v%s.%s" % (v_, tgt),
            decl_module(base + ".global .u8 addr = 0xFF(generic(foo)+4);", version=ver, target=tgt))

    # --- B.align ---
    for a in ["1", "2", "4", "8", "16", "32", "64", "128", "256", "1024", "4096", "65536",
              "0", "3", "6", "12", "24", "100", "-4", "0x10", "2*8"]:
        add("B.align.global_u32.%s" % slug(a), decl_module(".global .align %s .u32 v;" % a))
    for sp in [".const", ".shared"]:
        for a in ["1", "8", "16", "3", "0"]:
            add("B.align.%s.%s" % (sp[1:], a), decl_module("%s .align %s .b8 v[16];" % (sp, a)))
    for a in ["4", "8", "3"]:
        add("B.align.reg_in_kernel.%s" % a, decl_module("", body=".reg .align %s .b32 v;" % a))
        add("B.align.local_in_kernel.%s" % a, decl_module("", body=".local .align %s .b8 v[8];" % a))
        add("B.align.shared_in_kernel.%s" % a, decl_module("", body=".shared .align %s .b8 v[8];" % a))
        add("B.align.kparam.%s" % a,
            header() + "\n.visible .entry k(.param .align %s .b8 p[16])\n{\n\tret;\n}\n" % a)
    for n, d in [("after_type", ".global .u32 .align 8 v;"), ("before_space", ".align 8 .global .u32 v;"),
                 ("twice", ".global .align 8 .align 16 .u32 v;"), ("missing_value", ".global .align .u32 v;"),
                 ("with_init", ".global .align 8 .u32 v = 5;"),
                 ("with_array_init", ".const .align 4 .b8 bar[8] = {0, 0, 0, 0, 2, 0, 0, 0};"),
                 ("vector_smaller", ".global .align 2 .v2 .f32 v;"),
                 ("with_extern", ".extern .global .align 16 .u32 v;"),
                 ("after_attribute", ".global .attribute(.managed) .align 8 .u32 v;"),
                 ("before_attribute", ".global .align 8 .attribute(.managed) .u32 v;")]:
        add("B.align." + n, decl_module(d))

    # --- B.paramname: %r<N> in every space ---
    for sp in [".reg", ".local", ".shared", ".param", ".global", ".const"]:
        for n in ["0", "1", "100", "65536"]:
            add("B.paramname.kernel.%s.n%s" % (sp[1:], n), decl_module("", body="%s .b32 %%r<%s>;" % (sp, n)))
    for sp in [".global", ".const", ".shared", ".local", ".reg", ".param"]:
        add("B.paramname.module.%s.n4" % sp[1:], decl_module("%s .b32 %%r<4>;" % sp))
        add("B.paramname.module.%s.plain_name" % sp[1:], decl_module("%s .b32 r<4>;" % sp))
    pn = [
        ("reg_array", ".reg .b32 %r<4>[2];"),
        ("global_array", None), ("reg_init", ".reg .b32 %r<4> = 0;"),
        ("reg_init_braces", ".reg .b32 %r<4> = {1, 2, 3, 4};"),
        ("reg_align", ".reg .align 8 .b32 %r<4>;"),
        ("local_align", ".local .align 8 .b32 %r<4>;"),
        ("reg_vector", ".reg .v2 .b32 %r<4>;"),
        ("reg_pred", ".reg .pred %p<4>;"),
        ("reg_negative", ".reg .b32 %r<-1>;"),
        ("reg_expr", ".reg .b32 %r<2*4>;"),
        ("reg_hex", ".reg .b32 %r<0x10>;"),
        ("reg_empty", ".reg .b32 %r<>;"),
        ("reg_name_ok_then_use", ".reg .b32 %r<4>;\nmov.b32 %r3, 0;"),
        ("reg_use_out_of_range", ".reg .b32 %r<4>;\nmov.b32 %r4, 0;"),
        ("reg_two_ranges_same_prefix", ".reg .b32 %r<4>;\n.reg .b32 %r<8>;"),
        ("reg_range_and_plain_dup", ".reg .b32 %r<4>;\n.reg .b32 %r2;"),
        ("reg_range_and_plain_beyond", ".reg .b32 %r<4>;\n.reg .b32 %r4;"),
        ("reg_range_in_list", ".reg .b32 %a<2>, %b<2>;"),
        ("reg_range_mixed_list", ".reg .b32 %a<2>, %b;"),
        ("reg_range_no_percent_use", ".reg .b32 r<4>;\nmov.b32 r1, 0;"),
        ("reg_range_leading_zero_use", ".reg .b32 %r<20>;\nmov.b32 %r01, 0;"),
        ("reg_range_prefix_digit", ".reg .b32 %r1<4>;"),
        ("local_use_range_member", ".local .b32 %q<4>;\n.reg .b32 %t;\nld.local.b32 %t, [%q2];"),
    ]
    for n, b in pn:
        if b is None:
            add("B.paramname." + n, decl_module(".global .b32 %g<4>[2];"))
        else:
            add("B.paramname." + n, decl_module("", body=b))

    # --- B.pred: predicates outside .reg ---
    for sp in [".global", ".const", ".shared", ".local", ".param"]:
        add("B.pred.module.%s" % sp[1:], decl_module("%s .pred p;" % sp))
    for sp in [".reg", ".local", ".shared", ".param"]:
        add("B.pred.kernel.%s" % sp[1:], decl_module("", body="%s .pred p;" % sp))
    add("B.pred.kparam", header() + "\n.visible .entry k(.param .pred p)\n{\n\tret;\n}\n")
    add("B.pred.fparam", header() + "\n.func f(.param .pred p)\n{\n\tret;\n}\n\n.visible .entry k()\n{\n\tret;\n}\n")
    add("B.pred.freg_param", header() + "\n.func f(.reg .pred p)\n{\n\tret;\n}\n\n.visible .entry k()\n{\n\tret;\n}\n")
    add("B.pred.vector", decl_module("", body=".reg .v2 .pred p;"))

    # --- B.attr: .attribute(.managed) / .unified ---
    attrs = [
        ("managed_global", ".global .attribute(.managed) .s32 g;"),
        ("managed_global_u64", ".global .attribute(.managed) .u64 x;"),
        ("managed_global_init", ".global .attribute(.managed) .u32 g = 5;"),
        ("managed_global_array", ".global .attribute(.managed) .u32 g[16];"),
        ("managed_visible", ".visible .global .attribute(.managed) .u32 g;"),
        ("managed_extern", ".extern .global .attribute(.managed) .u32 g;"),
        ("managed_const", ".const .attribute(.managed) .u32 g;"),
        ("managed_shared", ".shared .attribute(.managed) .u32 g;"),
        ("managed_local", ".local .attribute(.managed) .u32 g;"),
        ("managed_surfref", ".global .attribute(.managed) .surfref g;"),
        ("managed_texref", ".global .attribute(.managed) .texref g;"),
        ("managed_before_space", ".attribute(.managed) .global .u32 g;"),
        ("managed_after_type", ".global .u32 .attribute(.managed) g;"),
        ("managed_twice", ".global .attribute(.managed, .managed) .u32 g;"),
        ("managed_no_dot", ".global .attribute(managed) .u32 g;"),
        ("empty_attribute", ".global .attribute() .u32 g;"),
        ("unknown_attribute", ".global .attribute(.pinned) .u32 g;"),
        ("unified_global", ".global .attribute(.unified(19, 95)) .f32 f;"),
        ("unified_global_hex", ".global .attribute(.unified(0xAB, 0xCD)) .u32 f;"),
        ("unified_global_init", ".global .attribute(.unified(1, 2)) .u32 f = 3;"),
        ("unified_one_arg", ".global .attribute(.unified(19)) .f32 f;"),
        ("unified_three_args", ".global .attribute(.unified(1, 2, 3)) .f32 f;"),
        ("unified_no_args", ".global .attribute(.unified) .f32 f;"),
        ("unified_empty_args", ".global .attribute(.unified()) .f32 f;"),
        ("unified_neg", ".global .attribute(.unified(-1, 2)) .f32 f;"),
        ("unified_big", ".global .attribute(.unified(0xFFFFFFFFFFFFFFFF, 0xFFFFFFFFFFFFFFFF)) .f32 f;"),
        ("unified_const", ".const .attribute(.unified(1, 2)) .f32 f;"),
        ("unified_shared", ".shared .attribute(.unified(1, 2)) .f32 f;"),
        ("unified_and_managed", ".global .attribute(.managed, .unified(1, 2)) .f32 f;"),
        ("unified_func", ".func .attribute(.unified(0xAB, 0xCD)) bar()\n{\n\tret;\n}"),
        ("unified_func_no_args", ".func .attribute(.unified) bar()\n{\n\tret;\n}"),
        ("managed_func", ".func .attribute(.managed) bar()\n{\n\tret;\n}"),
        ("unified_entry", ".entry .attribute(.unified(1, 2)) bar()\n{\n\tret;\n}"),
    ]
    for n, d in attrs:
        add("B.attr." + n, decl_module(d))
    add("B.attr.managed_in_kernel_local", decl_module("", body=".local .attribute(.managed) .u32 g;"))
    add("B.attr.managed_in_kernel_reg", decl_module("", body=".reg .attribute(.managed) .u32 g;"))
    add("B.attr.managed_kparam", header() + "\n.visible .entry k(.param .attribute(.managed) .u32 p)\n{\n\tret;\n}\n")
    for ver, tgt in [("3.2", "sm_30"), ("4.0", "sm_30"), ("4.0", "sm_20"), ("4.0", "sm_13"),
                     ("6.0", "sm_35"), ("9.0", "sm_90")]:
        v_ = ver.replace(".", "_")
        add("B.gate.managed.v%s.%s" % (v_, tgt),
            decl_module(".global .attribute(.managed) .u32 g;", version=ver, target=tgt))
    for ver, tgt in [("7.8", "sm_90"), ("8.0", "sm_90"), ("8.0", "sm_80"), ("8.0", "sm_89"),
                     ("8.4", "sm_90"), ("9.0", "sm_80")]:
        v_ = ver.replace(".", "_")
        add("B.gate.unified_var.v%s.%s" % (v_, tgt),
            decl_module(".global .attribute(.unified(1, 2)) .u32 g;", version=ver, target=tgt))
        add("B.gate.unified_func.v%s.%s" % (v_, tgt),
            decl_module(".func .attribute(.unified(1, 2)) bar()\n{\n\tret;\n}", version=ver, target=tgt))

    # --- B.dup: duplicate definitions ---
    dups = [
        ("global_global", ".global .u32 v;\n.global .u32 v;", ""),
        ("global_const", ".global .u32 v;\n.const .u32 v;", ""),
        ("global_shared", ".global .u32 v;\n.shared .u32 v;", ""),
        ("global_diff_type", ".global .u32 v;\n.global .f32 v;", ""),
        ("global_init_twice", ".global .u32 v = 1;\n.global .u32 v = 1;", ""),
        ("global_and_func", ".global .u32 f;\n.func f()\n{\n\tret;\n}", ""),
        ("global_and_kernel", ".global .u32 k;", ""),
        ("func_twice", ".func f()\n{\n\tret;\n}\n.func f()\n{\n\tret;\n}", ""),
        ("surfref_twice", ".global .surfref s;\n.global .surfref s;", ""),
        ("surfref_and_u32", ".global .surfref s;\n.global .u32 s;", ""),
        ("texref_and_surfref", ".global .texref t;\n.global .surfref t;", ""),
        ("reg_reg", "", ".reg .u32 v;\n.reg .u32 v;"),
        ("reg_diff_type", "", ".reg .u32 v;\n.reg .f32 v;"),
        ("reg_local", "", ".reg .u32 v;\n.local .u32 v;"),
        ("local_local", "", ".local .u32 v;\n.local .u32 v;"),
        ("reg_shadows_global", ".global .u32 v;", ".reg .u32 v;"),
        ("local_shadows_global", ".global .u32 v;", ".local .u32 v;"),
        ("reg_in_nested_block", "", ".reg .u32 v;\n{\n\t.reg .u32 v;\n}"),
        ("reg_in_sibling_blocks", "", "{\n\t.reg .u32 v;\n}\n{\n\t.reg .u32 v;\n}"),
        ("reg_list_dup", "", ".reg .u32 v, v;"),
        ("reg_range_overlap", "", ".reg .u32 %v<4>;\n.reg .u32 %v<2>;"),
        ("reg_same_as_kernel", "", ".reg .u32 k;"),
        ("label_and_reg", "", ".reg .u32 L;\nL:\n"),
        ("label_twice", "", "L:\nL:\n"),
    ]
    for n, d, b in dups:
        add("B.dup." + n, decl_module(d, body=b))
    add("B.dup.kparam_twice", header() + "\n.visible .entry k(.param .u32 p, .param .u32 p)\n{\n\tret;\n}\n")
    add("B.dup.kparam_and_reg", header() + "\n.visible .entry k(.param .u32 p)\n{\n\t.reg .u32 p;\n\tret;\n}\n")
    add("B.dup.kernel_twice", header() + "\n.visible .entry k()\n{\n\tret;\n}\n\n.visible .entry k()\n{\n\tret;\n}\n")


# ---------------------------------------------------------------------------
# C. opaque types
# ---------------------------------------------------------------------------

OPAQUE = [".texref", ".samplerref", ".surfref"]
MODES = [("default", "sm_90"), ("independent", "sm_90, texmode_independent"),
         ("unified", "sm_90, texmode_unified")]


def gen_opaque():
    # --- C.place: where an opaque variable may be declared ---
    for mname, tgt in MODES:
        for ty in OPAQUE:
            t = ty[1:]
            places = [
                ("module_global", "%s v;" % (".global " + ty), "", "", None),
                ("module_visible_global", ".visible .global %s v;" % ty, "", "", None),
                ("module_extern_global", ".extern .global %s v;" % ty, "", "", None),
                ("module_weak_global", ".weak .global %s v;" % ty, "", "", None),
                ("module_const", ".const %s v;" % ty, "", "", None),
                ("module_shared", ".shared %s v;" % ty, "", "", None),
                ("module_local", ".local %s v;" % ty, "", "", None),
                ("module_param", ".param %s v;" % ty, "", "", None),
                ("module_no_space", "%s v;" % ty, "", "", None),
                ("module_global_array", ".global %s v[4];" % ty, "", "", None),
                ("module_global_vector", ".global .v2 %s v;" % ty, "", "", None),
                ("module_global_align", ".global .align 8 %s v;" % ty, "", "", None),
                ("kernel_param", "", ".param %s p" % ty, "", None),
                ("kernel_param_ptr", "", ".param .u64 .ptr %s p" % ty, "", None),
                ("kernel_param_ptr_align", "", ".param .u64 .ptr %s .align 8 p" % ty, "", None),
                ("kernel_param_no_space", "", "%s p" % ty, "", None),
                ("kernel_body_reg", "", "", ".reg %s v;" % ty, None),
                ("kernel_body_local", "", "", ".local %s v;" % ty, None),
                ("kernel_body_global", "", "", ".global %s v;" % ty, None),
                ("kernel_body_param", "", "", ".param %s v;" % ty, None),
                ("kernel_body_shared", "", "", ".shared %s v;" % ty, None),
                ("func_param", None, None, None,
                 ".func f(.param %s p)\n{\n\tret;\n}" % ty),
                ("func_reg_param", None, None, None,
                 ".func f(.reg %s p)\n{\n\tret;\n}" % ty),
                ("func_body_global", None, None, None,
                 ".func f()\n{\n\t.global %s v;\n\tret;\n}" % ty),
                ("func_return_param", None, None, None,
                 ".func (.param %s r) f()\n{\n\tret;\n}" % ty),
            ]
            for pname, decls, params, body, fn in places:
                name = "C.place.%s.%s.%s" % (mname, t, pname)
                if fn is not None:
                    add(name, header(target=tgt) + "\n" + fn + "\n\n.visible .entry k()\n{\n\tret;\n}\n")
                else:
                    txt = header(target=tgt) + "\n"
                    if decls:
                        txt += decls + "\n\n"
                    txt += ".visible .entry k(%s)\n{\n" % params
                    if body:
                        txt += "\t" + body + "\n"
                    txt += "\tret;\n}\n"
                    add(name, txt)

    # --- C.init: static initializers of every member ---
    members = [
        ("width", "64"), ("height", "32"), ("depth", "8"),
        ("channel_data_type", "0x10D2"), ("channel_order", "0x10B5"),
        ("normalized_coords", "1"), ("force_unnormalized_coords", "1"),
        ("filter_mode", "linear"), ("addr_mode_0", "wrap"), ("addr_mode_1", "mirror"),
        ("addr_mode_2", "clamp_to_border"), ("array_size", "4"),
        ("num_mipmap_levels", "3"), ("num_samples", "4"), ("memory_layout", "1"),
    ]
    for mname, tgt in MODES:
        for ty in OPAQUE:
            for mem, val in members:
                add("C.init.%s.%s.%s" % (mname, ty[1:], mem),
                    decl_module(".global %s v = { %s = %s };" % (ty, mem, val), target=tgt))
    # --- C.initval: values of the enumerated / boolean members ---
    vals = []
    for fm in ["nearest", "linear", "cubic", "point", "0", "1", "NEAREST"]:
        vals.append(("filter_mode", fm))
    for am in ["wrap", "mirror", "clamp_ogl", "clamp_to_edge", "clamp_to_border",
               "clamp", "border", "repeat", "0"]:
        for i in ["0", "1", "2"]:
            if am in ("wrap", "mirror", "clamp_ogl", "clamp_to_edge", "clamp_to_border") or i == "0":
                vals.append(("addr_mode_" + i, am))
    for b in ["0", "1", "2", "-1", "true"]:
        vals.append(("normalized_coords", b))
        vals.append(("force_unnormalized_coords", b))
    for b in ["0", "1", "2"]:
        vals.append(("memory_layout", b))
    for w in ["0", "65536", "-1", "4*16", "0x40", "1.5", "wrap"]:
        vals.append(("width", w))
    for cd in ["0x10D0", "0x10DE", "0x10DF", "0", "CL_FLOAT"]:
        vals.append(("channel_data_type", cd))
    for co in ["0x10B0", "0x10B9", "0x10BA", "CL_RGBA"]:
        vals.append(("channel_order", co))
    for mem in ["addr_mode_3", "mipmap_filter_mode", "border_color", "foo", "WIDTH", "format"]:
        vals.append((mem, "1"))
    samp_mode = {"texref": ("default", "sm_90"), "samplerref": ("independent", "sm_90, texmode_independent"),
                 "surfref": ("default", "sm_90")}
    for ty in OPAQUE:
        t = ty[1:]
        mname, tgt = samp_mode[t]
        for mem, val in vals:
            add("C.initval.%s.%s.%s.%s" % (mname, t, mem, slug(val)),
                decl_module(".global %s v = { %s = %s };" % (ty, mem, val), target=tgt))
    # texref under independent mode: sampler fields are "ignored"
    for mem, val in [("filter_mode", "linear"), ("addr_mode_0", "clamp_to_edge"),
                     ("normalized_coords", "1"), ("filter_mode", "bogus")]:
        add("C.initval.independent.texref.%s.%s" % (mem, slug(val)),
            decl_module(".global .texref v = { %s = %s };" % (mem, val), target="sm_90, texmode_independent"))
    # --- C.initform: shape of the initializer list ---
    forms = [
        ("spec_example", ".global .samplerref tsamp1 = { addr_mode_0 = clamp_to_border,\n"
                         "                               filter_mode = nearest\n                             };", 1),
        ("all_sampler_fields", ".global .samplerref s = { addr_mode_0 = wrap, addr_mode_1 = mirror, "
                               "addr_mode_2 = clamp_ogl, filter_mode = linear, force_unnormalized_coords = 1 };", 1),
        ("all_texref_fields", ".global .texref t = { width = 64, height = 64, depth = 1, "
                              "channel_data_type = 0x10DE, channel_order = 0x10B5, normalized_coords = 0, "
                              "filter_mode = nearest, addr_mode_0 = wrap, addr_mode_1 = wrap, addr_mode_2 = wrap, "
                              "array_size = 1, num_mipmap_levels = 1, num_samples = 1 };", 0),
        ("all_surfref_fields", ".global .surfref s = { width = 64, height = 64, depth = 1, "
                               "channel_data_type = 0x10DE, channel_order = 0x10B5, array_size = 1, "
                               "memory_layout = 1 };", 0),
        ("empty_braces", ".global .texref t = { };", 0),
        ("no_braces", ".global .texref t = width = 4;", 0),
        ("positional", ".global .texref t = { 64, 32 };", 0),
        ("scalar", ".global .texref t = 0;", 0),
        ("duplicate_member", ".global .texref t = { width = 4, width = 8 };", 0),
        ("trailing_comma", ".global .texref t = { width = 4, };", 0),
        ("missing_value", ".global .texref t = { width = };", 0),
        ("colon_instead", ".global .texref t = { width : 4 };", 0),
        ("dotted_member", ".global .texref t = { .width = 4 };", 0),
        ("semicolon_sep", ".global .texref t = { width = 4; height = 4 };", 0),
        ("nested_braces", ".global .texref t = { { width = 4 } };", 0),
        ("array_of_texref_init", ".global .texref t[2] = { { width = 4 }, { width = 8 } };", 0),
        ("extern_with_init", ".extern .global .texref t = { width = 4 };", 0),
        ("visible_with_init", ".visible .global .texref t = { width = 4 };", 0),
        ("surf_with_filter", ".global .surfref s = { filter_mode = nearest };", 0),
        ("surf_with_addr_mode", ".global .surfref s = { addr_mode_0 = wrap };", 0),
        ("sampler_with_width", ".global .samplerref s = { width = 4 };", 1),
        ("sampler_with_memory_layout", ".global .samplerref s = { memory_layout = 1 };", 1),
        ("texref_with_memory_layout", ".global .texref t = { memory_layout = 1 };", 0),
        ("u32_with_member_init", ".global .u32 v = { width = 4 };", 0),
        ("var_as_value", ".global .u32 w = 4;\n.global .texref t = { width = w };", 0),
        ("opaque_as_value", ".global .surfref s;\n.global .texref t = { width = s };", 0),
    ]
    for n, d, indep in forms:
        for mname, tgt in [MODES[0], MODES[1]]:
            add("C.initform.%s.%s" % (mname, n), decl_module(d, target=tgt))
    add("C.initform.kparam_with_init",
        header() + "\n.visible .entry k(.param .texref t = { width = 4 })\n{\n\tret;\n}\n")

    # --- C.use: mov / ld / st / arithmetic on opaque variables, tex/txq/suq uses ---
    uses = [
        ("mov_u64", "mov.u64 %rd1, v;"),
        ("mov_b64", "mov.b64 %rd1, v;"),
        ("mov_s64", "mov.s64 %rd1, v;"),
        ("mov_u32", "mov.u32 %r1, v;"),
        ("mov_b32", "mov.b32 %r1, v;"),
        ("mov_to_opaque", "mov.u64 v, %rd1;"),
        ("ld_global_u64", "ld.global.u64 %rd1, [v];"),
        ("ld_u64_generic", "ld.u64 %rd1, [v];"),
        ("ld_global_b32", "ld.global.b32 %r1, [v];"),
        ("st_global_u64", "st.global.u64 [v], %rd1;"),
        ("cvta_global", "cvta.global.u64 %rd1, v;"),
        ("add_u64", "add.u64 %rd1, v, 8;"),
        ("mov_plus_offset", "mov.u64 %rd1, v+8;"),
        ("cvt_u64", "cvt.u64.u32 %rd1, v;"),
        ("st_pointer_to_global", "mov.u64 %rd1, v;\nst.global.u64 [gp], %rd1;"),
        ("atom_add", "atom.global.add.u32 %r1, [v], 1;"),
        ("prefetch", "prefetch.global.L1 [v];"),
        ("isspacep", "isspacep.global %p1, v;"),
    ]
    for mname, tgt in MODES:
        for ty in OPAQUE:
            if ty == ".samplerref" and mname != "independent":
                # under texmode_unified the declaration itself is rejected
                add("C.use.%s.samplerref.mov_u64" % mname,
                    kernel_module("mov.u64 %rd1, v;", ".global .samplerref v;", target=tgt))
                continue
            for n, b in uses:
                d = ".global %s v;\n.global .u64 gp;" % ty
                add("C.use.%s.%s.%s" % (mname, ty[1:], n), kernel_module(b, d, target=tgt))
            add("C.use.%s.%s.mov_u64_kparam" % (mname, ty[1:]),
                kernel_module("mov.u64 %rd1, p;", "", params=".param %s p" % ty, target=tgt))
            add("C.use.%s.%s.ld_param_kparam" % (mname, ty[1:]),
                kernel_module("ld.param.u64 %rd1, [p];", "", params=".param %s p" % ty, target=tgt))
    # texture instructions in both modes
    tex_uses = [
        ("tex_2d_unified_form", ".global .texref t;",
         "tex.2d.v4.f32.f32 {%f0, %f1, %f2, %f3}, [t, {%f4, %f5}];"),
        ("tex_2d_independent_form", ".global .texref t;\n.global .samplerref s;",
         "tex.2d.v4.f32.f32 {%f0, %f1, %f2, %f3}, [t, s, {%f4, %f5}];"),
        ("tex_1d_s32_coords", ".global .texref t;",
         "tex.1d.v4.s32.s32 {%r0, %r1, %r2, %r3}, [t, {%r4}];"),
        ("tex_indirect_u64", ".global .texref t;",
         "mov.u64 %rd1, t;\ntex.2d.v4.f32.f32 {%f0, %f1, %f2, %f3}, [%rd1, {%f4, %f5}];"),
        ("tex_on_surfref", ".global .surfref t;",
         "tex.2d.v4.f32.f32 {%f0, %f1, %f2, %f3}, [t, {%f4, %f5}];"),
        ("txq_width", ".global .texref t;", "txq.width.b32 %r0, [t];"),
        ("txq_filter_mode_on_texref", ".global .texref t;", "txq.filter_mode.b32 %r0, [t];"),
        ("txq_filter_mode_on_sampler", ".global .samplerref s;", "txq.filter_mode.b32 %r0, [s];"),
        ("txq_force_unnorm_on_sampler", ".global .samplerref s;", "txq.force_unnormalized_coords.b32 %r0, [s];"),
        ("txq_on_surfref", ".global .surfref t;", "txq.width.b32 %r0, [t];"),
        ("suq_on_texref", ".global .texref t;", "suq.width.b32 %r0, [t];"),
        ("suld_on_texref", ".global .texref t;", "suld.b.1d.b32.trap %r0, [t, {%r8}];"),
        ("suld_on_samplerref", ".global .samplerref t;", "suld.b.1d.b32.trap %r0, [t, {%r8}];"),
        ("tld4_unified", ".global .texref t;",
         "tld4.r.2d.v4.f32.f32 {%f0, %f1, %f2, %f3}, [t, {%f4, %f5}];"),
    ]
    for mname, tgt in MODES:
        for n, d, b in tex_uses:
            add("C.tex.%s.%s" % (mname, n), kernel_module(b, d, target=tgt))

    # --- C.mode: texmode directives ---
    modes = [
        ("unified_and_independent", "sm_90, texmode_unified, texmode_independent"),
        ("independent_twice", "sm_90, texmode_independent, texmode_independent"),
        ("independent_first", "texmode_independent, sm_90"),
        ("independent_only", "texmode_independent"),
        ("independent_old_target", "sm_20, texmode_independent"),
        ("independent_debug", "sm_90, texmode_independent, debug"),
        ("unknown_texmode", "sm_90, texmode_separate"),
        ("independent_sm_10", "sm_10, texmode_independent"),
    ]
    for n, tgt in modes:
        add("C.mode." + n, decl_module(".global .samplerref s;", target=tgt))
    for ver, tgt in [("1.4", "sm_13, texmode_independent"), ("1.5", "sm_13, texmode_independent"),
                     ("2.0", "sm_20, texmode_independent"), ("3.0", "sm_20, texmode_independent"),
                     ("1.5", "sm_13, texmode_unified"), ("9.0", "sm_90, texmode_independent")]:
        addr = "64" if float(ver) >= 2.3 else None
        add("C.gate.texmode.v%s.%s" % (ver.replace(".", "_"), slug(tgt)),
            decl_module(".global .texref t;", version=ver, target=tgt, addr=addr))
    # opaque pointer kernel params per cicc (.param .u64 .ptr .texref)
    for ver in ["4.0", "4.1", "4.2", "4.3", "5.0", "6.0", "7.0", "9.0"]:
        add("C.gate.kparam_ptr_texref.v%s" % ver.replace(".", "_"),
            decl_module("", version=ver, target="sm_50") .replace(
                ".visible .entry k()", ".visible .entry k(.param .u64 .ptr .texref p)"))


# ---------------------------------------------------------------------------
# D. .version / .target / .address_size
# ---------------------------------------------------------------------------

def min_module(version, target, addr=None, body=""):
    t = header(version, target, addr) + "\n.visible .entry k()\n{\n"
    if body:
        t += "\t" + body + "\n"
    return t + "\tret;\n}\n"


def gen_version():
    versions = ["1.0", "1.4", "1.5", "2.0", "2.1", "2.2", "2.3", "3.0", "3.1", "3.2",
                "4.0", "4.1", "4.2", "4.3", "5.0", "6.0", "6.3", "6.5", "7.0", "7.1",
                "7.3", "7.5", "7.8", "8.0", "8.1", "8.3", "8.5", "8.7", "8.8", "9.0",
                "9.1", "9.9"]
    targets = ["sm_10", "sm_13", "sm_20", "sm_21", "sm_30", "sm_35", "sm_50", "sm_53",
               "sm_60", "sm_70", "sm_72", "sm_75", "sm_80", "sm_86", "sm_87", "sm_89",
               "sm_90", "sm_90a", "sm_100", "sm_120"]
    for v in versions:
        for t in targets:
            add("D.vt.v%s.%s" % (v.replace(".", "_"), t), min_module(v, t))
    # extra targets / spellings at a current version
    for t in ["sm_11", "sm_12", "sm_32", "sm_37", "sm_52", "sm_61", "sm_62", "sm_88",
              "sm_100a", "sm_101", "sm_103", "sm_110", "sm_121", "sm_100f", "sm_90f",
              "compute_90", "compute_80", "compute_90a", "sm_9", "sm_900", "sm_89a", "sm_80a",
              "SM_90", "sm90", "gfx90a", "sm_19", "sm_99", "sm_00"]:
        add("D.target.v9_0.%s" % slug(t), min_module("9.0", t))
    # target options
    opts = ["debug", "map_f64_to_f32", "texmode_unified", "texmode_independent", "foo"]
    for t in ["sm_10", "sm_13", "sm_20", "sm_80", "sm_90", "sm_90a"]:
        for o in opts:
            for v in ["3.0", "9.0"]:
                add("D.targetopt.v%s.%s.%s" % (v.replace(".", "_"), t, o),
                    min_module(v, "%s, %s" % (t, o)))
    for n, tgt in [("two_sms", "sm_90, sm_80"), ("opt_first", "debug, sm_90"),
                   ("no_comma", "sm_90 debug"), ("trailing_comma", "sm_90,"),
                   ("only_debug", "debug"), ("debug_twice", "sm_90, debug, debug"),
                   ("map_and_debug", "sm_13, map_f64_to_f32, debug"),
                   ("empty", ""), ("all_three", "sm_13, texmode_independent, map_f64_to_f32"),
                   ("sm_12_map", "sm_12, map_f64_to_f32"), ("sm_11_map", "sm_11, map_f64_to_f32"),
                   ("all_three_sm_10", "sm_10, texmode_independent, map_f64_to_f32")]:
        add("D.targetform." + n, min_module("9.0", tgt))
    # `, debug` needs DWARF sections in the module; an (empty) .debug_info is enough
    add("D.targetform.debug_with_debug_info_section",
        min_module("9.0", "sm_90, debug", "64") + ".section .debug_info\n{\n}\n")
    add("D.targetform.no_debug_with_debug_info_section",
        min_module("9.0", "sm_90", "64") + ".section .debug_info\n{\n}\n")
    # .address_size
    for a in ["32", "64", None, "16", "128", "48", "0"]:
        for v, t in [("2.2", "sm_20"), ("2.3", "sm_20"), ("3.0", "sm_20"), ("4.0", "sm_30"),
                     ("7.0", "sm_70"), ("9.0", "sm_90"), ("9.0", "sm_13")]:
            add("D.addrsize.%s.v%s.%s" % (a or "missing", v.replace(".", "_"), t), min_module(v, t, a))
    # address_size with 64-bit ops under 32
    add("D.addrsize.32.ld_u64_param", min_module("9.0", "sm_90", "32",
        ".reg .b64 %rd<2>;\n\tld.global.u64 %rd1, [%rd0];"))
    add("D.addrsize.32.ld_u32_addr", min_module("9.0", "sm_90", "32",
        ".reg .b32 %r<2>;\n\tld.global.u32 %r1, [%r0];"))
    add("D.addrsize.64.ld_u32_addr", min_module("9.0", "sm_90", "64",
        ".reg .b32 %r<2>;\n\tld.global.u32 %r1, [%r0];"))
    add("D.addrsize.missing.ld_u32_addr", min_module("9.0", "sm_90", None,
        ".reg .b32 %r<2>;\n\tld.global.u32 %r1, [%r0];"))
    add("D.addrsize.missing.ld_u64_addr", min_module("9.0", "sm_90", None,
        ".reg .b64 %rd<2>;\n\tld.global.u64 %rd1, [%rd0];"))
    # directive shapes / order
    shapes = [
        ("version_no_minor", ".version 9\n.target sm_90\n"),
        ("version_leading_zero", ".version 09.0\n.target sm_90\n"),
        ("version_two_digit_minor", ".version 9.00\n.target sm_90\n"),
        ("version_three_parts", ".version 9.0.0\n.target sm_90\n"),
        ("version_missing", ".target sm_90\n"),
        ("target_missing", ".version 9.0\n"),
        ("both_missing", ""),
        ("target_before_version", ".target sm_90\n.version 9.0\n"),
        ("version_twice", ".version 9.0\n.version 9.0\n.target sm_90\n"),
        ("version_twice_diff", ".version 8.0\n.version 9.0\n.target sm_90\n"),
        ("target_twice", ".version 9.0\n.target sm_90\n.target sm_90\n"),
        ("target_twice_diff", ".version 9.0\n.target sm_80\n.target sm_90\n"),
        ("addr_before_target", ".version 9.0\n.address_size 64\n.target sm_90\n"),
        ("addr_before_version", ".address_size 64\n.version 9.0\n.target sm_90\n"),
        ("addr_twice", ".version 9.0\n.target sm_90\n.address_size 64\n.address_size 64\n"),
        ("addr_twice_diff", ".version 9.0\n.target sm_90\n.address_size 64\n.address_size 32\n"),
        ("version_negative", ".version -1.0\n.target sm_90\n"),
        ("version_float_exp", ".version 9e0\n.target sm_90\n"),
        ("version_0_0", ".version 0.0\n.target sm_90\n"),
        ("version_1_9", ".version 1.9\n.target sm_13\n"),
        ("version_2_5", ".version 2.5\n.target sm_20\n"),
        ("version_3_3", ".version 3.3\n.target sm_30\n"),
        ("version_4_4", ".version 4.4\n.target sm_30\n"),
        ("version_5_1", ".version 5.1\n.target sm_50\n"),
        ("version_6_6", ".version 6.6\n.target sm_70\n"),
        ("version_7_9", ".version 7.9\n.target sm_80\n"),
        ("version_8_9", ".version 8.9\n.target sm_90\n"),
        ("version_comment_after", ".version 9.0 // comment\n.target sm_90\n"),
        ("target_comment_after", ".version 9.0\n.target sm_90 /* c */\n"),
        ("decl_before_version", ".global .u32 v;\n.version 9.0\n.target sm_90\n"),
        ("version_after_kernel", None),
    ]
    for n, h in shapes:
        if h is None:
            add("D.shape." + n, ".target sm_90\n.visible .entry k()\n{\n\tret;\n}\n.version 9.0\n")
        else:
            add("D.shape." + n, h + "\n.visible .entry k()\n{\n\tret;\n}\n")


# ---------------------------------------------------------------------------
# E. constructs nvcc writes (CUB, Thrust, cooperative groups, cuda_fp16.h,
#    the device runtime): each regression of tests/corpus, one per case.
#    A name with ".compile_only." is judged by ptxas --compile-only.
# ---------------------------------------------------------------------------

E_REGS = SURF_REGS + "\t.reg .pred %q<4>;\n"


def gen_nvcc():
    k = lambda body, decls="", funcs="", version="8.6": kernel_module(
        body, decls, version=version, regs=E_REGS, funcs=funcs)
    # WARP_SZ: the integer constant 32 wherever a constant may stand
    for n, b in [("mov_u32", "mov.u32 %r1, WARP_SZ;"), ("mov_u16", "mov.u16 %rs1, WARP_SZ;"),
                 ("mov_s64", "mov.s64 %rd1, WARP_SZ;"), ("mov_f32", "mov.f32 %f1, WARP_SZ;"),
                 ("add", "add.s32 %r1, %r2, WARP_SZ;"), ("rem_first", "rem.u32 %r1, WARP_SZ, %r2;"),
                 ("setp", "setp.lt.u32 %p1, %r2, WARP_SZ;"), ("shfl", "shfl.sync.idx.b32 %r1, %r2, 0, WARP_SZ, -1;"),
                 ("expr", "mov.u32 %r1, WARP_SZ-1;"), ("expr_mul", "mov.u32 %r1, (WARP_SZ*2);"),
                 ("mem_offset", "ld.global.u32 %r1, [%rd1+WARP_SZ];"), ("dest", "mov.u32 WARP_SZ, %r1;"),
                 ("lower_case", "mov.u32 %r1, warp_sz;"), ("percent", "mov.u32 %r1, %WARP_SZ;"),
                 ("bar_count", "bar.sync 0, WARP_SZ;"), ("vector_piece", "mov.b64 %rd1, {WARP_SZ, %r1};"),
                 ("st_value", "st.global.u32 [%rd1], WARP_SZ;"), ("reg_name", ".reg .b32 WARP_SZ;"),
                 ("mov_pred", "mov.pred %p1, WARP_SZ;")]:
        add("E.warp_sz." + n, k(b))
    add("E.warp_sz.array_dim", decl_module(".global .u32 a[WARP_SZ];"))
    add("E.warp_sz.init", decl_module(".global .u32 a = WARP_SZ;"))
    add("E.warp_sz.global_name", decl_module(".global .u32 WARP_SZ;"))
    add("E.warp_sz.maxntid", header() + "\n.visible .entry k() .maxntid WARP_SZ\n{\n\tret;\n}\n")
    # predicate immediates: any integer is a predicate source, nonzero is true
    for v in ["-1", "0", "1", "2", "32", "0x100000000", "1U", "(1+1)", "0f3F800000", "1.0"]:
        add("E.pred_imm.mov_" + slug(v), k("mov.pred %p1, " + v + ";"))
    for n, b in [("and", "and.pred %p1, %p2, 1;"), ("and_neg1", "and.pred %p1, %p2, -1;"),
                 ("or_first", "or.pred %p1, 0, %p2;"), ("xor_5", "xor.pred %p1, %p2, 5;"),
                 ("not", "not.pred %p1, 1;"), ("selp", "selp.b32 %r1, %r2, %r3, 1;"),
                 ("selp_float", "selp.b32 %r1, %r2, %r3, 1.0;"),
                 ("setp_bool", "setp.eq.and.s32 %p1, %r1, %r2, -1;"), ("vote", "vote.sync.any.pred %p1, 3, -1;"),
                 ("vote_ballot", "vote.sync.ballot.b32 %r1, 1, -1;"), ("bar_red", "bar.red.and.pred %p1, 0, 1;"),
                 ("guard", "@1 bra L;\nL:"), ("mov_not", "mov.pred %p1, !%p2;"), ("and_not", "and.pred %p1, !%p2, %p3;"),
                 ("not_not", "not.pred %p1, !%p2;"), ("mov_b32_not", "mov.b32 %r1, !%r2;"),
                 ("setp_not_data", "setp.eq.s32 %p1, !%r1, %r2;"), ("vote_not", "vote.sync.any.pred %p1, !%p2, -1;"),
                 ("dest_not", "mov.pred !%p1, %p2;")]:
        add("E.pred_imm." + n, k(b))
    # modifier order: ptxas takes most modifiers in any order, but some
    # leading words are part of the name
    for n, b in [("vote_ballot_sync", "vote.ballot.sync.b32 %r1, %p1, -1;"),
                 ("vote_any_sync", "vote.any.sync.pred %p1, %p2, -1;"),
                 ("shfl_idx_sync", "shfl.idx.sync.b32 %r1, %r2, 0, 31, -1;"),
                 ("match_sync_any", "match.sync.any.b32 %r1, %r2, -1;"),
                 ("redux_add_sync", "redux.add.sync.u32 %r1, %r2, -1;"),
                 ("add_s32_sat", "add.s32.sat %r1, %r2, %r3;"), ("add_u32_cc", "add.u32.cc %r1, %r2, %r3;"),
                 ("sin_f32_approx", "sin.f32.approx %f1, %f2;"), ("fma_f16_rn", "fma.f16.rn %rs1, %rs2, %rs3, %rs4;"),
                 ("ld_global_volatile", "ld.global.volatile.u32 %r1, [%rd1];"),
                 ("ld_nc_global", "ld.nc.global.u32 %r1, [%rd1];"),
                 ("barrier_aligned_sync", "barrier.aligned.sync 0;"),
                 ("min_s32_relu", "min.s32.relu %r1, %r2, %r3;"),
                 ("mul_s32_hi", "mul.s32.hi %r1, %r2, %r3;"), ("mul_s32_lo", "mul.s32.lo %r1, %r2, %r3;"),
                 ("mul_u32_wide", "mul.u32.wide %rd1, %r2, %r3;"), ("mad_u32_lo", "mad.u32.lo %r1, %r2, %r3, %r4;"),
                 ("mul24_u32_lo", "mul24.u32.lo %r1, %r2, %r3;"), ("shf_wrap_l", "shf.wrap.l.b32 %r1, %r2, %r3, %r4;"),
                 ("cvta_global_to", "cvta.global.to.u64 %rd1, %rd2;"), ("dp2a_u32_u32_lo", "dp2a.u32.u32.lo %r1, %r2, %r3, %r4;"),
                 ("bar_popc_red", "bar.popc.red.u32 %r1, 0, %p1;"), ("barrier_popc_red", "barrier.popc.red.u32 %r1, 0, %p1;"),
                 ("div_ftz_full", "div.ftz.full.f32 %f1, %f2, %f3;"), ("div_f32_approx", "div.f32.approx %f1, %f2, %f3;"),
                 ("brx_uni_idx", "brx.uni.idx %r1, T;\nT: .branchtargets T2;\nT2:"),
                 ("mbarrier_b64_init", "mbarrier.b64.init [%rd1], 1;"),
                 ("cvt_sat_pack", "cvt.sat.pack.u16.s32 %r1, %r2, %r3;")]:
        add("E.modorder." + n, k(b))
    # addresses in the shared window, 32 bits, where the operand is shared memory
    smem = ".shared .align 8 .b64 bar;\n.shared .align 16 .b8 buf[256];"
    for n, b in [("bulk_g2s_mbarrier", "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%r1], [%rd1], %r2, [%r3];"),
                 ("bulk_s2s_mbarrier", "cp.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes [%r1], [%r2], %r2, [%r3];"),
                 ("st_async", "st.async.shared::cluster.mbarrier::complete_tx::bytes.u32 [%r1], %r2, [%r3];"),
                 ("st_async_no_space", "st.async.mbarrier::complete_tx::bytes.u32 [%r1], %r2, [%r3];"),
                 ("red_async", "red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.add.u32 [%r1], %r2, [%r3];"),
                 ("cp_async_mbarrier_arrive", "cp.async.mbarrier.arrive.b64 [%r1];"),
                 ("ldmatrix", "ldmatrix.sync.aligned.m8n8.x1.b16 {%r1}, [%r2];"),
                 ("mbarrier_init_generic", "mbarrier.init.b64 [%r1], 1;"),
                 ("mbarrier_try_wait_generic", "mbarrier.try_wait.parity.b64 %p1, [%r1], %r2;"),
                 ("prefetch_generic", "prefetch.L1 [%r1];"), ("ld_generic", "ld.u32 %r1, [%r2];"),
                 ("atom_generic", "atom.add.u32 %r1, [%r2], 1;")]:
        add("E.shared32." + n, k(b, smem))
    # negative 0f bit patterns are a syntax error (0d and parenthesized ones are not)
    for n, d in [("init_neg_f", ".global .f32 a = -0f3F800000;"), ("init_neg_d", ".global .f64 a = -0d3FF0000000000000;"),
                 ("init_list_neg_f", ".global .f32 a[2] = {0f3F800000, -0f3F800000};"),
                 ("init_plus_f", ".global .f32 a = +0f3F800000;"), ("init_paren_neg_f", ".global .f32 a = -(0f3F800000);"),
                 ("init_neg_dec", ".global .f32 a = -1.5;"), ("init_neg_f_b32", ".global .b32 a = -0f3F800000;")]:
        add("E.negfloat." + n, decl_module(d))
    for n, b in [("mov_neg_f", "mov.f32 %f1, -0f3F800000;"), ("mov_tilde_f", "mov.f32 %f1, ~0f3F800000;"),
                 ("mov_neg_dec", "mov.f32 %f1, -1.5;")]:
        add("E.negfloat." + n, k(b))
    # relocatable code: a whole program defines what it calls
    ext = ".extern .func f();"
    reloc = [("extern_unused", ext, "", ""), ("extern_called", ext, "", "call f;"),
             ("decl_called", ".func f();", "", "call f;"), ("weak_decl_called", ".weak .func f();", "", "call f;"),
             ("extern_address", ext, "", "mov.u64 %rd1, f;"),
             ("extern_called_from_func", ext, ".func g()\n{\n\tcall f;\n\tret;\n}", ""),
             ("extern_calltargets", ext, "", "ld.param.u64 %rd1, [%rd1];\nT: .calltargets f;\ncall %rd1, T;"),
             ("system_functions", ".extern .func (.param .b32 r) vprintf(.param .b64 a, .param .b64 b);\n"
                                  ".extern .func (.param .b64 r) malloc(.param .b64 n);\n.extern .func free(.param .b64 p);\n"
                                  ".extern .func __assertfail(.param .b64 a, .param .b64 b, .param .b32 c, .param .b64 d, .param .b64 e);",
              "", "{\n.param .b64 n;\n.param .b64 r;\nst.param.b64 [n], 8;\ncall (r), malloc, (n);\nld.param.b64 %rd1, [r];\n"
                  ".param .b64 p;\nst.param.b64 [p], %rd1;\ncall free, (p);\n}"),
             ("graph_functions", "".join(".extern .func (.param .b32 r) %s(.param .b64 h, .param .b32 v);\n" % f
                                         for f in ["cudaGraphSetConditional", "cudaGraphLaunch",
                                                   "cudaGraphKernelNodeSetParam", "cudaGraphKernelNodeSetEnabled",
                                                   "cudaGraphKernelNodeSetGridDim", "cudaGraphKernelNodeUpdatesApply"]),
              "", "".join("{\n.param .b64 h;\n.param .b32 v;\n.param .b32 r;\nst.param.b64 [h], %%rd1;\n"
                          "st.param.b32 [v], 1;\ncall (r), %s, (h, v);\n}\n" % f
                          for f in ["cudaGraphSetConditional", "cudaGraphLaunch", "cudaGraphKernelNodeSetParam",
                                    "cudaGraphKernelNodeSetEnabled", "cudaGraphKernelNodeSetGridDim",
                                    "cudaGraphKernelNodeUpdatesApply"])),
             ("devrt_function", ".extern .func (.param .b64 r) cudaGetParameterBufferV2(.param .b64 f, .param .b64 g);",
              "", "{\n.param .b64 f;\n.param .b64 g;\n.param .b64 r;\nst.param.b64 [f], %rd1;\n"
                  "st.param.b64 [g], %rd1;\ncall (r), cudaGetParameterBufferV2, (f, g);\n}"),
             ("devrt_function_cdp2", ".extern .func (.param .b32 r) __cudaCDP2GetLastError();",
              "", "{\n.param .b32 r;\ncall (r), __cudaCDP2GetLastError, ();\n}"),
             ("extern_var_used", ".extern .global .u32 g;", "", "ld.global.u32 %r1, [g];"),
             ("unified_var", ".global .attribute(.unified(1,2)) .u32 g;", "", ""),
             ("unified_func", "", ".visible .func .attribute(.unified(1,2)) f()\n{\n\tret;\n}", ""),
             ("extern_unified_called", ".extern .func .attribute(.unified(1,2)) f();", "", "call f;")]
    for n, decls, funcs, body in reloc:
        for mode in ["whole", "compile_only"]:
            add("E.reloc.%s.%s" % (mode, n), k(body, decls, funcs))
    # a function declared again: the first declaration's linkage, or none
    # after .visible or .weak ("Inconsistent redefinition of variable")
    links = [("none", ""), ("extern", ".extern "), ("visible", ".visible "), ("weak", ".weak ")]
    for n1, l1 in links:
        for n2, l2 in links:
            for defn in (False, True):
                if defn and n2 == "extern":
                    continue
                second = l2 + ".func f()" + ("\n{\n\tret;\n}" if defn else ";")
                for mode in ["whole", "compile_only"]:
                    add("E.funclink.%s.%s_%s_%s" % (mode, n1, n2, "def" if defn else "decl"),
                        k("call f;", "", l1 + ".func f();\n" + second))
    add("E.funclink.whole.common_def", k("call f;", "", ".common .func f()\n{\n\tret;\n}"))
    add("E.funclink.whole.common_decl", k("", "", ".common .func f();"))
    # video instructions: byte/half selectors, masks, lane selectors, vmad's '-'
    vregs = "\t.reg .b32 %r<10>;\n\t.reg .b64 %rd<4>;\n\t.reg .b16 %h<4>;\n"
    for i, b in enumerate([
        "vadd.u32.u32.u32 %r1, %r2.b0, %r3.h1;",
        "vadd.u32.u32.u32 %r1, %r2.b3, %r3.b2;",
        "vadd.u32.u32.u32 %r1, %r2.h0, %r3.b1;",
        "vadd.u32.u32.u32 %r1, %r2.h2, %r3;",
        "vadd.u32.u32.u32 %r1, %r2.b4, %r3;",
        "vadd.u32.u32.u32 %r1, %r2.h10, %r3;",
        "vadd.u32.u32.u32 %r1, %r2.b10, %r3;",
        "vadd.u32.u32.u32 %r1, %r2.x, %r3;",
        "vadd.u32.u32.u32 %r1, %r2.w0, %r3;",
        "vadd.u32.u32.u32 %r1, %r2 .b0, %r3;",
        "vadd.u32.u32.u32 %r1, %r2, 5;",
        "vadd.u32.u32.u32 %r1, %r2.b0, 5;",
        "vadd.u32.u32.u32 %r1.b0, %r2, %r3;",
        "vadd.u32.u32.u32 %r1.b0, %r2, %r3, %r4;",
        "vadd.u32.u32.u32 %r1.h1, %r2, %r3, %r4;",
        "vadd.u32.u32.u32.add %r1.h1, %r2, %r3, %r4;",
        "vadd.u32.u32.u32.add %r1, %r2, %r3, %r4.b0;",
        "vadd.u32.u32.u32 %r1.b0, %r2, %r3, %r4.b1;",
        "vadd.u32.u32.u32 %r1, %r2, %r3, %r4;",
        "vadd.u32.u32.u32.sat %r1.b2, %r2, %r3, %r4;",
        "vadd.u32.u32.u32 %r1, %r2, %r3.b0, 7;",
        "vadd.u32.u32.u32.max %r1, %r2, %r3.b0, 7;",
        "vadd.u32.u32.u32 %r1.h0, %r2, 3, 7;",
        "vsub.s32.s32.s32.sat %r1, %r2.h1, %r3.h1;",
        "vmin.s32.u32.s32.min %r1, %r2.b1, %r3.b3, %r4;",
        "vshl.u32.u32.u32.clamp %r1, %r2.b0, %r3.b1;",
        "vshr.s32.s32.u32.wrap.add %r1, %r2.h1, %r3, %r4;",
        "vshl.u32.u32.u32.clamp %r1.h1, %r2.b0, %r3.b1, %r4;",
        "vset.u32.u32.lt %r1, %r2.b0, %r3.b1;",
        "vset.s32.u32.ge.add %r1, %r2.b0, %r3.b1, %r4;",
        "vset.s32.u32.ge %r1.b3, %r2.b0, %r3.b1, %r4;",
        "vset.s32.u32.ge %r1.b3, %r2.b0, 3, 4;",
        "vmad.s32.s32.s32 %r1, -%r2, %r3, %r4;",
        "vmad.s32.s32.s32 %r1, %r2, -%r3, %r4;",
        "vmad.s32.s32.s32 %r1, -%r2, -%r3, %r4;",
        "vmad.s32.s32.s32 %r1, %r2, %r3, -%r4;",
        "vmad.s32.s32.s32 %r1, -%r2, %r3, -%r4;",
        "vmad.s32.s32.s32 %r1, -%r2.h0, %r3.b1, %r4;",
        "vmad.u32.u32.u32 %r1, -%r2, %r3, %r4;",
        "vmad.u32.u32.u32 %r1, %r2, %r3, -%r4;",
        "vmad.u32.u32.u32.shr7 %r1, %r2.h0, %r3.h0, %r4;",
        "vmad.u32.u32.u32.po %r1, %r2, %r3, %r4;",
        "vmad.u32.u32.u32.po %r1, -%r2, %r3, %r4;",
        "vmad.u32.u32.u32.po %r1, %r2, %r3, -%r4;",
        "vmad.u32.u32.u32.po.sat.shr15 %r1, %r2.b1, %r3.b2, %r4;",
        "vmad.u32.u32.u32 %r1, %r2, %r3, %r4.b0;",
        "vmad.u32.u32.u32 %r1.b0, %r2, %r3, %r4;",
        "vmad.u32.u32.u32 %r1, %r2, %r3, 5;",
        "vmad.u32.u32.u32 %r1, 5, %r3, 5;",
        "vmad.u32.u32.u32 %r1, -5, %r3, 5;",
        "vmad.u32.u32.u32 %r1, %r2, %r3, -5;",
        "vmad.s32.s32.s32.sat %r1, -%r2, -%r3, -%r4;",
        "vmad.s32.s32.s32 %r1, -%r2, %rd1, %r4;",
        "vmad.s32.s32.s32 %r1, %h1, %r2, %r4;",
        "vmad.s32.s32.s32 -%r1, %r2, %r3, %r4;",
        "vmad.s32.s32.s32 %r1, - %r2, %r3, %r4;",
        "add.s32 %r1, -%r2, %r3;",
        "add.s32 %r1, %r2.b0, %r3;",
        "mov.b32 %r1, %r2.h1;",
        "vadd2.u32.u32.u32 %r1, %r2, %r3, %r4;",
        "vadd2.u32.u32.u32 %r1.h0, %r2, %r3, %r4;",
        "vadd2.u32.u32.u32 %r1.h1, %r2, %r3, %r4;",
        "vadd2.u32.u32.u32 %r1.h10, %r2, %r3, %r4;",
        "vadd2.u32.u32.u32 %r1.h01, %r2, %r3, %r4;",
        "vadd2.u32.u32.u32 %r1.h00, %r2, %r3, %r4;",
        "vadd2.u32.u32.u32 %r1.h2, %r2, %r3, %r4;",
        "vadd2.u32.u32.u32 %r1.b0, %r2, %r3, %r4;",
        "vadd2.u32.u32.u32 %r1, %r2.h10, %r3.h32, %r4;",
        "vadd2.u32.u32.u32 %r1, %r2.h33, %r3.h00, %r4;",
        "vadd2.u32.u32.u32 %r1, %r2.h0, %r3, %r4;",
        "vadd2.u32.u32.u32 %r1, %r2.h4, %r3, %r4;",
        "vadd2.u32.u32.u32 %r1, %r2.h40, %r3, %r4;",
        "vadd2.u32.u32.u32 %r1, %r2.h012, %r3, %r4;",
        "vadd2.u32.u32.u32 %r1, %r2.b10, %r3, %r4;",
        "vadd2.u32.u32.u32 %r1, %r2, %r3, %r4.h10;",
        "vadd2.u32.u32.u32.add %r1.h0, %r2, %r3, %r4;",
        "vadd2.u32.u32.u32.add %r1.h10, %r2.h00, %r3.h22, %r4;",
        "vadd2.u32.u32.u32.sat %r1.h1, %r2.h21, %r3.h03, %r4;",
        "vset2.u32.u32.lt %r1.h1, %r2.h21, %r3.h03, %r4;",
        "vset2.u32.u32.lt.add %r1.h1, %r2.h21, %r3.h03, %r4;",
        "vset2.u32.u32.lt.max %r1, %r2, %r3, %r4;",
        "vavrg2.s32.s32.s32 %r1.h0, %r2.h31, %r3.h20, %r4;",
        "vadd4.u32.u32.u32 %r1, %r2, %r3, %r4;",
        "vadd4.u32.u32.u32 %r1.b0, %r2, %r3, %r4;",
        "vadd4.u32.u32.u32 %r1.b3210, %r2, %r3, %r4;",
        "vadd4.u32.u32.u32 %r1.b310, %r2, %r3, %r4;",
        "vadd4.u32.u32.u32 %r1.b32, %r2, %r3, %r4;",
        "vadd4.u32.u32.u32 %r1.b01, %r2, %r3, %r4;",
        "vadd4.u32.u32.u32 %r1.b00, %r2, %r3, %r4;",
        "vadd4.u32.u32.u32 %r1.b4, %r2, %r3, %r4;",
        "vadd4.u32.u32.u32 %r1.h10, %r2, %r3, %r4;",
        "vadd4.u32.u32.u32 %r1, %r2.b7654, %r3.b3210, %r4;",
        "vadd4.u32.u32.u32 %r1, %r2.b0000, %r3.b2222, %r4;",
        "vadd4.u32.u32.u32 %r1, %r2.b0, %r3, %r4;",
        "vadd4.u32.u32.u32 %r1, %r2.b10, %r3, %r4;",
        "vadd4.u32.u32.u32 %r1, %r2.b8000, %r3, %r4;",
        "vadd4.u32.u32.u32 %r1, %r2.b01234, %r3, %r4;",
        "vadd4.u32.u32.u32 %r1, %r2.h10, %r3, %r4;",
        "vmin4.s32.u32.u32.add %r1.b00, %r2.b0000, %r3.b2222, %r4;",
        "vmin4.s32.u32.u32.add %r1.b0, %r2.b0000, %r3.b2222, %r4;",
        "vset4.u32.u32.ne %r1.b21, %r2.b7531, %r3.b6420, %r4;",
        "vset4.u32.u32.ne.max %r1, %r2, %r3, %r4;",
        "vset4.u32.u32.ne.add %r1, %r2, %r3, %r4.b0;",
        "vadd2.u32.u32.u32 %r1, %r2, %r3, 5;",
        "vadd2.u32.u32.u32.add %r1, %r2, %r3, 5;",
        "vadd4.u32.u32.u32 %r1, %r2 .b3210, %r3, %r4;",
        "vadd2.u32.u32.u32 %r1, %r2, %r3;",
        "vadd2.u32.u32.u32.sat.add %r1, %r2, %r3, %r4;",
        "vadd.u32.u32.u32 %r1, %r2.b00000000000, %r3;",
        "vadd.u32.u32.u32 %r1, %r2.b0.h1, %r3;"]):
        add("E.video.%03d_%s" % (i, slug(b.split()[0])), kernel_module(b, version="8.0", regs=vregs))
    # cp.async.bulk (not tensor): sizes, address registers, forms; and the
    # cache-policy operand, present exactly with .L2::cache_hint
    bregs = vregs + "\t.reg .f32 %f<2>;\n"
    for i, b in enumerate([
        "cp.async.bulk.prefetch.L2.global [%rd1], 64;",
        "cp.async.bulk.prefetch.L2.global [%rd1], %r1;",
        "cp.async.bulk.prefetch.L2.global.L2::cache_hint [%rd1], 64, %rd2;",
        "cp.async.bulk.prefetch.L2.global [%rd1], 64, %rd2;",
        "cp.async.bulk.prefetch.L2 [%rd1], 64;",
        "cp.async.bulk.prefetch.global.L2 [%rd1], 64;",
        "cp.async.bulk.prefetch.L2.global [%rd1], 24;",
        "cp.async.bulk.prefetch.L2.global [%rd1], 0;",
        "cp.async.bulk.prefetch.L2.global [%r1], 64;",
        "cp.async.bulk.prefetch.L2.global [%h1], 64;",
        "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%r1], [%rd1], 64, [%r2];",
        "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%r1], [%rd1], 8, [%r2];",
        "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%r1], [%rd1], 0, [%r2];",
        "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%r1], [%rd1], 64, [%r2], %rd2;",
        "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.L2::cache_hint [%r1], [%rd1], 64, [%r2], %rd2;",
        "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.L2::cache_hint [%r1], [%rd1], 64, [%r2];",
        "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%r1], [%r3], 64, [%r2];",
        "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%h1], [%rd3], 64, [%r2];",
        "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%r1], [%rd3], 64, [%h2];",
        "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%r1+16], [%rd1+32], 16, [%r2+8];",
        "cp.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes [%r1], [%r3], 64, [%r2];",
        "cp.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes [%r1], [%r3], 24, [%r2];",
        "cp.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes [%h1], [%h3], 64, [%r2];",
        "cp.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes [%h1], [%h3], 64, [%h2];",
        "cp.async.bulk.global.shared::cta.bulk_group [%rd1], [%r1], 64;",
        "cp.async.bulk.global.shared::cta.bulk_group [%rd1], [%r1], 60;",
        "cp.async.bulk.global.shared::cta.bulk_group [%rd1], [%r1], 64, %rd2;",
        "cp.async.bulk.global.shared::cta.bulk_group.L2::cache_hint [%rd1], [%r1], 64, %rd2;",
        "cp.async.bulk.global.shared::cta.bulk_group [%r2], [%r1], 64;",
        "cp.async.bulk.global.shared::cta.bulk_group [%h2], [%h1], 64;",
        "cp.async.bulk.global.shared::cta.bulk_group [%rd2], [%f1], 64;",
        "cp.async.bulk.commit_group;",
        "cp.async.bulk.wait_group 0;",
        "cp.async.bulk.wait_group.read 1;",
        "cp.async.ca.shared.global.L2::cache_hint [%r1], [%rd1], 4, %rd2;",
        "cp.async.ca.shared.global.L2::cache_hint [%r1], [%rd1], 4, 4, %rd2;",
        "cp.async.ca.shared.global.L2::cache_hint [%r1], [%rd1], 4;",
        "cp.async.ca.shared.global.L2::cache_hint [%r1], [%rd1], 4, %r2;",
        "cp.async.cg.shared.global.L2::cache_hint.L2::128B [%r1], [%rd1], 16, 8, %rd2;",
        "ld.global.L2::cache_hint.u32 %r1, [%rd1];",
        "ld.global.u32 %r1, [%rd1], %rd2;",
        "ld.global.L2::cache_hint.u32 %r1, [%rd1], %rd2;",
        "st.global.L2::cache_hint.u32 [%rd1], %r1;",
        "atom.global.L2::cache_hint.add.u32 %r1, [%rd1], 1;",
        "red.global.L2::cache_hint.add.u32 [%rd1], 1;"]):
        add("E.bulk.%03d_%s" % (i, slug(b.split()[0])), kernel_module(b, version="8.0", regs=bregs))
    for i, b in enumerate([
        "cp.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes [%r1], [%rd1], 64, [%r2];",
        "cp.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes.L2::cache_hint [%r1], [%rd1], 64, [%r2], %rd2;",
        "cp.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes [%rd3], [%rd1], 64, [%rd2];"]):
        add("E.bulk.v86_%d" % i, kernel_module(b, version="8.6", regs=bregs))
        add("E.bulk.v85_%d" % i, kernel_module(b, version="8.5", regs=bregs))
    # cp.async.bulk.tensor: the map operand (a 64-bit register or a .global
    # variable), one .b32 coordinate per dimension, N-2 .b16 im2col offsets,
    # im2col only from 3 dimensions, a .u16 ctaMask with .multicast::cluster
    tdecls = ".global .align 64 .b8 gtm[128];\n.const .align 64 .b8 ctm[128];\n.shared .align 128 .b8 sm[1024];"
    ld = "cp.async.bulk.tensor.%s.shared::cluster.global%s.mbarrier::complete_tx::bytes%s"
    for i, b in enumerate([
        ld % ("1d", ".tile", "") + " [%r1], [%rd1, {%r2}], [%r3];",
        ld % ("2d", "", "") + " [%r1], [%rd1, {%r2, %r4}], [%r3];",
        ld % ("2d", "", "") + " [sm], [gtm, {%r2, 5}], [%r3];",
        ld % ("2d", "", "") + " [sm], [ctm, {%r2, 5}], [%r3];",
        ld % ("2d", "", "") + " [%r1], [%r5, {%r2, %r4}], [%r3];",
        ld % ("2d", "", "") + " [%r1], [%rd1+64, {%r2, %r4}], [%r3];",
        ld % ("2d", "", "") + " [%r1], [%rd1, {%r2}], [%r3];",
        ld % ("2d", "", "") + " [%r1], [%rd1, {%r2, %r4, %r5}], [%r3];",
        ld % ("2d", "", "") + " [%r1], [%rd1, {%rd2, %r4}], [%r3];",
        ld % ("2d", "", "") + " [%r1], [%rd1, {%f1, %r4}], [%r3];",
        ld % ("5d", "", "") + " [%rd3], [%rd1, {%r2, %r4, %r5, %r6, %r7}], [%rd2];",
        ld % ("3d", ".im2col", "") + " [%r1], [%rd1, {%r2, %r4, %r5}], [%r3], {%h1};",
        ld % ("3d", ".im2col", "") + " [%r1], [%rd1, {%r2, %r4, %r5}], [%r3], {7};",
        ld % ("3d", ".im2col", "") + " [%r1], [%rd1, {%r2, %r4, %r5}], [%r3], {%h1, %h2};",
        ld % ("3d", ".im2col", "") + " [%r1], [%rd1, {%r2, %r4, %r5}], [%r3], {%r1};",
        ld % ("3d", ".im2col", "") + " [%r1], [%rd1, {%r2, %r4, %r5}], [%r3];",
        ld % ("2d", ".im2col", "") + " [%r1], [%rd1, {%r2, %r4}], [%r3], {};",
        ld % ("5d", ".im2col", ".L2::cache_hint") + " [%r1], [%rd1, {%r2, %r4, %r5, %r6, %r7}], [%r3], {%h1, %h2, %h3}, %rd2;",
        ld % ("2d", "", ".multicast::cluster") + " [%r1], [%rd1, {%r2, %r4}], [%r3], %h1;",
        ld % ("2d", "", ".multicast::cluster") + " [%r1], [%rd1, {%r2, %r4}], [%r3], 3;",
        ld % ("2d", "", ".multicast::cluster") + " [%r1], [%rd1, {%r2, %r4}], [%r3], %r1;",
        ld % ("2d", "", ".multicast::cluster") + " [%r1], [%rd1, {%r2, %r4}], [%r3];",
        ld % ("4d", ".im2col", ".multicast::cluster.L2::cache_hint") + " [%r1], [%rd1, {%r2, %r4, %r5, %r6}], [%r3], {%h1, %h2}, %h3, %rd2;",
        "cp.async.bulk.tensor.3d.global.shared::cta.bulk_group [%rd1, {%r2, %r4, %r5}], [%r1];",
        "cp.async.bulk.tensor.3d.global.shared::cta.im2col_no_offs.bulk_group [%rd1, {%r2, %r4, %r5}], [%r1];",
        "cp.async.bulk.tensor.1d.global.shared::cta.im2col_no_offs.bulk_group [%rd1, {%r2}], [%r1];",
        "cp.async.bulk.tensor.3d.global.shared::cta.im2col.bulk_group [%rd1, {%r2, %r4, %r5}], [%r1];",
        "cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group.L2::cache_hint [%rd1, {%r2, %r4}], [%r1], %rd2;",
        "cp.reduce.async.bulk.tensor.2d.global.shared::cta.add.tile.bulk_group [%rd1, {%r2, %r4}], [%r1];",
        "cp.reduce.async.bulk.tensor.2d.global.shared::cta.xor.bulk_group [%rd1, {%r2, %r4}], [%r1];",
        "cp.reduce.async.bulk.tensor.2d.global.shared::cta.add.f32.bulk_group [%rd1, {%r2, %r4}], [%r1];",
        "cp.reduce.async.bulk.tensor.2d.global.shared::cta.bulk_group [%rd1, {%r2, %r4}], [%r1];",
        "cp.async.bulk.prefetch.tensor.2d.L2.global [%rd1, {%r2, %r4}];",
        "cp.async.bulk.prefetch.tensor.3d.L2.global.im2col [%rd1, {%r2, %r4, %r5}], {%h1};",
        "cp.async.bulk.prefetch.tensor.3d.L2.global.im2col [%rd1, {%r2, %r4, %r5}];",
        "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster [%r1], [%rd1], 64, [%r3], %h1;",
        "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster [%r1], [%rd1], 64, [%r3];",
        "cp.reduce.async.bulk.global.shared::cta.bulk_group.add.s32 [%rd1], [%r1], 64;",
        "cp.reduce.async.bulk.global.shared::cta.bulk_group.add.f16 [%rd1], [%r1], 64;",
        "cp.reduce.async.bulk.global.shared::cta.bulk_group.add.noftz.bf16 [%rd1], [%r1], 64;",
        "cp.reduce.async.bulk.global.shared::cta.bulk_group.min.f32 [%rd1], [%r1], 64;",
        "cp.reduce.async.bulk.global.shared::cta.bulk_group.xor.b64 [%rd1], [%r1], %r2;",
        "cp.reduce.async.bulk.global.shared::cta.bulk_group.L2::cache_hint.max.s64 [%rd1], [%r1], 64, %rd2;",
        "cp.reduce.async.bulk.global.shared::cta.bulk_group.inc.u32 [%rd1], [%r1], 64, %rd2;",
        "cp.reduce.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes.add.u32 [%r1], [%r2], 64, [%r3];",
        "cp.reduce.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes.add.u64 [%r1], [%r2], 64, [%r3];",
        "cp.reduce.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes.max.u64 [%r1], [%r2], 64, [%r3];",
        "cp.reduce.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes.and.b64 [%r1], [%r2], 64, [%r3];",
        "cp.reduce.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes.add.u32 [%r1], [%r2], 64;"]):
        add("E.tensor.%03d_%s" % (i, slug(b.split()[0])), kernel_module(b, decls=tdecls, version="8.0", regs=bregs))
    # cudaDeviceSynchronize from device code: gone on sm_90 and later
    # ("Unsupported Function 'cudaDeviceSynchronize' on arch 'sm_90' or higher")
    cds = ".extern .func (.param .b32 r) cudaDeviceSynchronize();"
    dsync = [("call", cds, "", "{\n.param .b32 r;\ncall (r), cudaDeviceSynchronize, ();\n}"),
             ("call_no_result", ".extern .func cudaDeviceSynchronize();", "", "call cudaDeviceSynchronize;"),
             ("declared_only", cds, "", ""),
             ("plain_decl_call", ".func (.param .b32 r) cudaDeviceSynchronize();", "",
              "{\n.param .b32 r;\ncall (r), cudaDeviceSynchronize, ();\n}"),
             ("address", cds, "", "mov.u64 %rd1, cudaDeviceSynchronize;"),
             ("calltargets", cds, "", "ld.param.u64 %rd1, [%rd1];\nT: .calltargets cudaDeviceSynchronize;\n"
                                      "{\n.param .b32 r;\ncall (r), %rd1, (), T;\n}"),
             ("in_uncalled_func", cds, ".func g()\n{\n.param .b32 r;\ncall (r), cudaDeviceSynchronize, ();\nret;\n}", ""),
             ("user_defined", "", ".visible .func (.param .b32 r) cudaDeviceSynchronize()\n{\n\tst.param.b32 [r], 0;\n\tret;\n}",
              "{\n.param .b32 r;\ncall (r), cudaDeviceSynchronize, ();\n}"),
             ("avoidance_name", ".extern .func (.param .b32 r) __cudaDeviceSynchronizeDeprecationAvoidance();", "",
              "{\n.param .b32 r;\ncall (r), __cudaDeviceSynchronizeDeprecationAvoidance, ();\n}")]
    for n, decls, funcs, body in dsync:
        for mode in ["whole", "compile_only"]:
            add("E.devsync.%s.%s" % (mode, n), k(body, decls, funcs))


# ---------------------------------------------------------------------------
# F. functions' formals and kernels' limits
# ---------------------------------------------------------------------------

ABI_TYPES = ["pred", "u8", "s8", "b8", "u16", "s16", "b16", "f16", "u32", "f32", "b64"]


def abi_module(formal, ret, use, space="reg", argdecl=None):
    """A .func with one formal (a return value if ret) and a kernel that
    calls it, takes its address, or leaves it alone."""
    decl = "." + space + " " + formal + ("" if formal.endswith("]") else " a")
    sig = ("(" + decl + ") f()") if ret else ("f(" + decl + ")")
    t = header("8.0") + "\n.func " + sig + "\n{\n\tret;\n}\n\n"
    t += ".visible .entry k(.param .u64 o)\n{\n\t.reg .b64 %rd<3>;\n"
    if use == "call":
        if space == "reg":
            t += "\t.reg " + formal + " %x;\n"
            arg = "%x"
        else:
            t += "\t.param " + (argdecl or formal + " x") + ";\n"
            arg = "x"
        t += ("\tcall (" + arg + "), f, ();\n") if ret else ("\tcall f, (" + arg + ");\n")
    elif use == "addr":
        t += "\tmov.u64 %rd1, f;\n\tld.param.u64 %rd2, [o];\n\tst.global.u64 [%rd2], %rd1;\n"
    return t + "\tret;\n}\n"


def gen_calls():
    for ty in ABI_TYPES:
        for ret in (False, True):
            for use in ("call", "addr", "unused"):
                add("F.abi.reg_%s_%s_%s" % (ty, "ret" if ret else "param", use),
                    abi_module("." + ty, ret, use))
    for formal in [".u8", ".s8", ".u16", ".s16", ".b8", ".b16", ".u32", ".align 4 .u16"]:
        add("F.abi.param_" + slug(formal) + "_call", abi_module(formal, False, "call", "param"))
    for formal, arg in [(".u8 a[4]", ".u8 x[4]"), (".s16 a[2]", ".s16 x[2]")]:
        add("F.abi.param_" + slug(formal) + "_call", abi_module(formal, False, "call", "param", arg))
    add("F.abi.reg_v2_u16_param_addr", abi_module(".v2 .u16", False, "addr"))
    for ty in ["pred", "u16", "u32"]:
        for used in (True, False):
            body = "\t.reg .b64 %rd;\n\t.reg ." + ty + " %x;\n\tld.param.u64 %rd, [fp];\n"
            body += "\tP: .callprototype _ (.reg ." + ty + " a);\n"
            if used:
                body += "\tcall %rd, (%x), P;\n"
            add("F.abi.proto_%s_%s" % (ty, "call" if used else "unused"),
                header("8.0") + "\n.visible .entry k(.param .u64 fp)\n{\n" + body + "\tret;\n}\n")
    # .calltargets: the listed functions must take the call's arguments
    for fty, nargs, entry in [("pred", 1, False), ("u32", 1, False), ("u32", 0, False), ("u32", 2, False),
                              ("u32", 1, True), ("u32", 0, True)]:
        head = ".visible .entry g(.param .u32 a)" if entry else ".func f(.reg ." + fty + " a)"
        target = "g" if entry else "f"
        args = ", ".join(["%x"] * nargs)
        t = header("8.0") + "\n" + head + "\n{\n\tret;\n}\n\n.visible .entry k(.param .u64 fp)\n{\n"
        t += "\t.reg .b64 %rd;\n\t.reg ." + fty + " %x;\n\tld.param.u64 %rd, [fp];\n"
        t += "\tT: .calltargets " + target + ";\n\tcall %rd, (" + args + "), T;\n\tret;\n}\n"
        add("F.calltargets.%s_%s_%dargs" % ("entry" if entry else "func", fty, nargs), t)
    # kernel parameter space: 0x1100 bytes before PTX ISA 8.1, 0x7ffc from it
    for ver in ["8.0", "8.1", "9.0"]:
        v = ver.replace(".", "")
        for n in [4344, 4345, 32752, 32753, 4294967296]:
            add("F.kparam.v%s_%d" % (v, n), header(ver) +
                "\n.visible .entry k(.param .align 4 .b8 buf[%d], .param .u64 o)\n{\n\tret;\n}\n" % n)
        for n in [32764, 32765]:
            add("F.kparam.v%s_alone_%d" % (v, n), header(ver) +
                "\n.visible .entry k(.param .align 4 .b8 buf[%d])\n{\n\tret;\n}\n" % n)
    # static shared memory: 48 KiB for what a kernel and the functions it names use
    load = "\t.reg .b32 %r;\n\tld.shared.u32 %r, [buf+4];\n"
    for n in [49152, 49153, 4294967296]:
        add("F.shared.kernel_%d" % n, header("8.0") + "\n.shared .align 4 .b8 buf[%d];\n\n" % n +
            ".visible .entry k()\n{\n" + load + "\tret;\n}\n")
        add("F.shared.inner_%d" % n, header("8.0") +
            "\n.visible .entry k()\n{\n\t.shared .align 4 .b8 buf[%d];\n\tret;\n}\n" % n)
    fn = ".func (.reg .b32 r) f()\n{\n\tld.shared.u32 r, [buf+4];\n\tret;\n}\n\n"
    for use, body in [("call", "\t.reg .b32 %r;\n\tcall (%r), f, ();\n"),
                      ("addr", "\t.reg .b64 %rd;\n\tmov.u64 %rd, f;\n"), ("none", "")]:
        add("F.shared.func_" + use, header("8.0") + "\n.shared .align 4 .b8 buf[49153];\n\n" + fn +
            ".visible .entry k()\n{\n" + body + "\tret;\n}\n")
    add("F.shared.unused", header("8.0") +
        "\n.shared .align 4 .b8 buf[49153];\n\n.visible .entry k()\n{\n\tret;\n}\n")
    add("F.shared.deadcode", header("8.0") + "\n.shared .align 4 .b8 buf[49153];\n\n.visible .entry k()\n{\n"
        "\t.reg .b32 %r;\n\tbra DONE;\n\tld.shared.u32 %r, [buf];\nDONE:\n\tret;\n}\n")
    add("F.shared.two_kernels", header("8.0") +
        "\n.shared .align 4 .b8 a[40000];\n.shared .align 4 .b8 b[40000];\n\n"
        ".visible .entry k()\n{\n\t.reg .b32 %r;\n\tld.shared.u32 %r, [a];\n\tret;\n}\n\n"
        ".visible .entry k2()\n{\n\t.reg .b32 %r;\n\tld.shared.u32 %r, [b];\n\tret;\n}\n")
    for a, b in [(3, 49136), (17, 49136)]:
        add("F.shared.align_%d_%d" % (a, b), header("8.0") +
            "\n.shared .align 16 .b8 b[%d];\n.shared .align 8 .b8 a[%d];\n\n" % (b, a) +
            ".visible .entry k()\n{\n\t.reg .b32 %r<3>;\n\tld.shared.u8 %r1, [a];\n"
            "\tld.shared.u32 %r2, [b];\n\tret;\n}\n")


def gen_mad():
    """mad.f32 without a rounding modifier (sm_1x's form) and with one, and
    .ftz, across the PTX versions and targets where the rule changes."""
    tmin = {"sm_10": 10, "sm_13": 12, "sm_20": 20, "sm_90": 78}
    insns = ["mad.f32", "mad.ftz.f32", "mad.sat.f32", "mad.ftz.sat.f32", "mad.sat.ftz.f32",
             "mad.rn.f32", "mad.rz.ftz.f32", "mad.rn.sat.f32", "add.ftz.f32"]
    for v in ["1.0", "1.3", "1.4", "2.0", "3.0", "3.1", "3.2", "4.0", "9.0"]:
        vv = int(v.replace(".", ""))
        for t in ["sm_10", "sm_13", "sm_20", "sm_90"]:
            if vv < tmin[t]:
                    continue        # D.vt covers versions without the target
            for i in insns:
                body = ("\t.reg .f32 %f<5>;\n\tmov.f32 %f1, 0f3F800001;\n\tmov.f32 %f2, 0fBF800002;\n"
                        "\t" + i + " %f3, %f1, %f1" + ("" if i.startswith("add") else ", %f2") + ";\n"
                        "\tst.global.f32 [g], %f3;\n")
                add("G.mad.v%s.%s.%s" % (v.replace(".", "_"), t, i.replace(".", "_")),
                    header(v, t, None) + "\n.global .f32 g;\n\n.entry k\n{\n" + body + "\tret;\n}\n")
    # as nvopencc wrote it: PTX ISA 1.4, sm_10 with map_f64_to_f32
    add("G.mad.v1_4.sm_10_map_f64.mad_f32",
        header("1.4", "sm_10, map_f64_to_f32", None) + "\n.global .f32 g;\n\n.entry k\n{\n"
        "\t.reg .f32 %f<4>;\n\tmad.f32 %f3, %f1, %f2, %f1;\n\tst.global.f32 [g], %f3;\n\tret;\n}\n")


def generate():
    del CASES[:]
    _NAMES.clear()
    gen_surface()
    gen_decls()
    gen_opaque()
    gen_version()
    gen_nvcc()
    gen_calls()
    gen_mad()
    return list(CASES)


# ---------------------------------------------------------------------------
# running ptxas
# ---------------------------------------------------------------------------

def main():
    return ptxas_corpus.main(__doc__, generate, CASES_TXT, ARCH,
                             lambda name: ".".join(name.split(".")[:2]), "category")


if __name__ == "__main__":
    sys.exit(main())
