#!/usr/bin/env bash
# Real applications from the Debian archive under mpiguide (docs/applications.md): HPCC 1.5.0
# (`hpcc`, the HPC Challenge suite) and CP2K 2023.1 (`cp2k`, `cp2k-data`), both built by Debian 12
# against its Open MPI only (`ldd /usr/bin/hpcc /usr/bin/cp2k.psmp`: libmpi.so.40; there is no
# MPICH build of either in the archive). Their inputs live in examples/apps/.
#
#   scripts/apps.sh install                  install hpcc, cp2k, cp2k-data if missing (root; idempotent)
#   scripts/apps.sh run APP INPUT DIR LAUNCHER...
#                                            run APP (hpcc|cp2k) on INPUT in a fresh DIR with the
#                                            launcher and its flags (e.g. mpirun.openmpi -np 4 -x ...);
#                                            output in DIR/out.txt (hpcc: DIR/hpccoutf.txt too);
#                                            the exit status is the launcher's
#   scripts/apps.sh verify APP DIR [REFDIR]  the application's own check of the run in DIR; for cp2k
#                                            also its energies against REFDIR's (a plain run). Prints
#                                            one line `APP: OK ...` (status 0) or `APP: FAILED ...` (1)
#   scripts/apps.sh metric APP DIR           the application's own timer: HPL Gflop/s (hpcc); the
#                                            mean CPU time per MD step after the first, in s (cp2k)
#
# The checks. HPCC: `Success=1` in the summary, HPL's and PTRANS's residual checks (every test
# passed, none failed), MPI-RandomAccess with 0 errors (both generators), STREAM validated,
# MPI-FFT's maximal error below 1e-12 (HPCC's own runs give ~1e-15; a wrong exchange gives O(1)).
# CP2K: `PROGRAM ENDED`, every SCF converged (no `SCF run NOT converged`), and every total energy
# (`ENERGY| Total FORCE_EVAL`, one per force evaluation: the initial one and one per MD step) equal
# to the reference run's within CP2K_TOL hartree (default 1e-8; why: docs/applications.md).
set -euo pipefail
APPS_PACKAGES=(hpcc cp2k cp2k-data)
CP2K_TOL=${CP2K_TOL:-1e-8}

die() { echo "apps: $*" >&2; exit 2; }

apps_install() {
  local p missing=()
  for p in "${APPS_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  ((${#missing[@]})) || { echo "apps: hpcc, cp2k, cp2k-data present" >&2; return 0; }
  [[ $(id -u) -eq 0 ]] || die "missing packages: ${missing[*]}; run this script as root"
  echo "apps: installing ${missing[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get -o DPkg::Lock::Timeout=300 install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

apps_run() {
  local app=$1 input=$2 dir=$3
  shift 3
  [[ -f $input ]] || die "no input $input"
  input=$(realpath "$input")
  rm -rf "$dir" && mkdir -p "$dir"
  case $app in
  # hpcc reads hpccinf.txt from the working directory and writes hpccoutf.txt there.
  hpcc) cp "$input" "$dir/hpccinf.txt" && (cd "$dir" && "$@" hpcc >out.txt 2>err.txt) ;;
  # cp2k writes its restart and trajectory files to the working directory. cp2k is cp2k.psmp
  # (MPI + OpenMP): one thread per rank (OMP_NUM_THREADS=1, passed by the caller's launcher).
  cp2k) (cd "$dir" && "$@" cp2k -i "$input" >out.txt 2>err.txt) ;;
  *) die "unknown application '$app' (hpcc or cp2k)" ;;
  esac
}

