#!/usr/bin/env bash
# The Debian packages of this build (cmake/packaging.cmake), made by cpack and unpacked with
# dpkg -x into a scratch root, then used through the unpacked files only:
#   - mpiguide-<mpi> depends on its MPI's libraries and launcher, libgsl and mpiguide-common, and
#     on nothing of the other MPI; the packages of both MPIs (the other's too, when its build
#     directory is there) share no file, and apt-get resolves them (a simulation, as root);
#   - /usr/bin/mpiguide runs `check --quick` at 2 ranks, and picks the build of the launcher that
#     started it (its environment planted); the unpacked libmpiguide, preloaded, runs a forced
#     mock-up in an application; mpiguide-doc holds the Slurm example, which parses;
#   - env --lib APP names the library of APP's MPI: the other MPI's is refused, naming both, until
#     its package is there, then found beside this one;
#   - every package has /usr/share/doc/<package>/copyright (machine-readable, DEP-5) and
#     changelog.Debian.gz (gzip -9n, Debian's format, this version); mpiguide-common recommends
#     bash-completion;
#   - the site shim libmpiguide-preload.so is in mpiguide-common and needs no MPI; preloaded alone
#     it leaves bash and /bin/true untouched, gives a program of this MPI (and of the other, when its
#     package is there) its own libmpiguide (a forced mock-up in the trace), and MPIGUIDE=off
#     turns it off (no trace);
#   - man finds and renders every page; the completion answers prefixes; `module load` (Debian's
#     lmod, through /etc/lmod/modules as Debian's MODULEPATH has it) sets PATH, MANPATH and
#     MPIGUIDE_LIB, and loading the other MPI's module swaps them; `module load mpiguide-site` puts
#     the shim in LD_PRELOAD.
# Environment (tests/install/CMakeLists.txt): MG_BUILD MG_OTHER_BUILD MG_FLAVOR MG_WORKDIR MG_APP
# MG_MPIEXEC MG_MPIEXEC_FLAGS MG_TIMEOUT.
set -u
: "${MG_BUILD:?}" "${MG_OTHER_BUILD:?}" "${MG_FLAVOR:?}" "${MG_WORKDIR:?}" "${MG_APP:?}"
# shellcheck source=../common/launch.sh
source "$(dirname "$0")/../common/launch.sh"
rm -rf "$MG_WORKDIR" && mkdir -p "$MG_WORKDIR" && cd "$MG_WORKDIR" || exit 1
case $MG_FLAVOR in
openmpi) other=mpich name="Open MPI" oname=MPICH mpilib=libopenmpi3 launcher=openmpi-bin notmine=libmpich ;;
*) other=openmpi name=MPICH oname="Open MPI" mpilib=libmpich12 launcher=mpich notmine=libopenmpi ;;
esac
version=$("$MG_BUILD/mpiguide" --version | awk '{print $2}')

