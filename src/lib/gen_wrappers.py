#!/usr/bin/env python3
"""Generate libmpiguide's accounting wrappers from src/lib/mpi_functions.txt (the one list).

    gen_wrappers.py LIST OUT_DIR

writes OUT_DIR/lib/mg_functions.h (an id per listed function, MG_FN_<name>, and the table's
declaration), OUT_DIR/lib/mg_functions.c (the table of names and classes: libmpiguide's internals,
the trace's writer) and OUT_DIR/lib/mg_accounted.c (one wrapper per function whose AVAIL is not
`own` or `none:`: the shared library; docs/trace.md, "Every MPI call").

Each generated wrapper is, with no trace, a test of one global byte and a tail call of its
PMPI_ twin; with a timed trace it calls its out-of-line accounting part, which times the call,
attributes a completion's time to the posts of the requests it was given, keeps the post site of
a request the call creates, and records the row. The list is parsed strictly: a line that does
not parse stops the build with its line number.
"""
import re
import sys

CLASSES = ["tuned", "init", "completion", "collective", "p2p", "probe", "comm", "rma", "io",
           "datatype", "tool", "other"]
AVAILS = {"3.1": None, "4.0": "defined(MPI_VERSION) && MPI_VERSION >= 4",
          "ompi": "defined(OPEN_MPI)", "mpich": "defined(MPICH)"}
ROLES = {"post", "post_persistent", "req", "reqs", "n", "count", "type", "comm"}


def die(path, lineno, msg):
    sys.exit("%s:%d: %s" % (path, lineno, msg))


def split_params(text):
    out, depth, cur = [], 0, ""
    for ch in text:
        depth += ch == "("
        depth -= ch == ")"
        if ch == ";" and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


def param_name(decl):
    """The parameter's name in a C declaration: the last identifier outside a function pointer's
    parentheses and array brackets."""
    d = re.sub(r"\[[^\]]*\]", "", decl).strip()
    m = re.match(r".*\(\s*\*\s*(\w+)\s*\)\s*\(.*\)$", d)
    if m:
        return m.group(1)
    m = re.search(r"(\w+)\s*$", d)
    return m.group(1) if m else None


def parse(path):
    fns = []
    seen = set()
    with open(path) as f:
        for lineno, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            head, bar, tail = line.partition("|")
            w = head.split()
            if len(w) < 3 or not re.match(r"^MPIX?_\w+$", w[0]) or w[1] not in CLASSES:
                die(path, lineno, "expected NAME CLASS AVAIL [RETURN | PARAMS]")
            name, cls, avail = w[0], w[1], w[2]
            if name in seen:
                die(path, lineno, "%s listed twice" % name)
            seen.add(name)
            fn = {"name": name, "class": cls, "avail": avail, "line": lineno, "params": []}
            if avail.startswith("none:"):
                if bar:
                    die(path, lineno, "a function not wrapped has no parameters")
                fn["avail"] = "none"
                fns.append(fn)
                continue
            if avail not in AVAILS and avail != "own":
                die(path, lineno, "AVAIL '%s' is not 3.1, 4.0, ompi, mpich, own or none:REASON" % avail)
            if not bar or len(w) < 4:
                die(path, lineno, "expected RETURN | PARAMS")
            fn["ret"] = " ".join(w[3:])
            for p in split_params(tail):
                decl, _, role = p.partition("@")
                decl, role = decl.strip(), role.strip()
                if role and role not in ROLES:
                    die(path, lineno, "unknown role @%s" % role)
                pname = param_name(decl)
                if not pname:
                    die(path, lineno, "cannot find the parameter name in '%s'" % decl)
                fn["params"].append({"decl": decl, "name": pname, "role": role})
            fns.append(fn)
    return fns


def roles(fn):
    return {p["role"]: p["name"] for p in fn["params"] if p["role"]}


