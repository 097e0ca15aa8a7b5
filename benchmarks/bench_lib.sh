# Shared by the benchmarks that launch an application (sourced, not run): the launcher of each
# MPI and a median. Sets `launch` (the launcher and its flags for NP ranks) from $mpi and $np, and
# exports what Open MPI needs as root; `xs_for VAR=value...` prints the -x flags that pass those
# variables to every rank under Open MPI's mpirun (MPICH's mpiexec passes the environment).
case $mpi in
openmpi) launch=(mpirun.openmpi --oversubscribe --bind-to none -np "$np")
         export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 ;;
mpich) launch=(mpiexec.mpich -np "$np") ;;
*) echo "${0##*/}: the MPI is openmpi or mpich" >&2; exit 2 ;;
esac
xs_for() {
  local v
  [[ $mpi == openmpi ]] || return 0
  for v in "$@"; do printf '%s\n' -x "${v%%=*}"; done
}
median() { sort -g | awk '{ v[NR] = $1 } END { print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