# ---- the packages ----
pack() { # BUILD PACKAGE: cpack's .deb into debs/
  cpack --config "$1/CPackDeb-mpiguide-$2.cmake" -B "$PWD/cpack-$2" >"cpack-$2.log" 2>&1 &&
    mkdir -p debs && mv "cpack-$2"/*.deb debs/
}
for p in "$MG_FLAVOR" common doc; do pack "$MG_BUILD" "$p" || die "cpack mpiguide-$p: $(tail -3 "cpack-$p.log")"; done
mine=$(echo debs/mpiguide-"$MG_FLAVOR"_*.deb)
ok "cpack made $(cd debs && echo *.deb)"
deps=$(dpkg-deb -f "$mine" Depends)
want=("$mpilib" "$launcher" libgsl "mpiguide-common (= $version)")
lack=
for w in "${want[@]}"; do [[ $deps == *"$w"* ]] || lack+=" '$w'"; done
if [[ -z $lack && $deps != *"$notmine"* ]]; then ok "mpiguide-$MG_FLAVOR depends on: $deps"
else fail "mpiguide-$MG_FLAVOR: Depends '$deps' lacks$lack or names $notmine"; fi
other_deb=
if [[ -f $MG_OTHER_BUILD/CPackDeb-mpiguide-$other.cmake && -x $MG_OTHER_BUILD/mpiguide ]]; then
  if pack "$MG_OTHER_BUILD" "$other"; then other_deb=$(echo debs/mpiguide-"$other"_*.deb)
  else fail "cpack mpiguide-$other in $MG_OTHER_BUILD: $(tail -3 "cpack-$other.log")"; fi
else
  echo "note: no build of $oname in $MG_OTHER_BUILD: its package is not made"
fi
for d in debs/*.deb; do dpkg -c "$d" | awk '$1 !~ /^d/ {print $6}'; done | sort | uniq -d >shared.txt
if [[ ! -s shared.txt ]]; then ok "the packages share no file ($(ls debs | wc -l) packages)"
else fail "files in more than one package: $(head -3 shared.txt | tr '\n' ' ')"; fi
# Debian policy 12.5 and 12.7: each package's copyright and changelog
for d in debs/*.deb; do
  p=$(dpkg-deb -f "$d" Package) doc=./usr/share/doc/$(dpkg-deb -f "$d" Package)
  files=$(dpkg-deb -c "$d" | awk '{print $6}')
  if ! grep -qx "$doc/copyright" <<<"$files" || ! grep -qx "$doc/changelog.Debian.gz" <<<"$files"; then
    fail "$p: no $doc/copyright or $doc/changelog.Debian.gz"; continue
  fi
  dpkg-deb --fsys-tarfile "$d" | tar -xO "$doc/copyright" >"$p.copyright"
  dpkg-deb --fsys-tarfile "$d" | tar -xO "$doc/changelog.Debian.gz" >"$p.changelog.gz"
  if [[ $(head -1 "$p.copyright") == "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/" ]] &&
    grep -qx "Upstream-Name: mpiguide" "$p.copyright" && grep -qx "Files: \*" "$p.copyright" && grep -q "^License: ." "$p.copyright"
  then ok "$p: $doc/copyright, machine-readable ($(grep -m1 '^License:' "$p.copyright"))"
  else fail "$p: $doc/copyright is not DEP-5: $(head -3 "$p.copyright" | tr '\n' ' ')"; fi
  # gzip -n: no file name (flag bit 3) and no time stamp (bytes 4-7) in the header
  hdr=$(od -An -tu1 -N8 "$p.changelog.gz" | tr -s ' ')
  gzip -dc "$p.changelog.gz" >"$p.changelog" 2>/dev/null
  parsed=$(dpkg-parsechangelog -l "$p.changelog" 2>&1)
  if [[ $hdr == " 31 139 8 0 0 0 0 0" ]] && grep -qx "Version: $version" <<<"$parsed" && grep -qx "Source: mpiguide" <<<"$parsed" &&
    grep -Eq '^ -- .+ <.+>  [A-Z][a-z]{2}, [0-9]{2} [A-Z][a-z]{2} [0-9]{4} [0-9:]{8} [+]0000$' "$p.changelog"
  then ok "$p: $doc/changelog.Debian.gz (gzip -9n, Debian's format, version $version)"
  else fail "$p: changelog.Debian.gz: header$hdr; $(head -1 "$p.changelog"); $(grep -m1 -i 'warn\|error' <<<"$parsed")"; fi
done
rec=$(dpkg-deb -f debs/mpiguide-common_*.deb Recommends)
[[ ", $rec, " == *", bash-completion,"* ]] && ok "mpiguide-common recommends: $rec" || fail "mpiguide-common recommends '$rec': no bash-completion"
if [[ $(id -u) == 0 ]]; then
  if apt-get -s -o Debug::NoLocking=1 install "$PWD"/debs/*.deb >apt.log 2>&1 && grep -q "^Inst mpiguide-$MG_FLAVOR " apt.log
  then ok "apt-get install ./debs/*.deb resolves (simulated): $(grep -c '^Inst' apt.log) package(s) to install"
  else fail "apt-get -s install: $(grep -E '^E:|Depends|broken' apt.log | head -3)"; fi
  # a fresh Debian 12: apt's view of a system with nothing installed (the package lists of this
  # one) pulls this MPI's runtime and launcher and GSL, and nothing of the other MPI
  if compgen -G "/var/lib/apt/lists/*_Packages*" >/dev/null; then
    : >empty-status
    apt-get -s -o Debug::NoLocking=1 -o Dir::State::status="$PWD/empty-status" install "$PWD/$mine" \
      "$PWD"/debs/mpiguide-common_*.deb "$PWD"/debs/mpiguide-doc_*.deb >fresh.log 2>&1
    pulled=$(awk '/^Inst/ {print $2}' fresh.log | tr '\n' ' ')
    lack= wrong=
    for w in "$mpilib" "$launcher" libgsl27 mpiguide-common mpiguide-doc; do [[ " $pulled " == *" $w "* ]] || lack+=" $w"; done
    for w in $pulled; do [[ $w == *"${notmine#lib}"* ]] && wrong+=" $w"; done
    if [[ -z $lack$wrong ]]; then ok "on a fresh system apt would pull $(wc -w <<<"$pulled") packages with mpiguide-$MG_FLAVOR, $mpilib and $launcher among them, none of ${notmine#lib}"
    else fail "fresh install of mpiguide-$MG_FLAVOR: lacks$lack, pulls$wrong ($(grep -m2 '^E:' fresh.log))"; fi
  fi
fi

# ---- unpacked into a scratch root: this MPI's package, common, doc ----
root=$PWD/root
for d in "$mine" debs/mpiguide-common_*.deb debs/mpiguide-doc_*.deb; do dpkg -x "$d" "$root" || die "dpkg -x $d"; done
mg=$root/usr/bin/mpiguide
lib=$(echo "$root"/usr/lib/*/mpiguide/"$MG_FLAVOR"/lib/libmpiguide.so.0)
export PATH=$root/usr/bin:$PATH
if [[ $("$mg" --version) == "mpiguide $version (built for $name "* ]]; then ok "/usr/bin/mpiguide runs the unpacked mpiguide-$MG_FLAVOR"
else fail "/usr/bin/mpiguide --version: $("$mg" --version 2>&1)"; fi
if [[ $("$mg" env --lib 2>&1) == "$lib" ]]; then ok "mpiguide env --lib: $lib"
else fail "mpiguide env --lib says '$("$mg" env --lib 2>&1)', want $lib"; fi
if "$mg" env | grep -q "^documentation:  $root/usr/share/doc/mpiguide$"; then ok "mpiguide env finds the docs of mpiguide-doc"
else fail "mpiguide env: $("$mg" env | grep documentation)"; fi
sb=$root/usr/share/doc/mpiguide/examples/slurm/mpiguide-loop.sbatch
if [[ -x $sb ]] && bash -n "$sb" && grep -q 'command -v mpiguide' "$sb" && grep -q 'MPIGUIDE_LIB' "$sb"; then
  ok "mpiguide-doc holds the Slurm example (executable, parses, takes the installed mpiguide and \$MPIGUIDE_LIB)"
