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
ROLES = {"post", "post_persistent", "req", "reqs", "n", "count", "type", "comm", "newcomm", "start", "starts"}


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


# How an accounting body names its roles' values: the C wrapper's arguments as they are; a Fortran
# binding's (Open MPI's, every argument an address) dereferenced as MPI_Fint and converted to C
# handles, the request arrays through mg_acct_fgiven / mg_acct_fdone, which convert each element.
C_DIALECT = {"int": "(long long)%s", "n": "%s", "type": "%s", "comm": "%s", "newcomm": "*%s", "req_value": "*%s",
             "started": "mg_acct_started", "req_guard": "%s && ",
             "ptr": "%s", "given": "mg_acct_given", "done": "mg_acct_done"}
F_DIALECT = {"int": "*(MPI_Fint *)%s", "n": "*(MPI_Fint *)%s", "type": "PMPI_Type_f2c(*(MPI_Fint *)%s)",
             "comm": "PMPI_Comm_f2c(*(MPI_Fint *)%s)", "newcomm": "PMPI_Comm_f2c(*(MPI_Fint *)%s)",
             "req_value": "PMPI_Request_f2c(*(MPI_Fint *)%s)", "started": "mg_acct_fstarted",
             "req_guard": "", "ptr": "(MPI_Fint *)%s", "given": "mg_acct_fgiven", "done": "mg_acct_fdone"}


def is_completion(fn):
    """A completion call or MPI_Request_free: its accounting part also frees the scratch kept with
    the requests it completes (lib/acct.h, mg_acct_keep), so it tests mg_acct_compl."""
    return fn["class"] == "completion" or fn["name"] == "MPI_Request_free"


def on_byte(fn):
    """The one byte a wrapper of fn tests before its tail call: a communicator's maker's also says
    the progress thread is on (its shadow to make, mg_acct_made)."""
    r = roles(fn)
    return ("mg_acct_compl" if is_completion(fn) else "mg_acct_newcomm" if "newcomm" in r
            else "mg_acct_starts" if "start" in r or "starts" in r else "mg_acct_on")


def acct_body(fn, call, ok, d, r):
    """The accounting part of a wrapper of fn, between its head and its return: time the call (line
    `call`), keep what its roles say (r: role -> the argument's name, written in dialect d), and
    record it. ok: the C expression of a successful call."""
    out = ["  mg_acct_call a;", "  mg_acct_begin(&a, MG_FN_%s, mg_site_);" % fn["name"], "  mg_acct_start(&a);"]
    # a completion (or MPI_Request_free): the requests it was given, before the call clears them
    is_compl = is_completion(fn)
    reqs = r.get("reqs") or r.get("req") if is_compl else None
    if reqs:
        n = (d["n"] % r["n"] if "n" in r else "0") if "reqs" in r else "1"
        out.append("  %s(&a, %s, %s);" % (d["given"], n, d["ptr"] % reqs))
    out.append(call)
    if "newcomm" in r:  # the shadow made inside the timed call: what the program waits for
        out.append("  if (%s) mg_acct_made(%s);" % (ok, d["newcomm"] % r["newcomm"]))
    if "start" in r or "starts" in r:  # the schedules' runs started inside the timed call too
        n = d["n"] % r["n"] if "starts" in r else "1"
        out.append("  if (%s) %s(%s, %s);" % (ok, d["started"], n, d["ptr"] % (r.get("start") or r["starts"])))
    out.append("  mg_acct_stop(&a);")
    if "count" in r and "type" in r:
        out.append("  if (%s) mg_acct_bytes(&a, %s, %s);" % (ok, d["int"] % r["count"], d["type"] % r["type"]))
    if "comm" in r:
        out.append("  if (%s) mg_acct_comm(&a, %s);" % (ok, d["comm"] % r["comm"]))
    for role, pers in (("post", 0), ("post_persistent", 1)):
        if role in r:
            out.append("  if (%s%s) mg_acct_posted(&a, %s, %d);" %
                       (d["req_guard"] % r[role] if d["req_guard"] else "", ok, d["req_value"] % r[role], pers))
    out.append("  %s(&a, %s);" % (d["done"], d["ptr"] % reqs) if reqs else "  mg_acct_done(&a, NULL);")
    return out


