#!/usr/bin/env bash
# Installs this build of mpiguide into a scratch prefix, moves the prefix elsewhere (the
# package must be relocatable), and checks what a consumer sees:
#   - pkg-config --cflags --libs mpiguide names the moved prefix, and a program compiles and
#     links with it;
#   - a CMake project (consumer/) configured with this build's MPI finds mpiguide::mpiguide and
#     builds;
#   - the same project configured with the other MPI library stops at configure time with a
#     message that names both libraries;
#   - the documentation, the man pages and the completion are installed, and Lmod's module load of
#     the installed modulefile sets PATH, MANPATH and MPIGUIDE_LIB to the moved prefix; the site
#     shim is installed beside libmpiguide, and module load mpiguide-site puts it in LD_PRELOAD.
# Environment (tests/install/CMakeLists.txt): MG_BUILD MG_FLAVOR MG_WORKDIR MG_HERE.
set -u
: "${MG_BUILD:?}" "${MG_FLAVOR:?}" "${MG_WORKDIR:?}" "${MG_HERE:?}"
# shellcheck source=../common/assert.sh
source "$(dirname "$0")/../common/assert.sh"
case $MG_FLAVOR in
openmpi) cc=mpicc.openmpi other=mpicc.mpich name="Open MPI" ;;
*) cc=mpicc.mpich other=mpicc.openmpi name=MPICH ;;
esac
rm -rf "$MG_WORKDIR" && mkdir -p "$MG_WORKDIR" && cd "$MG_WORKDIR" || exit 1

if cmake --install "$MG_BUILD" --prefix "$PWD/prefix" >install.log 2>&1; then ok "cmake --install"
else fail "cmake --install: $(tail -3 install.log)"; fi
mv prefix moved
pc=$(find "$PWD/moved" -name mpiguide.pc | head -1)
if [[ -z $pc ]]; then fail "no mpiguide.pc installed"
else
  flags=$(PKG_CONFIG_PATH=$(dirname "$pc") pkg-config --cflags --libs mpiguide)
  if [[ $flags == *"$PWD/moved/"* && $flags != *"/usr/local"* ]]; then ok "pkg-config follows the moved prefix: $flags"
  else fail "pkg-config does not follow the moved prefix: $flags"; fi
  # shellcheck disable=SC2086
  if $cc -o pc_consumer "$MG_HERE/consumer/main.c" $flags >pc.log 2>&1; then ok "compiled and linked with pkg-config's flags"
  else fail "compiling with pkg-config's flags: $(tail -3 pc.log)"; fi
  if [[ $(PKG_CONFIG_PATH=$(dirname "$pc") pkg-config --variable=mpi mpiguide) == "$MG_FLAVOR" ]]; then
    ok "mpiguide.pc records mpi=$MG_FLAVOR"
  else fail "mpiguide.pc does not record mpi=$MG_FLAVOR"; fi
fi
if [[ -s moved/share/doc/mpiguide/library.md && -s moved/share/doc/mpiguide/README.md ]]; then ok "docs installed"
else fail "no docs in share/doc/mpiguide"; fi

# man pages, completion and the modulefile, which finds the moved prefix from its own place
if [[ -s moved/share/man/man1/mpiguide-check.1 && -s moved/share/man/man7/libmpiguide.7 &&
  -s moved/share/bash-completion/completions/mpiguide ]]; then ok "man pages and bash completion installed"
else fail "no man pages or completion under share/"; fi
init=/usr/share/lmod/lmod/init/bash
if [[ -r $init ]]; then
  out=$(env -u LOADEDMODULES -u _LMFILES_ MODULEPATH="$PWD/moved/share/modulefiles" bash -c "source $init >/dev/null 2>&1
    module load mpiguide/$(moved/bin/mpiguide --version | cut -d' ' -f2)-$MG_FLAVOR && command -v mpiguide &&
    echo lib=\$MPIGUIDE_LIB && man -w mpiguide-check" 2>&1)
  if [[ $out == "$PWD/moved/bin/mpiguide"$'\n'"lib=$PWD/moved/lib/libmpiguide.so.0"$'\n'"$PWD/moved/share/man/man1/mpiguide-check.1" ]]; then
    ok "module load of the moved prefix's modulefile: PATH, MPIGUIDE_LIB, MANPATH there"
  else fail "module load from moved/share/modulefiles: $out"; fi
  # the site shim beside libmpiguide, and its modulefile mpiguide-site/<version>
  out=$(env -u LOADEDMODULES -u _LMFILES_ -u LD_PRELOAD MODULEPATH="$PWD/moved/share/modulefiles" bash -c "source $init >/dev/null 2>&1
    module load mpiguide-site && echo pre=\$LD_PRELOAD" 2>&1)
  if [[ $out == "pre=$PWD/moved/lib/libmpiguide-preload.so" && -f moved/lib/libmpiguide-preload.so ]]; then
    ok "module load mpiguide-site of the moved prefix: LD_PRELOAD=$PWD/moved/lib/libmpiguide-preload.so"
  else fail "module load mpiguide-site from moved/share/modulefiles: '$out'"; fi
else fail "no Lmod ($init): scripts/setup.sh installs Debian's lmod"; fi

lib=$(moved/bin/mpiguide env --lib 2>&1)
if [[ $lib == "$PWD/moved/"*libmpiguide.so.0 && -e $lib ]]; then ok "mpiguide env --lib finds the installed library: $lib"
else fail "mpiguide env --lib: '$lib', want the library under $PWD/moved"; fi
if moved/bin/mpiguide --help | grep -q "Documentation: $PWD/moved/share/doc/mpiguide"; then ok "--help points to the installed docs"
else fail "mpiguide --help does not point to the installed docs: $(moved/bin/mpiguide --help | tail -1)"; fi

if cmake -S "$MG_HERE/consumer" -B same -DCMAKE_PREFIX_PATH="$PWD/moved" -DMPI_C_COMPILER="$cc" >same.log 2>&1 &&
  cmake --build same >>same.log 2>&1; then ok "a CMake project with $cc finds and uses mpiguide::mpiguide"
else fail "CMake consumer with $cc: $(grep -m3 -iE 'error|mpiguide' same.log)"; fi

if cmake -S "$MG_HERE/consumer" -B other -DCMAKE_PREFIX_PATH="$PWD/moved" -DMPI_C_COMPILER="$other" >other.log 2>&1; then
  fail "a CMake project with $other configured against an mpiguide built with $name"
elif tr -s ' \n' ' ' <other.log | grep -q "was built with $name, but this project found the MPI library"; then
  ok "a CMake project with $other is refused, with a message naming both libraries"
else fail "CMake consumer with $other failed without saying why: $(grep -m3 -i error other.log)"; fi

finish
