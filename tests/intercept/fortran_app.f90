! A plain Fortran MPI program ("use mpi"), knowing nothing of mpiguide: for each count in
! 1, 37, 2500 it calls MPI_Allreduce (MPI_SUM) and MPI_Bcast three times on MPI_INTEGER and
! checks the results. Whether libmpiguide sees these calls depends on the MPI library's
! Fortran bindings: MPICH's call the C MPI_ functions (intercepted), Open MPI's call its
! internals (not intercepted, not even MPI_Init). run_preload.sh's "fortran" mode holds
! both facts; docs/library.md ("Limits") states them.
program fortran_app
  use mpi
  implicit none
  integer, parameter :: reps = 3
  integer :: counts(3) = (/ 1, 37, 2500 /)
  integer :: ierr, rank, nprocs, k, r, i, n, bad
  integer, allocatable :: v(:), s(:)

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)
  bad = 0
  do k = 1, 3
    n = counts(k)
    allocate(v(n), s(n))
    do r = 1, reps
      do i = 1, n
        v(i) = rank * 1000 + i + r
      end do
      call MPI_Allreduce(v, s, n, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
      do i = 1, n
        if (ierr /= MPI_SUCCESS .or. s(i) /= 1000 * nprocs * (nprocs - 1) / 2 + nprocs * (i + r)) bad = bad + 1
      end do
      if (rank == 0) v = -(/ (i, i = 1, n) /)
      call MPI_Bcast(v, n, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
      do i = 1, n
        if (ierr /= MPI_SUCCESS .or. v(i) /= -i) bad = bad + 1
      end do
    end do
    deallocate(v, s)
  end do
  if (bad /= 0) then
    print '(a,i0,a,i0)', 'fortran_app: WRONG on rank ', rank, ': ', bad
    call MPI_Abort(MPI_COMM_WORLD, 1, ierr)
  end if
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  if (rank == 0) print '(a)', 'fortran_app: OK'
  call MPI_Finalize(ierr)
end program fortran_app