def wrapper(fn):
    name, ret, params = fn["name"], fn["ret"], fn["params"]
    pmpi = "P" + name
    decls = ", ".join(p["decl"] for p in params) or "void"
    args = ", ".join(p["name"] for p in params)
    r = roles(fn)
    void_ret = ret == "void"
    lines = ["static MG_ACTIVE %s acct_%s(const void *mg_site_%s%s) {" %
             (ret, name, ", " if params else "", decls if params else "")]
    reqs = r.get("reqs") or r.get("req")
    if is_completion(fn) and reqs and not void_ret:
        # the progress thread alone (mg_acct_compl 1): the schedules among the requests advanced
        # first, then the call itself, neither timed nor recorded (lib/acct.h)
        n = r["n"] if "reqs" in r else "1"
        lines.append("  if (mg_acct_compl == MG_ACCT_COMPL_DRIVE) {")
        lines.append("    mg_acct_drive(MG_FN_%s, %s, %s);" % (name, n, reqs))
        lines.append("    return %s(%s);" % (pmpi, args))
        lines.append("  }")
    call = "  %s(%s);" % (pmpi, args) if void_ret else "  %s rc = %s(%s);" % (ret, pmpi, args)
    lines += acct_body(fn, call, "rc == MPI_SUCCESS" if ret == "int" else "1", C_DIALECT, r)
    if not void_ret:
        lines.append("  return rc;")
    lines.append("}")
    lines.append("MG_EXPORT %s %s(%s) {" % (ret, name, decls))
    lines.append("  if (__builtin_expect(!%s, 1)) %s%s(%s);" %
                 (on_byte(fn), "" if void_ret else "return ", pmpi, args))
    if void_ret:
        lines.append("  else acct_%s(MG_ACCT_SITE%s%s);" % (name, ", " if params else "", args))
    else:
        lines.append("  return acct_%s(MG_ACCT_SITE%s%s);" % (name, ", " if params else "", args))
    lines.append("}")
    return "\n".join(lines)


def fortran_ok(fn):
    """Whether fn has a Fortran binding to wrap (mpif.h, `use mpi`): a subroutine with an ierror
    for each C function returning int, but the tool interface, the handle conversions and the
    MPIX_ extensions, which have none (tests/intercept/functions.sh checks the names against the
    Fortran libraries' exports)."""
    n = fn["name"]
    return (fn["ret"] in ("int", "double", "MPI_Aint") and n.startswith("MPI_") and not n.startswith("MPI_T_") and not n.endswith("_c")
            and not re.search(r"_(c2f|f2c)$", n) and fn["avail"] in ("3.1", "4.0", "mpich"))


# The functions the mpi_f08 module has no binding of (MPI-3.1, 17.1.1: it leaves out what MPI-2.0
# deprecated and MPI-3.0 removed): both libraries' exports agree.
NO_F08 = {"MPI_Address", "MPI_Attr_delete", "MPI_Attr_get", "MPI_Attr_put", "MPI_Errhandler_create",
          "MPI_Errhandler_get", "MPI_Errhandler_set", "MPI_Keyval_create", "MPI_Keyval_free", "MPI_Type_extent",
          "MPI_Type_hindexed", "MPI_Type_hvector", "MPI_Type_lb", "MPI_Type_struct", "MPI_Type_ub"}


