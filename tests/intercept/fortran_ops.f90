! A plain Fortran MPI program ("use mpi", or "use mpi_f08" in its f08 twin fortran_ops_f08.F90
! built from the same source with -DMG_F08), knowing nothing of mpiguide. It calls every operation
! libmpiguide intercepts: the 17 collectives on MPI_INTEGER, REPS times at each count (rooted ones
! at root = repetition mod p; MPI_IN_PLACE in the odd repetitions wherever the standard allows it;
! a Bcast of MPI_BOTTOM with a datatype of absolute addresses), and the 8 point-to-point
! operations around the ring of ranks, checking each received status (source, tag, count).
!
!   fortran_ops [REPS [COUNT...]]      default: 3 repetitions of counts 1 37 2500
!
! Each rank prints (to MG_FORTRAN_OUT.r<rank> when set), per operation, count and repetition, one line "r<rank> <op> <n> <k> <sum>"
! with a checksum of what it received: run_preload.sh compares these lines between the plain run
! and runs under libmpiguide. Values that are easy to predict are checked here as well; a wrong
! one is reported and the program ends with exit status 1. On success rank 0 prints
! "fortran_ops: OK".
program fortran_ops
#ifdef MG_F08
  use mpi_f08
#else
  use mpi
#endif
  implicit none
#ifdef MG_F08
  type(MPI_Comm) :: comm
  type(MPI_Status) :: st
  type(MPI_Request) :: req
  type(MPI_Datatype) :: btype
  type(MPI_Datatype), allocatable :: wt(:)
#else
  integer :: comm, st(MPI_STATUS_SIZE), req, btype
  integer, allocatable :: wt(:)