else fail "the Slurm example in mpiguide-doc: $(ls -l "$sb" 2>&1; bash -n "$sb" 2>&1 | head -2)"; fi

cmd_start
cmd_ctx 2 -- "$mg" check --quick -c bcast,allreduce -s 1K --budget 4s -q -o check
run check
if ((RC == 0)) && [[ -s check/verdicts.csv ]] && grep -q allreduce check/verdicts.csv; then
  ok "mpirun -np 2 /usr/bin/mpiguide check --quick (bcast, allreduce) wrote verdicts"
else fail "check through the unpacked command: status $RC, $(tail -2 check.err)"; fi
cmd_start
cmd_ctx 2 LD_PRELOAD="$lib" MPIGUIDE_ALG=allreduce=allreduce_as_reduce_bcast MPIGUIDE_TRACE="$PWD/trace.csv" -- "$MG_APP" 8 400
run preload
if ((RC == 0)) && grep -q "allreduce_as_reduce_bcast" trace.csv 2>/dev/null; then
  ok "the unpacked libmpiguide, preloaded, ran the forced mock-up (trace.csv)"
else fail "preloading $lib: status $RC, $(tail -2 preload.err)"; fi

# ---- env --lib for an application of the other MPI ----
oapp=$MG_OTHER_BUILD/jacobi
if [[ -x $oapp ]]; then target=("$oapp"); else target=(--mpi "$other"); fi
"$mg" env --lib "${target[@]}" >mismatch.out 2>mismatch.err
rc=$?
if ((rc == 1)) && grep -q "$oname" mismatch.err && grep -q "$name" mismatch.err && grep -q "$lib" mismatch.err; then
  ok "env --lib ${target[*]} without mpiguide-$other: refused, naming both: $(cut -c1-160 mismatch.err)"
