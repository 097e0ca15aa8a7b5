/*
 * The rerank family: TGT 2010 eq. (36), renumbering the processes of a communicator must not make
 * a collective faster: A{comm} <= A{pi(comm)}. The row runs the MPI library's own collective, with
 * the same arguments, on comm's processes renumbered by a seeded random permutation (mg_perm_comm,
 * made at the first use and kept with the communicator); a rooted collective's root is the same
 * process (its new rank). The result of a call whose data depend on rank order (the blocks of
 * gather, allgather, alltoall, scatter, the prefixes of scan) is another arrangement of the same
 * data, so the rows are measure-only: check compares the default with them, libmpiguide never runs
 * them. Reductions: commutative ops only (a non-commutative one would combine in another order).
 * Only the collectives whose per-rank counts are all alike: an irregular collective's count arrays
 * are indexed by rank, and would no longer match the renumbered ranks.
 * Cost: the collective itself, self(n).
 */
#include "algs/algs.h"

int mg_rerank(const mg_call *c, int unused) {
  (void)unused;
  MPI_Comm pc;
  const int *newrank;
  int rc = mg_perm_comm(c->comm, &pc, &newrank);
  if (rc != MPI_SUCCESS) return rc;
  mg_call d = *c;
  d.comm = pc;
  d.rank = newrank[c->rank];
  if (mg_colls[c->coll].rooted) d.root = newrank[c->root];
  return mg_run(&d, 0);
}