def wrapper(fn):
    name, ret, params = fn["name"], fn["ret"], fn["params"]
    pmpi = "P" + name
    decls = ", ".join(p["decl"] for p in params) or "void"
    args = ", ".join(p["name"] for p in params)
    r = roles(fn)
    fid = "MG_FN_" + name
    void_ret = ret == "void"
    lines = []
    lines.append("static MG_ACTIVE %s acct_%s(const void *mg_site_%s%s) {" %
                 (ret, name, ", " if params else "", decls if params else ""))
    lines.append("  mg_acct_call a;")
    lines.append("  mg_acct_begin(&a, %s, mg_site_);" % fid)
    lines.append("  mg_acct_start(&a);")
    # a completion (or MPI_Request_free): the requests it was given, before the call clears them
    is_compl = fn["class"] == "completion" or name == "MPI_Request_free"
    if is_compl and "reqs" in r:
        lines.append("  mg_acct_given(&a, %s, %s);" % (r.get("n", "0"), r["reqs"]))
    elif is_compl and "req" in r:
        lines.append("  mg_acct_given(&a, 1, %s);" % r["req"])
    if void_ret:
        lines.append("  %s(%s);" % (pmpi, args))
    else:
        lines.append("  %s rc = %s(%s);" % (ret, pmpi, args))
    lines.append("  mg_acct_stop(&a);")
    ok = "rc == MPI_SUCCESS" if ret == "int" else "1"
    if "count" in r and "type" in r:
        lines.append("  if (%s) mg_acct_bytes(&a, (long long)%s, %s);" % (ok, r["count"], r["type"]))
    if "comm" in r:
        lines.append("  if (%s) mg_acct_comm(&a, %s);" % (ok, r["comm"]))
    if "post" in r or "post_persistent" in r:
        req = r.get("post") or r.get("post_persistent")
        lines.append("  if (%s && %s) mg_acct_posted(&a, *%s, %d);" %
                     (ok, req, req, 1 if "post_persistent" in r else 0))
    if is_compl and "reqs" in r:
        lines.append("  mg_acct_done(&a, %s);" % r["reqs"])
    elif is_compl and "req" in r:
        lines.append("  mg_acct_done(&a, %s);" % r["req"])
    else:
        lines.append("  mg_acct_done(&a, NULL);")
    if not void_ret:
        lines.append("  return rc;")
    lines.append("}")
    lines.append("MG_EXPORT %s %s(%s) {" % (ret, name, decls))
    lines.append("  if (__builtin_expect(!mg_acct_on, 1)) %s%s(%s);" %
                 ("" if void_ret else "return ", pmpi, args))
    if void_ret:
        lines.append("  else acct_%s(MG_ACCT_SITE%s%s);" % (name, ", " if params else "", args))
    else:
        lines.append("  return acct_%s(MG_ACCT_SITE%s%s);" % (name, ", " if params else "", args))
    lines.append("}")
    return "\n".join(lines)


def guard(fn):
    g = ["!defined(%s)" % fn["name"]]  # a library that defines it as a macro has no function to wrap
    a = AVAILS.get(fn["avail"])
    if a:
        g.insert(0, a)
    if fn["name"].startswith("MPIX_") and fn["name"].endswith("_init") and fn["avail"] == "ompi":
        g.insert(1, "defined(OMPI_HAVE_MPI_EXT_PCOLLREQ)")
    return " && ".join(g)


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: gen_wrappers.py LIST OUT_DIR")
    fns = parse(sys.argv[1])
    out = sys.argv[2]
    listed = [f for f in fns if f["avail"] != "none"]
    with open(out + "/lib/mg_functions.h", "w") as h:
        h.write("/* Generated by src/lib/gen_wrappers.py from src/lib/mpi_functions.txt: do not edit. */\n")
        h.write("#ifndef MG_FUNCTIONS_H\n#define MG_FUNCTIONS_H\n\n")
        h.write("/* The classes of the list (its header names them), in order. */\n")
        h.write("enum {%s, MG_NCLASS};\n" % ", ".join("MG_CLASS_" + c.upper() for c in CLASSES))
        h.write("/* One id per listed function a library declares (AVAIL not none), in list order. */\n")
        h.write("enum {\n")
        for f in listed:
            h.write("  MG_FN_%s,\n" % f["name"])
        h.write("  MG_NFN\n};\n")
        h.write("typedef struct mg_fn_info {\n  const char *name; /* MPI_Waitall */\n"
                "  int cls;           /* MG_CLASS_* */\n} mg_fn_info;\n")
        h.write("extern const mg_fn_info mg_fns[MG_NFN];\n")
        h.write("extern const char *const mg_class_names[MG_NCLASS];\n")
        h.write("\n#endif\n")
    with open(out + "/lib/mg_functions.c", "w") as c:
        c.write("/* Generated by src/lib/gen_wrappers.py from src/lib/mpi_functions.txt: do not edit. */\n")
        c.write('#include "lib/mg_functions.h"\n\n')
        c.write("const char *const mg_class_names[MG_NCLASS] = {%s};\n" %
                ", ".join('"%s"' % x for x in CLASSES))
        c.write("const mg_fn_info mg_fns[MG_NFN] = {\n")
        for f in listed:
            c.write('  {"%s", MG_CLASS_%s},\n' % (f["name"], f["class"].upper()))
        c.write("};\n")
    with open(out + "/lib/mg_accounted.c", "w") as c:
        c.write("/* Generated by src/lib/gen_wrappers.py from src/lib/mpi_functions.txt: do not edit.\n"
                " * The accounting wrappers of every listed MPI function without a wrapper of its own\n"
                " * (lib/acct.h; docs/trace.md, \"Every MPI call\"). */\n")
        c.write('#include "lib/acct.h"\n#if defined(OPEN_MPI)\n#include <mpi-ext.h>\n#endif\n')
        c.write("/* the functions MPI-2.0 deprecated are still functions a program can call */\n"
                '#pragma GCC diagnostic ignored "-Wdeprecated-declarations"\n\n')
        for f in listed:
            if f["avail"] == "own":
                continue
            c.write("/* %s:%d */\n#if %s\n%s\n#endif\n\n" % ("mpi_functions.txt", f["line"], guard(f), wrapper(f)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
