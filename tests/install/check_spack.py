#!/usr/bin/env python3
"""Checks the Spack recipe (packaging/spack/mpiguide/package.py) against the build, without Spack
(CTest install.spack_recipe, label unit):

  - it parses (ast) and runs as Python with stub Spack names (every directive recorded);
  - the class is a CMakePackage named Mpiguide;
  - a version equal to CMakeLists.txt's project(VERSION), besides any branch version;
  - every option() of CMakeLists.txt is a variant (MPIGUIDE_X -> x) with the same default, passed
    to CMake by cmake_args() as define_from_variant("MPIGUIDE_X", "x"), unless it is one of the
    options for developers (NOT_VARIANTS) or CTest's own BUILD_TESTING; and no variant names an
    option that does not exist;
  - it depends on mpi, on cmake at least cmake_minimum_required's version (build), on python
    (build: the wrappers' generator), and on gsl exactly when +cli.

Usage: check_spack.py SOURCE_DIR. Prints ok/FAIL lines; exit 1 on a failure.
"""
import ast
import re
import sys
from pathlib import Path

# CMake options a site does not choose (docs/site.md): not variants.
NOT_VARIANTS = {
    "MPIGUIDE_WERROR": "warnings as errors: for the project's CI",
    "MPIGUIDE_FUZZ": "the libFuzzer build of tests/fuzz: no installable result",
}

fails = 0


def ok(msg):
    print("ok: " + msg)


def fail(msg):
    global fails
    fails += 1
    print("FAIL: " + msg)


def cmake_facts(text):
    """(options {NAME: default bool}, project version, cmake minimum version) of CMakeLists.txt."""
    text = re.sub(r"#[^\n]*", "", text)  # comments (no '#' inside the strings that matter here)
    opts = {}
    for m in re.finditer(r'\boption\(\s*([A-Za-z0-9_]+)\s+"[^"]*"\s+(ON|OFF)\s*\)', text):
        opts[m.group(1)] = m.group(2) == "ON"
    pv = re.search(r"\bproject\(\s*mpiguide\s+VERSION\s+([0-9.]+)", text)
    cm = re.search(r"cmake_minimum_required\(\s*VERSION\s+([0-9.]+)", text)
    return opts, pv.group(1) if pv else None, cm.group(1) if cm else None


class Recorder:
    """Stand-ins for Spack's directives and helpers: each call recorded."""

    def __init__(self):
        self.calls = []

    def directive(self, name):
        def record(*args, **kwargs):
            self.calls.append((name, args, kwargs))

        return record


def load_recipe(path):
    src = path.read_text()
    tree = ast.parse(src, str(path))  # a syntax error stops here, with the line
    rec = Recorder()

    class CMakePackage:
        def define(self, name, value):
            return ("define", name, value)

        def define_from_variant(self, name, variant=None):
            return ("from_variant", name, variant)

    class Spec(dict):
        pass

    class Mpi:
        mpicc = "/stub/mpicc"

    ns = {"CMakePackage": CMakePackage, "join_path": lambda *a: "/".join(a)}
    for d in ("version", "variant", "depends_on", "conflicts", "maintainers", "license", "patch", "provides",
              "requires", "resource"):
        ns[d] = rec.directive(d)
    # `from spack.package import *`: the stubs above stand for it
    body = [n for n in tree.body if not (isinstance(n, ast.ImportFrom) and n.module == "spack.package")]
    code = compile(ast.Module(body=body, type_ignores=[]), str(path), "exec")
    exec(code, ns)
    cls = ns.get("Mpiguide")
    pkg = None
    args = []
    if cls is not None:
        pkg = cls.__new__(cls)
        pkg.spec = Spec(mpi=Mpi())
        args = pkg.cmake_args()
    return tree, cls, CMakePackage, rec.calls, args


