! The non-blocking, neighbourhood and persistent collectives from a plain Fortran program
! ("use mpi"; issue 48), knowing nothing of mpiguide: on a periodic 1-D Cartesian ring of the
! ranks, MPI_NEIGHBOR_ALLGATHER, MPI_INEIGHBOR_ALLGATHER + MPI_WAIT, MPI_IALLREDUCE + MPI_WAIT and
! the persistent allreduce (MPI-4.0's MPI_ALLREDUCE_INIT, Open MPI 4.1's MPIX_ALLREDUCE_INIT of its
! pcollreq extension: -DMG_MPIX) started twice and freed; the alltoallw forms, whose datatype arrays
! libmpiguide converts and keeps until completion: MPI_IALLTOALLW + MPI_WAIT, its persistent form
! (MPIX_ALLTOALLW_INIT on Open MPI) started twice and freed, and on a
! non-periodic line MPI_NEIGHBOR_ALLTOALLW and MPI_INEIGHBOR_ALLTOALLW + MPI_WAIT; at counts 1, 37
! and 2500, each result checked against the values every rank can compute. run_preload.sh fortran_nbc runs it plain and
! with rows forced, and reads the trace: the calls at this program's sites, the rows forced.
! On success rank 0 prints "fortran_nbc: OK"; a wrong value ends it with exit status 1.
program fortran_nbc
  use mpi
  implicit none
  integer :: ierr, rank, p, ring, req, c, n, i, t, nbad, left, right, line, lleft, lright, isz, j
  integer :: counts(3), dims(1)
  logical :: periods(1)
  integer, allocatable :: a(:), b(:), g(:), sw(:), rw(:), wc(:), wd(:), wt(:)
  integer(kind=MPI_ADDRESS_KIND) :: nd(2)
  integer :: nc(2), nt(2)
  external :: mpix_allreduce_init, mpix_alltoallw_init

  counts = (/ 1, 37, 2500 /)
  nbad = 0
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, p, ierr)
  dims(1) = p
  periods(1) = .true.
  call MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, .false., ring, ierr)
  call MPI_Cart_shift(ring, 0, 1, left, right, ierr)
  periods(1) = .false.
  call MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, .false., line, ierr)
  call MPI_Cart_shift(line, 0, 1, lleft, lright, ierr)
  call MPI_Type_size(MPI_INTEGER, isz, ierr)
  do c = 1, 3
    n = counts(c)
    allocate (a(n), b(n), g(2 * n))
    do i = 1, n
      a(i) = 1000 * rank + i
    end do
    ! the ring's two neighbours' blocks: left's, then right's
    call MPI_Neighbor_allgather(a, n, MPI_INTEGER, g, n, MPI_INTEGER, ring, ierr)
    call expect_ring('neighbor_allgather')
    g = -1
    call MPI_Ineighbor_allgather(a, n, MPI_INTEGER, g, n, MPI_INTEGER, ring, req, ierr)
    call MPI_Wait(req, MPI_STATUS_IGNORE, ierr)
    call expect_ring('ineighbor_allgather')
    call MPI_Iallreduce(a, b, n, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, req, ierr)
    call MPI_Wait(req, MPI_STATUS_IGNORE, ierr)
    call expect_sum('iallreduce', 0)
#ifdef MG_MPIX
    call mpix_allreduce_init(a, b, n, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, req, ierr)
#else
    call MPI_Allreduce_init(a, b, n, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, req, ierr)
#endif
    do t = 1, 2
      a = a + 1
      call MPI_Start(req, ierr)
      call MPI_Wait(req, MPI_STATUS_IGNORE, ierr)
      call expect_sum('allreduce_init', t)
    end do
    call MPI_Request_free(req, ierr)
    ! alltoallw: block j of n integers to rank j, displacements in bytes, a datatype per peer
    allocate (sw(n * p), rw(n * p), wc(p), wd(p), wt(p))
    do j = 0, p - 1
      wc(j + 1) = n
      wd(j + 1) = j * n * isz
      wt(j + 1) = MPI_INTEGER
      do i = 1, n
        sw(j * n + i) = 100000 * rank + 1000 * j + i
      end do
    end do
    rw = -1
    call MPI_Ialltoallw(sw, wc, wd, wt, rw, wc, wd, wt, MPI_COMM_WORLD, req, ierr)
    call MPI_Wait(req, MPI_STATUS_IGNORE, ierr)
    call expect('ialltoallw', rw, (/ ((100000 * j + 1000 * rank + i, i = 1, n), j = 0, p - 1) /))
    ! its persistent form, started twice and freed
