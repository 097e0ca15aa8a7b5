! The conjugate-gradient example of examples/cg.c in Fortran ("use mpi"): the 2-D Poisson problem,
! 5-point stencil, n x n interior grid with zero Dirichlet boundary, in blocks of whole rows over
! the ranks; halo exchange by MPI_Sendrecv, dot products by MPI_Allreduce, parameters by
! MPI_Bcast, statistics by MPI_Reduce and MPI_Gather. The same arithmetic in the same order as the
! C program and the same output line, so that tests/examples can compare the two: the iteration
! count and the residual agree on the same MPI library and process count.
!
! Usage: mpirun -np P cg_f [n [max-iterations]]    (defaults 768, 5000; tolerance 1e-10)
! Exit: 0 OK, 1 WRONG (converged to something else), 2 usage or not converged within the cap.
program cg_f
  use mpi
  implicit none
  double precision, parameter :: tol = 1d-10
  integer :: ierr, rank, nprocs, params(2), n, maxit, rows, first0, up, down, it, i, j, k, ok
  integer :: narg
  character(len=32) :: arg
  double precision, allocatable :: x(:,:), r(:,:), p(:,:), q(:,:), b(:,:), mpitimes(:)
  double precision :: loc, bb, rr, pq, rrnew, alpha, beta, res, mpimax, tmpi, t0, start
  double precision :: stats(2), gstats(2)
  character(len=16) :: sres, serr, ssolve, smpi, status
  character(len=256) :: line

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)

  params = (/ 768, 5000 /) ! grid points per side, iteration cap
  if (rank == 0) then
    narg = command_argument_count()
    if (narg >= 1) then
      call get_command_argument(1, arg)
      read (arg, *, iostat=ierr) params(1)
      if (ierr /= 0) params(1) = 0
    end if
    if (narg >= 2) then
      call get_command_argument(2, arg)
      read (arg, *, iostat=ierr) params(2)
      if (ierr /= 0) params(2) = 0
    end if
  end if
  call MPI_Bcast(params, 2, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
  n = params(1)
  maxit = params(2)
  if (n < nprocs .or. maxit < 1) then
    if (rank == 0) write (0, '(a)') 'usage: cg_f [n >= ranks [max-iterations >= 1]]'
    call MPI_Finalize(ierr)
    call exit(2)
  end if

  ! Rows first0+1 .. first0+rows are this rank's; local rows 0 and rows+1 are halo rows.
  rows = n / nprocs
  first0 = rank * rows + min(rank, mod(n, nprocs))
  if (rank < mod(n, nprocs)) rows = rows + 1
  up = MPI_PROC_NULL
  down = MPI_PROC_NULL
  if (rank > 0) up = rank - 1
  if (rank < nprocs - 1) down = rank + 1
  allocate(x(0:n+1, 0:rows+1), r(0:n+1, 0:rows+1), p(0:n+1, 0:rows+1), q(0:n+1, 0:rows+1), &
           b(0:n+1, 0:rows+1))
  x = 0; r = 0; p = 0; q = 0; b = 0
  do j = 1, rows
    do i = 1, n
      b(i, j) = 4 * ustar(i, first0 + j) - ustar(i - 1, first0 + j) - ustar(i + 1, first0 + j) &
                - ustar(i, first0 + j - 1) - ustar(i, first0 + j + 1)
      r(i, j) = b(i, j)
      p(i, j) = b(i, j)
    end do
  end do

  tmpi = 0 ! time in MPI calls during the solve, this rank
  loc = dot_local(b, b)
  call MPI_Allreduce(loc, bb, 1, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
  rr = bb

  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  start = MPI_Wtime()
  it = 0
  do while (it < maxit)
    if (sqrt(rr / bb) < tol) exit
    t0 = MPI_Wtime()
    call MPI_Sendrecv(p(1, 1), n, MPI_DOUBLE_PRECISION, up, 0, p(1, rows + 1), n, MPI_DOUBLE_PRECISION, &
                      down, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
    call MPI_Sendrecv(p(1, rows), n, MPI_DOUBLE_PRECISION, down, 1, p(1, 0), n, MPI_DOUBLE_PRECISION, &
                      up, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
    tmpi = tmpi + (MPI_Wtime() - t0)
    do j = 1, rows
      do i = 1, n
        q(i, j) = 4 * p(i, j) - p(i - 1, j) - p(i + 1, j) - p(i, j - 1) - p(i, j + 1)
      end do
    end do
    loc = dot_local(p, q)
    t0 = MPI_Wtime()
    call MPI_Allreduce(loc, pq, 1, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
    tmpi = tmpi + (MPI_Wtime() - t0)
    alpha = rr / pq
    do j = 1, rows
      do i = 1, n
        x(i, j) = x(i, j) + alpha * p(i, j)
        r(i, j) = r(i, j) - alpha * q(i, j)
      end do
    end do
    loc = dot_local(r, r)
    t0 = MPI_Wtime()
    call MPI_Allreduce(loc, rrnew, 1, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
    tmpi = tmpi + (MPI_Wtime() - t0)
    beta = rrnew / rr
    rr = rrnew
    do j = 1, rows
      do i = 1, n
        p(i, j) = r(i, j) + beta * p(i, j)
      end do
    end do
    it = it + 1
  end do
  stats(1) = MPI_Wtime() - start ! solve time
  stats(2) = 0                   ! max |x - u*|

  do j = 1, rows
    do i = 1, n
      stats(2) = max(stats(2), abs(x(i, j) - ustar(i, first0 + j)))
    end do
  end do
  gstats = 0
  call MPI_Reduce(stats, gstats, 2, MPI_DOUBLE_PRECISION, MPI_MAX, 0, MPI_COMM_WORLD, ierr)
  if (rank == 0) then
    allocate(mpitimes(nprocs))
  else
    allocate(mpitimes(1))
  end if
  call MPI_Gather(tmpi, 1, MPI_DOUBLE_PRECISION, mpitimes, 1, MPI_DOUBLE_PRECISION, 0, MPI_COMM_WORLD, ierr)

  ! A wrong answer is one that converged to something else; a run that stopped at the
  ! iteration cap is only unfinished (exit 2, not "WRONG").
  ok = 1
  if (rank == 0) then
    res = sqrt(rr / bb)
    mpimax = 0
    do k = 1, nprocs
      mpimax = max(mpimax, mpitimes(k))
    end do
    if (res < tol .and. gstats(2) < 1d-6) then
      ok = 1
      status = 'OK'
    else if (res < tol) then
      ok = 0
      status = 'WRONG'
    else
      ok = 2
      status = 'NOT CONVERGED'
    end if
    ! The C program's %.3e, %.1e and %.3f: lower-case exponents, a leading zero.
    write (sres, '(es12.3e2)') res
    write (serr, '(es12.1e2)') gstats(2)
    write (ssolve, '(f16.3)') gstats(1)
    write (smpi, '(f16.3)') mpimax
    write (line, '(a,i0,a,i0,a,i0,a,i0,a)') 'cg: ' // trim(status) // ' ', n, 'x', n, ' grid, ', nprocs, &
        ' ranks, ', it, ' iterations, residual ' // lower(adjustl(sres)) // ', error ' // &
        lower(adjustl(serr)) // ', solve ' // trim(adjustl(ssolve)) // ' s (MPI ' // trim(adjustl(smpi)) // ' s)'
    print '(a)', trim(line)
  end if
  call MPI_Bcast(ok, 1, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
  deallocate(x, r, p, q, b, mpitimes)
  call MPI_Finalize(ierr)
  if (ok == 0) call exit(1)
  if (ok == 2) call exit(2)

contains

  ! u* at global grid point (i, j), 0..n+1 each; zero on the boundary.
  double precision function ustar(i, j)
    integer, intent(in) :: i, j
    double precision :: h, xx, yy
    if (i <= 0 .or. i > n .or. j <= 0 .or. j > n) then
      ustar = 0
      return
    end if
    h = 1d0 / (n + 1)
    xx = i * h
    yy = j * h
    ustar = 16 * xx * (1 - xx) * yy * (1 - yy)
  end function ustar

  ! Local dot product over the interior: rows 1..rows, columns 1..n.
  double precision function dot_local(a, c)
    double precision, intent(in) :: a(0:, 0:), c(0:, 0:)
    integer :: ii, jj
    dot_local = 0
    do jj = 1, rows
      do ii = 1, n
        dot_local = dot_local + a(ii, jj) * c(ii, jj)
      end do
    end do
  end function dot_local

  function lower(s) result(t)
    character(len=*), intent(in) :: s
    character(len=len_trim(s)) :: t
    integer :: ii
    t = s(1:len_trim(s))
    do ii = 1, len(t)
      if (t(ii:ii) >= 'A' .and. t(ii:ii) <= 'Z') t(ii:ii) = achar(iachar(t(ii:ii)) + 32)
    end do
  end function lower
end program cg_f