#endif
  integer :: ierr, rank, p, reps, ncounts, c, k, n, i, q, root, left, right, got, nbad
  integer :: counts(16)
  integer(kind=MPI_ADDRESS_KIND) :: addr(1)
  integer, allocatable :: a(:), b(:), cnt(:), dsp(:), cnt2(:), dsp2(:)
  character(len=32) :: arg
  character(len=4096) :: outname, outfile
  integer :: out, est

  reps = 3
  ncounts = 3
  counts(1:3) = (/ 1, 37, 2500 /)
  if (command_argument_count() >= 1) then
    call get_command_argument(1, arg)
    read (arg, *) reps
  end if
  if (command_argument_count() >= 2) then
    ncounts = min(command_argument_count() - 1, 16)
    do c = 1, ncounts
      call get_command_argument(c + 1, arg)
      read (arg, *) counts(c)
    end do
  end if

  call MPI_Init(ierr)
  comm = MPI_COMM_WORLD
  call MPI_Comm_rank(comm, rank, ierr)
  call MPI_Comm_size(comm, p, ierr)
  ! The checksum lines go to MG_FORTRAN_OUT.r<rank> when that is set: the launcher forwards the
  ! ranks' standard output through terminals, where gfortran writes each item of a line on its
  ! own, so lines of different ranks mixed on one stream (a flaky test).
  out = 6
  call get_environment_variable('MG_FORTRAN_OUT', outname, status=est)
  if (est == 0 .and. len_trim(outname) > 0) then
    write (outfile, '(a,a,i0)') trim(outname), '.r', rank
    open (newunit=out, file=trim(outfile), action='write', status='replace')
  end if
  right = mod(rank + 1, p)
  left = mod(rank - 1 + p, p)
  nbad = 0
  allocate(cnt(0:p-1), dsp(0:p-1), cnt2(0:p-1), dsp2(0:p-1), wt(0:2*p-1))

  do c = 1, ncounts
    n = counts(c)
    allocate(a(p * n + p), b(p * n + p))
    do k = 0, reps - 1
      root = mod(k, p)

      ! Allgather (in place: this rank's block already in b)
      call fill(a, n)
      b = -1
      if (mod(k, 2) == 1) then
        b(rank * n + 1:rank * n + n) = a(1:n)
        call MPI_Allgather(MPI_IN_PLACE, 0, MPI_INTEGER, b, n, MPI_INTEGER, comm, ierr)
      else
        call MPI_Allgather(a, n, MPI_INTEGER, b, n, MPI_INTEGER, comm, ierr)
      end if
      call report('allgather', b, p * n)
      do q = 0, p - 1
        call expect('allgather', b(q * n + 1), q * 1000 + 1 + 31 * k)
      end do

      ! Allgatherv: n ints in all, rank q gives cnt(q)
      do q = 0, p - 1
        cnt(q) = n / p
        if (q < mod(n, p)) cnt(q) = cnt(q) + 1
      end do
      dsp(0) = 0
      do q = 1, p - 1
        dsp(q) = dsp(q - 1) + cnt(q - 1)
      end do
      call fill(a, n)
      b = -1
      call MPI_Allgatherv(a, cnt(rank), MPI_INTEGER, b, cnt, dsp, MPI_INTEGER, comm, ierr)
      call report('allgatherv', b, n)

      ! Allreduce (sum; in place in odd repetitions)
      call fill(a, n)
      if (mod(k, 2) == 1) then
        b(1:n) = a(1:n)
        call MPI_Allreduce(MPI_IN_PLACE, b, n, MPI_INTEGER, MPI_SUM, comm, ierr)
      else
#ifdef MG_LARGE
        ! mpi_f08 of an MPI-4 library: a count of kind MPI_COUNT_KIND calls the large-count binding
        ! (MPICH: mpi_allreduce_f08ts_large_, which calls MPI_Allreduce_c)
        call MPI_Allreduce(a, b, int(n, MPI_COUNT_KIND), MPI_INTEGER, MPI_SUM, comm, ierr)
#else
        call MPI_Allreduce(a, b, n, MPI_INTEGER, MPI_SUM, comm, ierr)
#endif
      end if
      call report('allreduce', b, n)
      call expect('allreduce', b(1), 1000 * p * (p - 1) / 2 + p * (1 + 31 * k))

      ! Alltoall (block q to rank q)
      do i = 1, p * n
        a(i) = rank * 7919 + i + 17 * k
      end do
      b = -1
      if (mod(k, 2) == 1) then
        b(1:p * n) = a(1:p * n)
        call MPI_Alltoall(MPI_IN_PLACE, 0, MPI_INTEGER, b, n, MPI_INTEGER, comm, ierr)
      else
        call MPI_Alltoall(a, n, MPI_INTEGER, b, n, MPI_INTEGER, comm, ierr)
      end if
      call report('alltoall', b, p * n)
      do q = 0, p - 1
        call expect('alltoall', b(q * n + 1), q * 7919 + rank * n + 1 + 17 * k)
      end do

      ! Alltoallv (rank r sends min(n, r+1) ... to each rank: counts differ between ranks)
      do q = 0, p - 1
        cnt(q) = (n * (rank + 1)) / p      ! what this rank sends to each
        cnt2(q) = (n * (q + 1)) / p        ! what it gets from rank q
      end do
      dsp(0) = 0
      dsp2(0) = 0
      do q = 1, p - 1
        dsp(q) = dsp(q - 1) + cnt(q - 1)
        dsp2(q) = dsp2(q - 1) + cnt2(q - 1)
      end do
      do i = 1, p * n
        a(i) = rank * 7919 + i + 17 * k
      end do
      b = -1
      call MPI_Alltoallv(a, cnt, dsp, MPI_INTEGER, b, cnt2, dsp2, MPI_INTEGER, comm, ierr)
      call report('alltoallv', b, p * n)

      ! Alltoallw (the same, byte displacements, one datatype per peer)
      do q = 0, p - 1
        wt(q) = MPI_INTEGER
        wt(p + q) = MPI_INTEGER
      end do
      b = -1
      call MPI_Alltoallw(a, cnt, dsp * 4, wt(0:p-1), b, cnt2, dsp2 * 4, wt(p:2*p-1), comm, ierr)
      call report('alltoallw', b, p * n)

      call MPI_Barrier(comm, ierr)

      ! Bcast from root
      a = -1
      if (rank == root) call fill(a, n)
      call MPI_Bcast(a, n, MPI_INTEGER, root, comm, ierr)
      call report('bcast', a, n)
      call expect('bcast', a(1), root * 1000 + 1 + 31 * k)

      ! Exscan (sum; rank 0's result undefined: not reported)
      call fill(a, n)
      b = -1
      call MPI_Exscan(a, b, n, MPI_INTEGER, MPI_SUM, comm, ierr)
      if (rank > 0) call report('exscan', b, n)

      ! Gather at root (root in place in odd repetitions)
      call fill(a, n)
      b = -1
      if (mod(k, 2) == 1 .and. rank == root) then
        ! the send arguments are not significant in place: -1 and MPI_DATATYPE_NULL are legal
        b(rank * n + 1:rank * n + n) = a(1:n)
        call MPI_Gather(MPI_IN_PLACE, -1, MPI_DATATYPE_NULL, b, n, MPI_INTEGER, root, comm, ierr)
      else if (mod(k, 2) == 1) then
        ! nor are the receive arguments at a non-root
        call MPI_Gather(a, n, MPI_INTEGER, b, -1, MPI_DATATYPE_NULL, root, comm, ierr)
      else
        call MPI_Gather(a, n, MPI_INTEGER, b, n, MPI_INTEGER, root, comm, ierr)
      end if
      call report('gather', b, p * n)

      ! Gatherv at root: rank q gives cnt(q) = n*(q+1)/p
      do q = 0, p - 1
        cnt(q) = (n * (q + 1)) / p
      end do
      dsp(0) = 0
      do q = 1, p - 1
        dsp(q) = dsp(q - 1) + cnt(q - 1)
      end do
      call fill(a, n)
      b = -1
      call MPI_Gatherv(a, cnt(rank), MPI_INTEGER, b, cnt, dsp, MPI_INTEGER, root, comm, ierr)
      call report('gatherv', b, p * n)

      ! Reduce (sum) at root; in the odd repetitions in place at root 0 (MPICH 4.0.2's in-place
      ! MPI_Reduce at another root crashes from about 2 KiB, docs/check.md)
      call fill(a, n)
      b = -1
      if (mod(k, 2) == 1) then
        if (rank == 0) then
          b(1:n) = a(1:n)
          call MPI_Reduce(MPI_IN_PLACE, b, n, MPI_INTEGER, MPI_SUM, 0, comm, ierr)
        else
          call MPI_Reduce(a, b, n, MPI_INTEGER, MPI_SUM, 0, comm, ierr)
        end if
      else
        call MPI_Reduce(a, b, n, MPI_INTEGER, MPI_SUM, root, comm, ierr)
      end if
      call report('reduce', b, n)

      ! Reduce_scatter (sum of n ints, rank q gets cnt(q))
      do q = 0, p - 1
        cnt(q) = n / p
        if (q < mod(n, p)) cnt(q) = cnt(q) + 1
      end do
      call fill(a, n)
      b = -1
      if (mod(k, 2) == 1) then
        b(1:n) = a(1:n)
        call MPI_Reduce_scatter(MPI_IN_PLACE, b, cnt, MPI_INTEGER, MPI_SUM, comm, ierr)
      else
        call MPI_Reduce_scatter(a, b, cnt, MPI_INTEGER, MPI_SUM, comm, ierr)
      end if
      call report('reduce_scatter', b, cnt(rank))

      ! Reduce_scatter_block (sum; block q to rank q)
      do i = 1, p * n
        a(i) = rank * 7919 + i + 17 * k
      end do
      b = -1
      if (mod(k, 2) == 1) then
        b(1:p * n) = a(1:p * n)
        call MPI_Reduce_scatter_block(MPI_IN_PLACE, b, n, MPI_INTEGER, MPI_SUM, comm, ierr)
      else
        call MPI_Reduce_scatter_block(a, b, n, MPI_INTEGER, MPI_SUM, comm, ierr)
      end if
      call report('reduce_scatter_block', b, n)

      ! Scan (sum, inclusive; in place in odd repetitions)
      call fill(a, n)
      if (mod(k, 2) == 1) then
        b(1:n) = a(1:n)
        call MPI_Scan(MPI_IN_PLACE, b, n, MPI_INTEGER, MPI_SUM, comm, ierr)
      else
        call MPI_Scan(a, b, n, MPI_INTEGER, MPI_SUM, comm, ierr)
      end if
      call report('scan', b, n)
      call expect('scan', b(1), 1000 * rank * (rank + 1) / 2 + (rank + 1) * (1 + 31 * k))

      ! Scatter from root (root keeps its block in place in odd repetitions)
      do i = 1, p * n
        a(i) = root * 7919 + i + 17 * k
      end do
      b = -1
      if (mod(k, 2) == 1 .and. rank == root) then
        ! MPICH's coll/scatter2: the receive arguments are not significant in place
        call MPI_Scatter(a, n, MPI_INTEGER, MPI_IN_PLACE, -1, MPI_DATATYPE_NULL, root, comm, ierr)
        b(1:n) = a(rank * n + 1:rank * n + n)
      else if (mod(k, 2) == 1) then
        call MPI_Scatter(a, -1, MPI_DATATYPE_NULL, b, n, MPI_INTEGER, root, comm, ierr)
      else
        call MPI_Scatter(a, n, MPI_INTEGER, b, n, MPI_INTEGER, root, comm, ierr)
      end if
      call report('scatter', b, n)
      call expect('scatter', b(1), root * 7919 + rank * n + 1 + 17 * k)

      ! Scatterv from root: rank q gets cnt(q) = n*(q+1)/p
      do q = 0, p - 1
        cnt(q) = (n * (q + 1)) / p
      end do
      dsp(0) = 0
      do q = 1, p - 1
        dsp(q) = dsp(q - 1) + cnt(q - 1)
      end do
      b = -1
      call MPI_Scatterv(a, cnt, dsp, MPI_INTEGER, b, cnt(rank), MPI_INTEGER, root, comm, ierr)
      call report('scatterv', b, n)

      ! Bcast of MPI_BOTTOM with a datatype that holds a's absolute address
      a = -2
      if (rank == root) call fill(a, n)
      call MPI_Get_address(a, addr(1), ierr)
      call MPI_Type_create_hindexed(1, (/ n /), addr, MPI_INTEGER, btype, ierr)
      call MPI_Type_commit(btype, ierr)
      call MPI_Bcast(MPI_BOTTOM, 1, btype, root, comm, ierr)
      call MPI_Type_free(btype, ierr)
      call report('bcast_bottom', a, n)
      call expect('bcast_bottom', a(n), root * 1000 + n + 31 * k)

      ! Point to point around the ring: Send/Recv, Ssend/Recv (status ignored), Rsend to a posted
      ! Irecv, Isend/Recv, Sendrecv, Sendrecv_replace. Even ranks send first, odd ranks receive
      ! first (no deadlock for the synchronous sends).
      if (p > 1) then
        call fill(a, n)
        b = -1
        if (mod(rank, 2) == 0) then
          call MPI_Send(a, n, MPI_INTEGER, right, 10 + k, comm, ierr)
          call MPI_Recv(b, p * n, MPI_INTEGER, left, 10 + k, comm, st, ierr)
        else
          call MPI_Recv(b, p * n, MPI_INTEGER, left, 10 + k, comm, st, ierr)
          call MPI_Send(a, n, MPI_INTEGER, right, 10 + k, comm, ierr)
        end if
        call expect_status('send', st, left, 10 + k, n)
        call report('send', b, n)
        b = -1
        if (mod(rank, 2) == 0) then
          call MPI_Ssend(a, n, MPI_INTEGER, right, 20, comm, ierr)
          call MPI_Recv(b, n, MPI_INTEGER, left, 20, comm, MPI_STATUS_IGNORE, ierr)
        else
          call MPI_Recv(b, n, MPI_INTEGER, left, 20, comm, MPI_STATUS_IGNORE, ierr)
          call MPI_Ssend(a, n, MPI_INTEGER, right, 20, comm, ierr)
        end if
        call report('ssend', b, n)
        b = -1
        call MPI_Irecv(b, n, MPI_INTEGER, left, 30, comm, req, ierr)
        call MPI_Barrier(comm, ierr)
        call MPI_Rsend(a, n, MPI_INTEGER, right, 30, comm, ierr)
        call MPI_Wait(req, st, ierr)
        call expect_status('rsend', st, left, 30, n)
        call report('rsend', b, n)
        b = -1
        call MPI_Isend(a, n, MPI_INTEGER, right, 40, comm, req, ierr)
        call MPI_Recv(b, n, MPI_INTEGER, MPI_ANY_SOURCE, MPI_ANY_TAG, comm, st, ierr)
        call MPI_Wait(req, MPI_STATUS_IGNORE, ierr)
        call expect_status('isend', st, left, 40, n)
        call report('isend', b, n)
        b = -1
        call MPI_Sendrecv(a, n, MPI_INTEGER, right, 50, b, n, MPI_INTEGER, left, 50, comm, st, ierr)
        call expect_status('sendrecv', st, left, 50, n)
        call report('sendrecv', b, n)
        b(1:n) = a(1:n)
        call MPI_Sendrecv_replace(b, n, MPI_INTEGER, right, 60, left, 60, comm, st, ierr)
        call expect_status('sendrecv_replace', st, left, 60, n)
        call report('sendrecv_replace', b, n)
        call expect('sendrecv_replace', b(1), left * 1000 + 1 + 31 * k)
      end if
    end do
    deallocate(a, b)
  end do

  call MPI_Barrier(comm, ierr)
  call MPI_Finalize(ierr)
  if (out /= 6) close (out)
  if (nbad /= 0) then
    print '(a,i0,a,i0,a)', 'fortran_ops: rank ', rank, ': ', nbad, ' wrong values'
    stop 1
  end if
  if (rank == 0) print '(a)', 'fortran_ops: OK'

contains

  subroutine fill(v, m)
    integer, intent(inout) :: v(:)
    integer, intent(in) :: m
    integer :: j
    do j = 1, m
      v(j) = rank * 1000 + j + 31 * k
    end do
  end subroutine fill

  ! One line per call: the operation, the count, the repetition and a checksum of v(1:m).
  subroutine report(what, v, m)
    character(len=*), intent(in) :: what
    integer, intent(in) :: v(:), m
    integer(kind=8) :: s
    integer :: j
    s = 0
    do j = 1, m
      s = s + int(j, 8) * int(v(j), 8)
    end do
    write (out, '(a,i0,1x,a,1x,i0,1x,i0,1x,i0)') 'r', rank, what, n, k, s
  end subroutine report

  subroutine expect(what, got_, want)
    character(len=*), intent(in) :: what
    integer, intent(in) :: got_, want
    if (got_ /= want .or. ierr /= MPI_SUCCESS) then
      nbad = nbad + 1
      if (nbad <= 5) print '(a,i0,1x,a,a,i0,a,i0,a,i0,a,i0)', 'fortran_ops: rank ', rank, what, &
        ': count ', n, ' repetition ', k, ': got ', got_, ', want ', want
    end if
  end subroutine expect

  subroutine expect_status(what, s, src, tag, m)
    character(len=*), intent(in) :: what
    integer, intent(in) :: src, tag, m
#ifdef MG_F08
    type(MPI_Status), intent(in) :: s
    call MPI_Get_count(s, MPI_INTEGER, got, ierr)
    call expect(what // ' status source', s%MPI_SOURCE, src)
    call expect(what // ' status tag', s%MPI_TAG, tag)
#else
    integer, intent(in) :: s(MPI_STATUS_SIZE)
    call MPI_Get_count(s, MPI_INTEGER, got, ierr)
    call expect(what // ' status source', s(MPI_SOURCE), src)
    call expect(what // ' status tag', s(MPI_TAG), tag)
#endif
    call expect(what // ' status count', got, m)
  end subroutine expect_status

end program fortran_ops
