#!/usr/bin/env bash
# /usr/bin/mpiguide (cmake/mpiguide-dispatch.sh.in, configured as BUILD/deb/mpiguide) in a scratch
# root with both builds installed as stand-ins that print their MPI: which one it runs, without
# MPI, for each way a process can be started (CTest install.dispatch, label unit):
#   MPIGUIDE_MPI first; else the launcher's environment (mpirun: OMPI_COMM_WORLD_RANK; srun
#   --mpi=pmix: PMIX_RANK; Hydra, srun --mpi=pmi2: PMI_RANK, PMI_FD, PMI_PORT; SLURM_MPI_TYPE alone);
#   else the launcher after `--` (check --launches, campaign); else the default mpirun's; and the
#   only one installed whatever the launcher says.
# Usage: run_dispatch.sh DISPATCHER WORKDIR
set -u
disp=$(readlink -f "$1") work=$2
# shellcheck source=../common/assert.sh
source "$(dirname "$0")/../common/assert.sh"
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
root=$PWD/root
mkdir -p "$root/usr/bin" "$root/bin"
cp "$disp" "$root/usr/bin/mpiguide" && chmod +x "$root/usr/bin/mpiguide"
for m in openmpi mpich; do
  d=$root/usr/lib/x86_64-linux-gnu/mpiguide/$m/bin
  mkdir -p "$d"
  printf '#!/bin/sh\necho %s "$@"\n' "$m" >"$d/mpiguide" && chmod +x "$d/mpiguide"
done
# the default mpirun: Open MPI's (Debian's alternatives, as a link)
touch "$root/bin/mpirun.openmpi" && chmod +x "$root/bin/mpirun.openmpi"
ln -s mpirun.openmpi "$root/bin/mpirun"
clean=(env -u MPIGUIDE_MPI -u OMPI_COMM_WORLD_RANK -u PMIX_RANK -u PMI_RANK -u PMI_FD -u PMI_PORT -u SLURM_MPI_TYPE
  PATH="$root/bin:/usr/bin:/bin")
while IFS='|' read -r vars args want; do
  read -r -a v <<<"$vars"
  read -r -a a <<<"$args"
  got=$("${clean[@]}" "${v[@]}" "$root/usr/bin/mpiguide" "${a[@]}" 2>&1 | awk '{print $1}')
  if [[ $got == "$want" ]]; then ok "${vars:-(no launcher)} mpiguide ${args}: $got"
  else fail "${vars:-(no launcher)} mpiguide ${args}: ran '$got', want $want"; fi
done <<'CASES'
|env|openmpi
MPIGUIDE_MPI=mpich|env|mpich
OMPI_COMM_WORLD_RANK=0|check -c bcast|openmpi
PMIX_RANK=1 SLURM_MPI_TYPE=pmix_v4|check|openmpi
PMI_RANK=0 PMI_FD=5 SLURM_MPI_TYPE=pmi2|check|mpich
PMI_RANK=3 PMI_PORT=n1:4242|check|mpich
SLURM_MPI_TYPE=pmi2|env|mpich
SLURM_MPI_TYPE=pmix|env|openmpi
MPIGUIDE_MPI=openmpi PMI_RANK=0|check|openmpi
|check --launches 3 -c bcast -o C -- srun -N 2 --mpi=pmi2|mpich
|check --launches 3 -o C -- srun --mpi pmi2 -n 4|mpich
|check --launches 3 -o C -- /usr/bin/mpiexec.mpich -n 4|mpich
|check --launches 3 -o C -- srun --mpi=pmix_v4 -n 4|openmpi
|check --mpi=pmi2 -o C|openmpi
MPIGUIDE_MPI=openmpi|check --launches 3 -o C -- srun --mpi=pmi2|openmpi
CASES
# the launcher's arguments reach the build unchanged
out=$("${clean[@]}" "$root/usr/bin/mpiguide" check --launches 2 -- srun --mpi=pmi2 -n 4)
if [[ $out == "mpich check --launches 2 -- srun --mpi=pmi2 -n 4" ]]; then ok "arguments passed on unchanged"
else fail "arguments: '$out'"; fi
# the default mpirun MPICH's: Debian's mpirun -> mpirun.mpich -> mpiexec.hydra
touch "$root/bin/mpiexec.hydra" && chmod +x "$root/bin/mpiexec.hydra"
ln -s mpiexec.hydra "$root/bin/mpirun.mpich" && ln -sfn mpirun.mpich "$root/bin/mpirun"
got=$("${clean[@]}" "$root/usr/bin/mpiguide" env | awk '{print $1}')
if [[ $got == mpich ]]; then ok "the default mpirun MPICH's (a link to mpiexec.hydra): mpich"
else fail "the default mpirun MPICH's (mpiexec.hydra): ran '$got'"; fi
# the only one installed: run whatever the launcher says
rm -r "$root/usr/lib/x86_64-linux-gnu/mpiguide/mpich"
got=$("${clean[@]}" PMI_RANK=0 SLURM_MPI_TYPE=pmi2 "$root/usr/bin/mpiguide" env | awk '{print $1}')
if [[ $got == openmpi ]]; then ok "only mpiguide-openmpi installed: it runs under srun --mpi=pmi2 too"
else fail "only mpiguide-openmpi installed, under pmi2: ran '$got'"; fi
got=$("${clean[@]}" MPIGUIDE_MPI=mpich "$root/usr/bin/mpiguide" env 2>&1)
if [[ $got == *"MPIGUIDE_MPI=mpich: no mpiguide for it"*"install mpiguide-mpich"* ]]; then ok "MPIGUIDE_MPI=mpich without it: $got"
else fail "MPIGUIDE_MPI=mpich without it: '$got'"; fi
finish
