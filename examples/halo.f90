! The halo exchange of examples/halo.c in Fortran ("use mpi"): Irecv/Isend from both neighbours
! of a 1-D periodic grid completed by one MPI_Waitall, work that grows with the rank (so the
! faster ranks wait), every 4th iteration an MPI_Iallreduce polled with MPI_Test between slices of
! work, every 8th a second halo through persistent requests (MPI_Send_init, MPI_Recv_init,
! MPI_Startall, MPI_Wait). It times every MPI call it makes with the Fortran clock (system_clock,
! no MPI: a timer no tool intercepts) and every rank prints its own, as halo.c does:
!     halo: rank 0 mpi_s 0.123456 wall_s 0.234567 sum 1.0E+06
! Usage: mpirun -np P halo_f [iterations [block-doubles [work-units]]]   (defaults 200, 4096, 2000)
program halo
  use mpi
  implicit none
  integer :: rank, nprocs, ierr, iters, n, left, right, it, k, req(4), pers(4), r
  integer(kind=8) :: units, c0, c1, rate, w0
  integer :: st(MPI_STATUS_SIZE, 4), st1(MPI_STATUS_SIZE)
  logical :: done
  double precision, allocatable :: u(:)
  double precision :: halo2(2), res, total, mpi_s, wall
  character(len=32) :: arg

  call mpi_init(ierr)
  call system_clock(w0, rate)
  mpi_s = 0
  call tick()
  call mpi_comm_rank(MPI_COMM_WORLD, rank, ierr)
  call tock()
  call tick()
  call mpi_comm_size(MPI_COMM_WORLD, nprocs, ierr)
  call tock()
  iters = 200
  n = 4096
  units = 2000
  if (command_argument_count() >= 1) then
    call get_command_argument(1, arg)
    read (arg, *) iters
  end if
  if (command_argument_count() >= 2) then
    call get_command_argument(2, arg)
    read (arg, *) n
  end if
  if (command_argument_count() >= 3) then
    call get_command_argument(3, arg)
    read (arg, *) units
  end if
  allocate (u(0:n + 1))
  do k = 0, n + 1
    u(k) = rank + k * 1d-3
  end do
  left = mod(rank + nprocs - 1, nprocs)
  right = mod(rank + 1, nprocs)
  halo2 = 0

  call tick()
  call mpi_recv_init(halo2(1), 1, MPI_DOUBLE_PRECISION, left, 2, MPI_COMM_WORLD, pers(1), ierr) ! halo:recv-init-left
  call tock()
  call tick()
  call mpi_recv_init(halo2(2), 1, MPI_DOUBLE_PRECISION, right, 3, MPI_COMM_WORLD, pers(2), ierr) ! halo:recv-init-right
  call tock()
  call tick()
  call mpi_send_init(u(1), 1, MPI_DOUBLE_PRECISION, left, 3, MPI_COMM_WORLD, pers(3), ierr) ! halo:send-init-left
  call tock()
  call tick()
  call mpi_send_init(u(n), 1, MPI_DOUBLE_PRECISION, right, 2, MPI_COMM_WORLD, pers(4), ierr) ! halo:send-init-right
  call tock()

  res = 0
  total = 0
  do it = 0, iters - 1
    call tick()
    call mpi_irecv(u(0), 1, MPI_DOUBLE_PRECISION, left, 0, MPI_COMM_WORLD, req(1), ierr) ! halo:irecv-left
    call tock()
    call tick()
    call mpi_irecv(u(n + 1), 1, MPI_DOUBLE_PRECISION, right, 1, MPI_COMM_WORLD, req(2), ierr) ! halo:irecv-right
    call tock()
    call tick()
    call mpi_isend(u(1), 1, MPI_DOUBLE_PRECISION, left, 1, MPI_COMM_WORLD, req(3), ierr) ! halo:isend-left
    call tock()
    call tick()
    call mpi_isend(u(n), 1, MPI_DOUBLE_PRECISION, right, 0, MPI_COMM_WORLD, req(4), ierr) ! halo:isend-right
    call tock()
    call tick()
    call mpi_waitall(4, req, st, ierr) ! halo:waitall
    call tock()
    res = work(units * (rank + 1))
    if (mod(it, 4) == 0) then
      call tick()
      call mpi_iallreduce(res, total, 1, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, r, ierr) ! halo:iallreduce
      call tock()
      do
        call tick()
        call mpi_test(r, done, st1, ierr) ! halo:test
        call tock()
        if (done) exit
        res = res + 1d-9 * work(units / 50 + 1)
      end do
    end if
    if (mod(it, 8) == 0) then
      call tick()
      call mpi_startall(4, pers, ierr)
      call tock()
      do k = 1, 4
        call tick()
        call mpi_wait(pers(k), st1, ierr) ! halo:wait
        call tock()
      end do
    end if
  end do
  do k = 1, 4
    call tick()
    call mpi_request_free(pers(k), ierr) ! halo:free
    call tock()
  end do

  call system_clock(c1)
  wall = dble(c1 - w0) / dble(rate)
  ! each rank its own line: no MPI call after the count (MPICH's Fortran PMPI_ names call the C
  ! MPI_ functions, which a tool sees)
  write (*, '(a,i0,a,f0.6,a,f0.6,a,es12.6)') 'halo: rank ', rank, ' mpi_s ', mpi_s, ' wall_s ', wall, &
    ' sum ', total
  deallocate (u)
  call mpi_finalize(ierr)

contains

  subroutine tick()
    call system_clock(c0)
  end subroutine tick

  subroutine tock()
    call system_clock(c1)
    mpi_s = mpi_s + dble(c1 - c0) / dble(rate)
  end subroutine tock

  double precision function work(m)
    integer(kind=8), intent(in) :: m
    integer(kind=8) :: j
    integer :: i
    work = 0
    do j = 1, m
      do i = 1, n, 64
        u(i) = 0.5d0 * u(i) + 0.25d0 * (u(i - 1) + u(i + 1))
        work = work + u(i)
      end do
    end do
  end function work
end program halo