else fail "env --lib ${target[*]} without mpiguide-$other: status $rc, '$(cat mismatch.out mismatch.err)'"; fi
if [[ -n $other_deb ]]; then
  dpkg -x "$other_deb" "$root"
  olib=$(echo "$root"/usr/lib/*/mpiguide/"$other"/lib/libmpiguide.so.0)
  if [[ $("$mg" env --lib "${target[@]}" 2>&1) == "$olib" ]]; then ok "env --lib ${target[*]}: $olib, beside this one"
  else fail "env --lib ${target[*]} with mpiguide-$other: '$("$mg" env --lib "${target[@]}" 2>&1)', want $olib"; fi
  if [[ $("$mg" env --lib "$MG_APP" 2>&1) == "$lib" ]]; then ok "env --lib APP of $name: still $lib"
  else fail "env --lib $MG_APP: '$("$mg" env --lib "$MG_APP" 2>&1)'"; fi
  # /usr/bin/mpiguide with both: MPIGUIDE_MPI's, else the default mpirun's
  case $(readlink -f "$(command -v mpirun)") in *mpich*) dflt=MPICH ;; *) dflt="Open MPI" ;; esac
  if MPIGUIDE_MPI=$other "$mg" env | grep -q "built for $oname" && env -u MPIGUIDE_MPI "$mg" env | grep -q "built for $dflt"
  then ok "/usr/bin/mpiguide runs MPIGUIDE_MPI's mpiguide, else the default mpirun's ($dflt)"
  else fail "/usr/bin/mpiguide with both installed: $(MPIGUIDE_MPI=$other "$mg" env | head -1); $(env -u MPIGUIDE_MPI "$mg" env | head -1)"; fi
  # ... and without MPIGUIDE_MPI, the launcher's that started it (its environment planted, values as
  # the launchers set them; the process itself never starts MPI: `env` is offline)
  bad=
  while IFS='|' read -r vars want; do
    # shellcheck disable=SC2086
    got=$(env -u MPIGUIDE_MPI -u OMPI_COMM_WORLD_RANK -u PMIX_RANK -u PMI_RANK -u PMI_FD -u PMI_PORT \
      -u SLURM_MPI_TYPE $vars "$mg" env 2>&1 | sed -n 's/.*built for \(.*\)$/\1/p' | head -n 1)
    [[ $got == "$want"* ]] || bad+=" [$vars: '$got', want $want]"
  done <<'EOF'
OMPI_COMM_WORLD_RANK=0|Open MPI
PMIX_RANK=0 SLURM_MPI_TYPE=pmix_v4|Open MPI
PMI_RANK=0 PMI_FD=5 SLURM_MPI_TYPE=pmi2|MPICH
PMI_RANK=0 PMI_PORT=vm:4242|MPICH
SLURM_MPI_TYPE=pmi2|MPICH
SLURM_MPI_TYPE=pmix|Open MPI
MPIGUIDE_MPI=openmpi PMI_RANK=0|Open MPI
MPIGUIDE_MPI=mpich OMPI_COMM_WORLD_RANK=0|MPICH
EOF
  if [[ -z $bad ]]; then ok "/usr/bin/mpiguide under a launcher: mpirun, srun --mpi=pmix -> Open MPI; Hydra, srun --mpi=pmi2 -> MPICH; MPIGUIDE_MPI first"
  else fail "/usr/bin/mpiguide under a launcher:$bad"; fi
fi

# ---- the site shim (src/site/preload.c): in mpiguide-common, libc only ----
unset MPIGUIDE MPIGUIDE_LIB_OPENMPI MPIGUIDE_LIB_MPICH # it must find the libraries from its own place
shim=$(echo "$root"/usr/lib/*/mpiguide/libmpiguide-preload.so)
needed=$(objdump -p "$shim" 2>/dev/null | awk '$1 == "NEEDED" {print $2}' | tr '\n' ' ')
if dpkg -c debs/mpiguide-common_*.deb | grep -q "/usr/lib/[^/]*/mpiguide/libmpiguide-preload.so$" && [[ -f $shim ]] &&
  [[ $needed == *libc.so* && $needed != *mpi* ]]; then ok "mpiguide-common holds $shim, which needs $needed"
else fail "the shim in mpiguide-common: '$shim', needs '$needed'"; fi
# a process without an MPI library is left alone: LD_PRELOAD unchanged, no libmpiguide mapped, silent
out=$(LD_PRELOAD="$shim" bash -c \
  'echo "$LD_PRELOAD|$(grep -c libmpiguide.so /proc/$$/maps)"; /bin/true && echo true' 2>&1)