hpcc_verify() {
  local f=$1/hpccoutf.txt why=()
  [[ -f $f ]] || { echo "hpcc: FAILED no $f"; return 1; }
  grep -q '^Success=1$' "$f" || why+=("no Success=1")
  grep -q '^End of HPC Challenge tests' "$f" || why+=("no end of tests")
  # HPL: "1 tests completed and passed residual checks," / "0 tests completed and failed ..."
  local hpl_pass hpl_fail pt_pass pt_fail
  hpl_pass=$(sed -n '/^Begin of HPL section/,/^End of HPL section/s/^ *\([0-9]*\) tests completed and passed residual checks.*/\1/p' "$f")
  hpl_fail=$(sed -n '/^Begin of HPL section/,/^End of HPL section/s/^ *\([0-9]*\) tests completed and failed residual checks.*/\1/p' "$f")
  [[ ${hpl_pass:-0} -ge 1 && ${hpl_fail:-1} -eq 0 ]] || why+=("HPL residual checks: ${hpl_pass:-?} passed, ${hpl_fail:-?} failed")
  pt_pass=$(sed -n '/^Begin of PTRANS section/,/^End of PTRANS section/s/^ *\([0-9]*\) tests completed and passed residual checks.*/\1/p' "$f")
  pt_fail=$(sed -n '/^Begin of PTRANS section/,/^End of PTRANS section/s/^ *\([0-9]*\) tests completed and failed residual checks.*/\1/p' "$f")
  [[ ${pt_pass:-0} -ge 1 && ${pt_fail:-1} -eq 0 ]] || why+=("PTRANS residual checks: ${pt_pass:-?} passed, ${pt_fail:-?} failed")
  grep -q '^MPIRandomAccess_Errors=0$' "$f" || why+=("MPIRandomAccess errors: $(sed -n 's/^MPIRandomAccess_Errors=//p' "$f")")
  grep -q '^MPIRandomAccess_LCG_Errors=0$' "$f" || why+=("MPIRandomAccess_LCG errors: $(sed -n 's/^MPIRandomAccess_LCG_Errors=//p' "$f")")
  grep -q 'Solution Validates' "$f" || why+=("STREAM does not validate")
  local fft
  fft=$(sed -n 's/^MPIFFT_maxErr=//p' "$f")
  awk -v e="${fft:-x}" 'BEGIN { exit !(e != "x" && e + 0 == e && e < 1e-12) }' || why+=("MPIFFT_maxErr=${fft:-?}")
  if ((${#why[@]})); then
    local IFS=';'
    echo "hpcc: FAILED ${why[*]} ($f)"
    return 1
  fi
  echo "hpcc: OK HPL N=$(sed -n 's/^HPL_N=//p' "$f") $(hpcc_metric "$1") Gflop/s residual $(sed -n 's/^Scaled residual: //p;s/^||Ax-b||.*= *\([0-9.e+-]*\) .*/\1/p' "$f" | tail -1) passed, PTRANS passed, RandomAccess 0 errors, STREAM validates, MPIFFT_maxErr=$fft"
}
hpcc_metric() { awk -F= '$1 == "HPL_Tflops" { printf "%.4f\n", $2 * 1000 }' "$1/hpccoutf.txt"; }

cp2k_energies() { sed -n 's/^ ENERGY| Total FORCE_EVAL ( QS ) energy \[a\.u\.\]: *//p' "$1/out.txt"; }
cp2k_verify() {
  local dir=$1 ref=${2:-} why=() e
  grep -q 'PROGRAM ENDED AT' "$dir/out.txt" 2>/dev/null || why+=("no PROGRAM ENDED")
  ! grep -q 'SCF run NOT converged' "$dir/out.txt" 2>/dev/null || why+=("an SCF did not converge")
  e=$(cp2k_energies "$dir" | paste -sd' ')
  [[ -n $e ]] || why+=("no total energy")
  local diff=""
  if [[ -n $ref && -n $e ]]; then
    local r
    r=$(cp2k_energies "$ref" | paste -sd' ')
    # The largest |E - E_ref| over the force evaluations; the same count is required.
    diff=$(awk -v a="$e" -v b="$r" 'BEGIN { n = split(a, x, " "); m = split(b, y, " ")
      if (n != m || n == 0) { print "count"; exit }
      d = 0; for (i = 1; i <= n; i++) { t = x[i] - y[i]; if (t < 0) t = -t; if (t > d) d = t }
      printf "%.3g\n", d }')
    if [[ $diff == count ]]; then why+=("$(wc -w <<<"$e") energies, the reference $(wc -w <<<"$r")")
    elif ! awk -v d="$diff" -v t="$CP2K_TOL" 'BEGIN { exit !(d <= t) }'; then
      why+=("energies differ from $ref by up to $diff Ha > $CP2K_TOL")
    fi
  fi
  if ((${#why[@]})); then
    local IFS=';'
    echo "cp2k: FAILED ${why[*]} ($dir)"
    return 1
  fi
  echo "cp2k: OK $(wc -w <<<"$e") energies, last ${e##* } Ha${ref:+, max |E - E_ref| = $diff Ha (tolerance $CP2K_TOL)}"
}
# The mean of CP2K's "CPU time per MD step" after the first step (the first one includes the
# initial SCF from the atomic guess); the only step's time when there is one.
cp2k_metric() {
  sed -n 's/^ MD| CPU time per MD step \[s\] *\([0-9.]*\) .*/\1/p' "$1/out.txt" |
    awk '{ v[NR] = $1 } END { if (NR == 0) exit 1; if (NR == 1) { print v[1]; exit }
      for (i = 2; i <= NR; i++) s += v[i]; printf "%.4f\n", s / (NR - 1) }'
}

cmd=${1:-}
shift || true
case $cmd in
install) apps_install ;;
run) (($# >= 4)) || die "usage: apps.sh run APP INPUT DIR LAUNCHER..."; apps_run "$@" ;;
verify)
  (($# >= 2)) || die "usage: apps.sh verify APP DIR [REFDIR]"
  case $1 in hpcc) hpcc_verify "$2" ;; cp2k) cp2k_verify "$2" "${3:-}" ;; *) die "unknown application '$1'" ;; esac ;;
metric)
  (($# == 2)) || die "usage: apps.sh metric APP DIR"
  case $1 in hpcc) hpcc_metric "$2" ;; cp2k) cp2k_metric "$2" ;; *) die "unknown application '$1'" ;; esac ;;
*) die "usage: apps.sh install | run APP INPUT DIR LAUNCHER... | verify APP DIR [REFDIR] | metric APP DIR" ;;
esac