def f08_name(fn):
    """The mpi_f08 binding's name: Open MPI's mpi_<name>_f08_; MPICH's mpi_<name>_f08ts_ for a
    routine with a choice buffer (a void * parameter that is no attribute value, extra state or
    returned address), else mpi_<name>_f08_. None where the binding takes strings (its hidden
    lengths are not the mpif.h binding's) or does not exist."""
    if fn["name"] in NO_F08 or nchars(fn):
        return None, None
    low = fn["name"][4:].lower()
    choice = any(re.search(r"\bvoid\s*\*\s*(?!attribute_val|extra_state|baseptr|buffer_addr)\w", p["decl"])
                 for p in fn["params"])
    ompi = "mpi_%s_f08_" % low if fn["ret"] == "int" and fn["avail"] == "3.1" else None
    return ompi, "mpi_%s_%s" % (low, "f08ts_" if choice else "f08_")


def nchars(fn):
    """The hidden CHARACTER lengths gfortran passes after the arguments: one per string argument
    (char *, and the arrays of strings of MPI_Comm_spawn*), in order."""
    return sum(1 for p in fn["params"] if re.search(r"\bchar\b", p["decl"]))


def fortran(fn):
    """The Fortran entries of fn: Open MPI's (ompi_<name>_f with the four mpif.h manglings as
    aliases; its bindings call PMPI_ themselves, so this times the call and converts the handles
    its roles need) and MPICH's (mpi_<name>_ and its manglings; MPICH's bindings call the C
    function, whose wrapper times it: this notes the program's site)."""
    name = fn["name"]
    low = name[4:].lower()
    params = fn["params"]
    k = nchars(fn)
    # a C function returning int is a subroutine with an ierror; MPI_Wtime, MPI_Wtick (double) and
    # MPI_Aint_add, MPI_Aint_diff (an address) are Fortran functions, without one
    sub = fn["ret"] == "int"
    rt = "void" if sub else fn["ret"]
    fp = ["F a%d" % i for i in range(len(params))] + (["F ierr"] if sub else []) + ["size_t l%d" % i for i in range(k)]
    fa = ["a%d" % i for i in range(len(params))] + (["ierr"] if sub else []) + ["l%d" % i for i in range(k)]
    P, A = ", ".join(fp) or "void", ", ".join(fa)
    idx = {p["role"]: i for i, p in enumerate(params) if p["role"]}
    out = ["/* %s's Fortran binding */" % name]
    out.append("extern %s pmpi_%s_(%s) __attribute__((weak));" % (rt, low, P))
    out.append("#if defined(OPEN_MPI)")
    out.append("static MG_ACTIVE %s facct_%s(const void *mg_site_%s%s) {" % (rt, name, ", " if fa else "", P if fa else ""))
    call = "  %spmpi_%s_(%s);" % ("" if sub else rt + " r = ", low, A)
    out += acct_body(fn, call, "(!ierr || *(MPI_Fint *)ierr == MPI_SUCCESS)", F_DIALECT,
                     {role: "a%d" % i for role, i in idx.items()})
    if not sub:
        out.append("  return r;")
    out.append("}")
    out.append("MG_EXPORT %s ompi_%s_f(%s);" % (rt, low, P))
    out.append("%s ompi_%s_f(%s) {" % (rt, low, P))
    if sub:
        out.append("  if (__builtin_expect(!%s, 1)) pmpi_%s_(%s);" % (on_byte(fn), low, A))
        out.append("  else facct_%s(MG_ACCT_SITE%s%s);" % (name, ", " if fa else "", A))
    else:
        out.append("  if (__builtin_expect(!%s, 1)) return pmpi_%s_(%s);" % (on_byte(fn), low, A))
        out.append("  return facct_%s(MG_ACCT_SITE%s%s);" % (name, ", " if fa else "", A))
    out.append("}")
    target = "ompi_%s_f" % low
    out.append("#else")
    out.append("MG_EXPORT %s mpi_%s_(%s);" % (rt, low, P))
    out.append("%s mpi_%s_(%s) {" % (rt, low, P))
    if sub:
        out.append("  if (__builtin_expect(!mg_acct_on, 1)) {")
        out.append("    pmpi_%s_(%s);" % (low, A))
        out.append("    return;")
        out.append("  }")
    else:
        out.append("  if (__builtin_expect(!mg_acct_on, 1)) return pmpi_%s_(%s);" % (low, A))
    out.append("  void *outer = mg_fortran_site; /* the program's call, for the C wrapper MPICH's binding calls */")
    out.append("  mg_fortran_site = outer ? outer : __builtin_return_address(0);")
    out.append("  %spmpi_%s_(%s);" % ("" if sub else rt + " r = ", low, A))
    out.append("  mg_fortran_site = outer;")
    if not sub:
        out.append("  return r;")
    out.append("}")
    target2 = "mpi_%s_" % low
    out.append("#endif")
    # the mpif.h manglings: gfortran's mpi_<name>_ and the three other compilers'
    for alias in ("mpi_%s_" % low, "mpi_%s__" % low, "mpi_%s" % low, "MPI_%s" % low.upper()):
        out.append("#if defined(OPEN_MPI)")
        out.append('MG_EXPORT %s %s(%s) __attribute__((alias("%s")));' % (rt, alias, P, target))
        if alias != target2:
            out.append("#else")
            out.append('MG_EXPORT %s %s(%s) __attribute__((alias("%s")));' % (rt, alias, P, target2))
        out.append("#endif")
    # mpi_f08: the library's binding, found behind libmpiguide, called with the program's site noted
    # (Open MPI's calls ompi_<name>_f above, MPICH's the C function)
    f_ompi, f_mpich = f08_name(fn)
    for cond, f08 in (("defined(OPEN_MPI)", f_ompi), ("defined(MPICH_VERSION)", f_mpich)):
        if not f08:
            continue
        out.append("#if %s" % cond)
        out.append("MG_EXPORT %s %s(%s);" % (rt, f08, P))
        out.append("%s %s(%s) {" % (rt, f08, P))
        out.append("  static void *volatile next;")
        out.append('  %s (*f)(%s) = (%s (*)(%s))mg_f08_next(&next, "%s");' % (rt, P, rt, P, f08))
        out.append("  if (__builtin_expect(!mg_acct_on, 1)) %sf(%s);" % ("return " if not sub else "", A))
        if sub:
            out.append("  else {")
        else:
            out.append("  {")
        out.append("    void *outer = mg_fortran_site;")
        out.append("    mg_fortran_site = outer ? outer : __builtin_return_address(0);")
        out.append("    %sf(%s);" % ("" if sub else rt + " r = ", A))
        out.append("    mg_fortran_site = outer;")
        if not sub:
            out.append("    return r;")
        out.append("  }")
        out.append("}")
        out.append("#endif")
    return "\n".join(out)


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
        c.write("/* The Fortran entries (mpif.h, `use mpi`) of Open MPI and MPICH; every argument by reference */\n"
                "#if defined(OPEN_MPI) || defined(MPICH_VERSION)\n#define MG_ACCT_FORTRAN 1\n#else\n"
                "#define MG_ACCT_FORTRAN 0\n#endif\ntypedef void *F;\n")
        c.write("/* MG_ACCT_NONE (CMake, SimGrid's SMPI: its header declares another set of functions, with\n"
                " * other qualifiers): no wrapper; the trace there holds the tuned operations only */\n"
                "#if !defined(MG_ACCT_NONE)\n")
        c.write("/* the functions MPI-2.0 deprecated are still functions a program can call */\n"
                '#pragma GCC diagnostic ignored "-Wdeprecated-declarations"\n\n')
        for f in listed:
            if f["avail"] == "own":
                continue
            c.write("/* %s:%d */\n#if %s\n%s\n" % ("mpi_functions.txt", f["line"], guard(f), wrapper(f)))
            if fortran_ok(f):
                c.write("#if MG_ACCT_FORTRAN\n%s\n#endif\n" % fortran(f))
            c.write("#endif\n\n")
        c.write("#endif /* MG_ACCT_NONE */\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