if [[ $out == "$shim|0"$'\n'true ]]; then ok "with the shim preloaded, bash and /bin/true run untouched"
else fail "bash -c with the shim preloaded: '$out', want '$shim|0' and 'true'"; fi
# nor the mpiguide command (it links MPI, but measures the library's own operations): the loader
# maps no libmpiguide into it
n=$(LD_PRELOAD="$shim" LD_DEBUG=files "$mg" --version 2>&1 | grep -c "file=.*libmpiguide\.so")
nshim=$(LD_PRELOAD="$shim" LD_DEBUG=files "$mg" --version 2>&1 | grep -c "file=.*libmpiguide-preload\.so")
if ((n == 0 && nshim >= 1)); then ok "the mpiguide command under the shim: no libmpiguide loaded (mpiguide_site_skip)"
else fail "the mpiguide command under the shim: libmpiguide loaded $n time(s), the shim $nshim time(s)"; fi
shim_run() { # NAME APP VAR=value...: APP at 2 ranks under the shim, this build's launcher
  local name=$1 app=$2
  shift 2
  cmd_start
  cmd_ctx 2 LD_PRELOAD="$shim" "$@" -- "$app" 8 400
  run "$name"
}
# shim_traced NAME APP LIBRARY: the run succeeds and its trace names LIBRARY and the forced mock-up
shim_traced() {
  if ((RC == 0)) && grep -q "^#@mpi_library=$3" "$1.csv" 2>/dev/null && grep -q allreduce_as_reduce_bcast "$1.csv" &&
    ! grep -q mpiguide "$1.err"; then ok "$1: under the shim alone a program of $3 ran its libmpiguide (trace)"
  else fail "$1: status $RC, trace $(grep -m1 '^#@mpi_library' "$1.csv" 2>&1), $(tail -2 "$1.err")"; fi
}
force=(MPIGUIDE_ALG=allreduce=allreduce_as_reduce_bcast)
shim_run shim "$MG_APP" "${force[@]}" MPIGUIDE_TRACE="$PWD/shim.csv"
shim_traced shim "$MG_APP" "$name"
rm -f off.csv
shim_run off "$MG_APP" "${force[@]}" MPIGUIDE_TRACE="$PWD/off.csv" MPIGUIDE=off
if ((RC == 0)) && [[ ! -e off.csv ]] && ! grep -q mpiguide off.err; then ok "MPIGUIDE=off under the shim: no trace, no message"
else fail "MPIGUIDE=off under the shim: status $RC, trace $(ls off.csv 2>&1), $(tail -2 off.err)"; fi
if [[ -n $other_deb && -x $oapp ]]; then # the other MPI's program, its launcher, the same shim
  save=("$MG_FLAVOR" "$MG_MPIEXEC" "${MG_MPIEXEC_FLAGS:-}")
  MG_FLAVOR=$other
  case $other in
  openmpi) MG_MPIEXEC=/usr/bin/mpirun.openmpi MG_MPIEXEC_FLAGS="--oversubscribe --bind-to none"
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 ;;
  *) MG_MPIEXEC=/usr/bin/mpiexec.mpich MG_MPIEXEC_FLAGS= ;;
  esac
  shim_run shim_other "$oapp" "${force[@]}" MPIGUIDE_TRACE="$PWD/shim_other.csv"
  shim_traced shim_other "$oapp" "$oname"
  MG_FLAVOR=${save[0]} MG_MPIEXEC=${save[1]} MG_MPIEXEC_FLAGS=${save[2]}
fi

if [[ -x $oapp ]]; then # the build trees side by side: build/<mpi>/mpiguide env --lib APP
  got=$("$MG_BUILD/mpiguide" env --lib "$oapp" 2>&1)
  if [[ $got == "$(realpath "$MG_OTHER_BUILD")/libmpiguide.so.0" ]]; then ok "in the build tree, env --lib $oapp: $got"
  else fail "in the build tree, env --lib $oapp: '$got', want $MG_OTHER_BUILD/libmpiguide.so.0"; fi
fi