def main():
    src = Path(sys.argv[1])
    recipe = src / "packaging/spack/mpiguide/package.py"
    opts, version, cmake_min = cmake_facts((src / "CMakeLists.txt").read_text())
    if not opts or not version or not cmake_min:
        fail(f"CMakeLists.txt: options {opts}, version {version}, cmake_minimum_required {cmake_min}: not read")
        return
    try:
        tree, cls, base, calls, args = load_recipe(recipe)
    except SyntaxError as e:
        fail(f"{recipe}:{e.lineno}: does not parse: {e.msg}")
        return
    ok(f"{recipe.name} parses and runs with stub Spack names ({len(calls)} directives)")
    if cls is None or not issubclass(cls, base):
        fail("no class Mpiguide(CMakePackage)")
        return
    ok("class Mpiguide(CMakePackage)")

    versions = [(a, k) for n, a, k in calls if n == "version"]
    numbered = [a[0] for a, k in versions if re.fullmatch(r"[0-9.]+", a[0])]
    if version in numbered:
        ok(f"version {version}, the project's (CMakeLists.txt), among {[a[0] for a, k in versions]}")
    else:
        fail(f"versions {[a[0] for a, k in versions]} lack the project's {version}")
    bad = [n for n in numbered if tuple(map(int, n.split("."))) > tuple(map(int, version.split(".")))]
    if bad:
        fail(f"versions {bad} are newer than the project's {version}")

    variants = {a[0]: k.get("default") for n, a, k in calls if n == "variant"}
    passed = {a[1]: a[2] for a in args if a[0] == "from_variant"}
    for opt, default in sorted(opts.items()):
        if opt in NOT_VARIANTS or opt == "BUILD_TESTING":
            if opt in passed:
                fail(f"{opt} is for developers ({NOT_VARIANTS.get(opt, 'CTest')}) but the recipe passes it")
            continue
        want = opt.removeprefix("MPIGUIDE_").lower()
        if want not in variants:
            fail(f"option {opt} (CMakeLists.txt) has no variant '{want}'")
        elif variants[want] is not default:
            fail(f"variant '{want}' defaults to {variants[want]}, option {opt} to {'ON' if default else 'OFF'}")
        elif passed.get(opt) != want:
            fail(f"cmake_args() does not pass variant '{want}' as {opt} (define_from_variant)")
        else:
            ok(f"option {opt} = variant '{want}' (default {variants[want]}), passed by cmake_args()")
    for v in variants:
        if f"MPIGUIDE_{v.upper()}" not in opts:
            fail(f"variant '{v}' names no option of CMakeLists.txt (MPIGUIDE_{v.upper()})")
    defined = {a[1] for a in args if a[0] == "define"}
    if "MPI_C_COMPILER" in defined:
        ok("cmake_args() names the MPI's compiler (MPI_C_COMPILER: the build is for that MPI)")
    else:
        fail("cmake_args() does not set MPI_C_COMPILER from spec['mpi'].mpicc")

    deps = [(a[0], k) for n, a, k in calls if n == "depends_on"]

    def dep(name):
        return [(s, k) for s, k in deps if re.match(rf"{name}(@|$|\s)", s)]

    def build_only(k):
        t = k.get("type")
        return t == "build" or t == ("build",) or t == ["build"]

    if dep("mpi"):
        ok("depends on mpi")
    else:
        fail("no depends_on('mpi')")
    cm = dep("cmake")
    if cm and build_only(cm[0][1]) and cm[0][0] == f"cmake@{cmake_min}:":
        ok(f"depends on cmake@{cmake_min}: (build), as cmake_minimum_required")
    else:
        fail(f"depends_on cmake: {cm}, want 'cmake@{cmake_min}:' type build")
    py = dep("python")
    if py and build_only(py[0][1]):
        ok("depends on python (build): src/lib/gen_wrappers.py")
    else:
        fail(f"depends_on python: {py}, want type build")
    gsl = dep("gsl")
    if gsl and gsl[0][1].get("when") == "+cli":
        ok("depends on gsl when +cli")
    else:
        fail(f"depends_on gsl: {gsl}, want when='+cli'")


main()
print("check_spack: all checks passed" if not fails else f"check_spack: {fails} check(s) failed")
sys.exit(1 if fails else 0)