#ifdef MG_MPIX
    call mpix_alltoallw_init(sw, wc, wd, wt, rw, wc, wd, wt, MPI_COMM_WORLD, MPI_INFO_NULL, req, ierr)
#else
    call MPI_Alltoallw_init(sw, wc, wd, wt, rw, wc, wd, wt, MPI_COMM_WORLD, MPI_INFO_NULL, req, ierr)
#endif
    do t = 1, 2
      rw = -1
      call MPI_Start(req, ierr)
      call MPI_Wait(req, MPI_STATUS_IGNORE, ierr)
      call expect('alltoallw_init', rw, (/ ((100000 * j + 1000 * rank + i, i = 1, n), j = 0, p - 1) /))
    end do
    call MPI_Request_free(req, ierr)
    ! the line's two neighbours: block 1 to the left one, 2 to the right one (MPI_PROC_NULL at the ends)
    nc = n
    nt = MPI_INTEGER
    nd(1) = 0
    nd(2) = n * isz
    do t = 1, 2
      g = -1
      if (t == 1) then
        call MPI_Neighbor_alltoallw(sw, nc, nd, nt, g, nc, nd, nt, line, ierr)
      else
        call MPI_Ineighbor_alltoallw(sw, nc, nd, nt, g, nc, nd, nt, line, req, ierr)
        call MPI_Wait(req, MPI_STATUS_IGNORE, ierr)
      end if
      call expect_line(merge('neighbor_alltoallw ', 'ineighbor_alltoallw', t == 1))
    end do
    deallocate (sw, rw, wc, wd, wt)
    deallocate (a, b, g)
  end do
  call MPI_Allreduce(MPI_IN_PLACE, nbad, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (rank == 0 .and. nbad == 0) print '(a)', 'fortran_nbc: OK'
  call MPI_Finalize(ierr)
  if (nbad /= 0) stop 1
contains
  ! the ring's blocks: the left neighbour's, then the right one's
  subroutine expect_ring(what)
    character(len=*), intent(in) :: what
    integer :: j
    call expect(what, g, (/ (1000 * left + j, j = 1, n), (1000 * right + j, j = 1, n) /))
  end subroutine
  ! the line's blocks: the left neighbour's block 2 (its second block of sw: 100000 * lleft + 1000 + i),
  ! then the right one's block 1 (100000 * lright + i); -1 where the neighbour is MPI_PROC_NULL
  subroutine expect_line(what)
    character(len=*), intent(in) :: what
    integer :: want(2 * n), k
    want = -1
    do k = 1, n
      if (lleft /= MPI_PROC_NULL) want(k) = 100000 * lleft + 1000 + k
      if (lright /= MPI_PROC_NULL) want(n + k) = 100000 * lright + k
    end do
    call expect(trim(what), g, want)
  end subroutine
  ! the sum over the ranks of a(j) = 1000 * rank + j + shift
  subroutine expect_sum(what, shift)
    character(len=*), intent(in) :: what
    integer, intent(in) :: shift
    integer :: j
    call expect(what, b, (/ (1000 * (p * (p - 1) / 2) + p * (j + shift), j = 1, n) /))
  end subroutine
  subroutine expect(what, got, want)
    character(len=*), intent(in) :: what
    integer, intent(in) :: got(:), want(:)
    if (any(got(1:size(want)) /= want)) then
      print '(a,i0,3a,i0)', 'fortran_nbc: rank ', rank, ': wrong result of ', what, ' at count ', n
      nbad = nbad + 1
    end if
  end subroutine
end program