# ---- man pages ----
pages=("$root"/usr/share/man/man*/*)
bad=
for p in "${pages[@]}"; do
  out=$(MANWIDTH=100 man -l "$p" 2>&1 >/dev/null)
  [[ -z $out && $(MANWIDTH=100 man -l "$p" 2>/dev/null | wc -l) -gt 8 ]] || bad+=" $(basename "$p")"
done
if ((${#pages[@]} >= 10)) && [[ -z $bad ]]; then ok "man -l renders all ${#pages[@]} pages"
else fail "man pages that do not render (of ${#pages[@]}):$bad"; fi
if [[ $(man -M "$root/usr/share/man" -w mpiguide-check 2>&1) == "$root/usr/share/man/man1/mpiguide-check.1"* ]] &&
  MANWIDTH=100 man -M "$root/usr/share/man" libmpiguide 2>/dev/null | grep -q MPIGUIDE_PROFILE_OUT; then
  ok "man finds mpiguide-check(1) and libmpiguide(7) in /usr/share/man"
else fail "man -M $root/usr/share/man: $(man -M "$root/usr/share/man" -w mpiguide-check 2>&1)"; fi

# ---- bash completion ----
complete_words() { # WORD...: what Tab offers for the last word
  bash -c 'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _mpiguide; echo "${COMPREPLY[*]}"' _ \
    "$root/usr/share/bash-completion/completions/mpiguide" "$@"
}
while IFS='|' read -r words want; do
  # shellcheck disable=SC2086
  got=$(complete_words $words)
  if [[ " $got " == *" $want "* ]]; then ok "completion of '$words': $got"
  else fail "completion of '$words': '$got', want '$want' among them"; fi
done <<'EOF'
mpiguide ch|check
mpiguide check --coll|--collectives
mpiguide check -c allr|allreduce
mpiguide check -c bcast,allr|bcast,allreduce
mpiguide bench --alg allreduce_as_red|allreduce_as_reduce_bcast
mpiguide env --m|--mpi
mpiguide list red|reduce_scatter
mpiguide profile v|validate
mpiguide campaign --d|--dry-run
EOF

# ---- Lmod ----
init=/usr/share/lmod/lmod/init/bash
if [[ ! -r $init ]]; then
  fail "no Lmod ($init): scripts/setup.sh installs Debian's lmod"
else
  mod() { # COMMANDS: in a shell with Lmod, MODULEPATH as Debian's lmod makes it, plus the root's
    env -u MODULEPATH -u LOADEDMODULES -u _LMFILES_ bash -c "source $init >/dev/null 2>&1
      export MODULEPATH=$root/etc/lmod/modules; $1" 2>&1
  }
  out=$(mod "module load mpiguide/$version-$MG_FLAVOR && command -v mpiguide && echo \"lib=\$MPIGUIDE_LIB\" &&
             echo \"man=\$MANPATH\" && man -w mpiguide-check && echo \"path=\$(manpath 2>/dev/null)\"")
  bin=$(echo "$root"/usr/lib/*/mpiguide/"$MG_FLAVOR"/bin/mpiguide)
  if [[ $out == *"$bin"* && $out == *"lib=$lib"* && $out == *"man=$root/"*"share/man"* && -e ${lib} ]] &&
    [[ $(grep -c "man1/mpiguide-check.1" <<<"$out") == 1 && $out == *"path="*":/usr/share/man"* ]]; then
    ok "module load mpiguide/$version-$MG_FLAVOR: PATH, MANPATH (the system's pages still found), MPIGUIDE_LIB"
  else fail "module load mpiguide/$version-$MG_FLAVOR: $out"; fi
  out=$(mod "module load mpiguide-site && echo \"pre=\$LD_PRELOAD\" && module load mpiguide/$version-$MG_FLAVOR &&
             echo \"pre=\$LD_PRELOAD lib=\$MPIGUIDE_LIB_${MG_FLAVOR^^}\"")
  if [[ $out == "pre=$shim"$'\n'"pre=$shim lib=$lib" ]]; then
    ok "module load mpiguide-site puts the shim in LD_PRELOAD; mpiguide/$version-$MG_FLAVOR beside it sets MPIGUIDE_LIB_${MG_FLAVOR^^}"
  else fail "module load mpiguide-site: '$out', want 'pre=$shim' and 'pre=$shim lib=$lib'"; fi
  if [[ -n $other_deb ]]; then
    out=$(mod "module load mpiguide/$version-$MG_FLAVOR && module load mpiguide/$version-$other 2>&1 &&
               echo \"lib=\$MPIGUIDE_LIB\" && module -t list 2>&1")
    if [[ $out == *"lib=$olib"* && $out != *"$version-$MG_FLAVOR"$'\n'* ]]; then ok "module load mpiguide/$version-$other replaces the $name one"
    else fail "swapping modules: $out"; fi
  fi
fi
finish
