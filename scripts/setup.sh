#!/usr/bin/env bash
# Install what mpiguide needs on Debian 12 (run as root; idempotent).
# Only packages that are missing are installed; `apt-get update` runs first if any are.
# Usage: scripts/setup.sh
set -euo pipefail

PACKAGES=(
  build-essential cmake pkg-config     # toolchain
  libopenmpi-dev openmpi-bin           # Open MPI 4.1 (mpicc.openmpi, mpirun.openmpi)
  mpich libmpich-dev                   # MPICH 4.0 (mpicc.mpich, mpiexec.mpich)
  gfortran                             # the Fortran interception test (tests/intercept/fortran_ops.f90)
  libgsl-dev                           # statistics (distributions) for mpiguide check
  chromium                             # headless browser for the report test (tests/report/browser.sh)
  python3                              # the report test's page checks, statistics references
  iproute2 util-linux                  # the cluster in a box (scripts/cluster.sh): ip, tc, unshare, nsenter
  slurmctld slurmd slurm-client munge  # ... and the real Slurm it runs (docs/cluster.md; tests/cluster)
  hpcc cp2k cp2k-data                  # applications from the archive, built for Open MPI (docs/applications.md; tests/apps)
  dpkg-dev lmod man-db groff-base      # the packages' tests (tests/install): dpkg-shlibdeps for cpack, module load, man
  libsimgrid-dev                       # SimGrid 3.32's simulated MPI (smpicc, smpirun): build/smpi, its sim tests, docs/scale.md
  clang libclang-rt-14-dev             # clang 14 with libFuzzer, ASan, UBSan: build/fuzz, tests/fuzz, docs/fuzzing.md
)
# (--smpi, which once added libsimgrid-dev, is accepted and changes nothing: it is always installed)

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  if [[ $(id -u) -ne 0 ]]; then
    echo "setup: missing packages: ${missing[*]}; run this script as root" >&2
    exit 1
  fi
  echo "setup: installing ${missing[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
echo "setup: all packages present" >&2
