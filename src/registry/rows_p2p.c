/*
 * The rows of the point-to-point operations (registry.h, MG_P2P_OPS): one table per operation, row
 * 0 the MPI library's own, then the mock-ups, each row's name written out in full. The families'
 * macros and their rules: rows.h. Compiled as part of registry.c (#include), which takes each
 * table's size for mg_colls.
 */
#include "registry/rows.h"

/*
 * The point-to-point operations (registry.h, MG_P2P_OPS; pt2pt.c), the guidelines of TGT 2010 §IV:
 * eq. (6) Send <= Isend + Wait, (8) Send <= Ssend, (9) Rsend <= Send, (10) Sendrecv <= Isend + Recv +
 * Wait, (11) Sendrecv <= Irecv + Send + Wait, and split-robustness (eq. 1, its Fig. 1) for Send. Eq.
 * (5), Isend + Wait <= Send, and (7), Send ~ Isend + Wait, are verdicts of check on the same
 * measurements (a non-blocking send cannot be replaced by a blocking one).
 */

static const mg_alg send_algs[] = {
    MG_DEFAULT_ROW("send_default", "MPI_Send", .fn = mg_send_default),
    MG_PT2PT_ROW("send_as_isend_wait", "TGT6", "Send(n) <= Isend(n) + Wait", "MPI_Isend with the same arguments, "
                 "then MPI_Wait", 0, "self(n)", .fn = mg_send_as_isend_wait),
    MG_PT2PT_ROW("send_as_ssend", "TGT8", "Send(n) <= Ssend(n)", "MPI_Ssend with the same arguments; measure only: "
                 "a program that relies on MPI buffering small messages (unsafe, but common) would deadlock",
                 MG_R_MEASURE_ONLY, "self(n)", .fn = mg_send_as_ssend),
    MG_SPLIT_ROWS("send_as_split2", "send_as_split4", "Send", MG_R_MEASURE_ONLY, "0", .pfn = mg_p2p_split,
                  .recv_side = mg_p2p_split_recv),
    MG_BLOCKS_ROWS("send_as_blocks1k", "send_as_blocks4k", "send_as_blocks16k", "send_as_blocks64k", "Send",
                   MG_R_MEASURE_ONLY, "0", .pfn = mg_p2p_blocks, .recv_side = mg_p2p_blocks_recv),
    {.name = "send_as_rma_put", .pfn = mg_p2p_rma_put, .guideline = "TGT-O3",
     .formula = "Send(n) <= Win_fence + Put(n) + Win_fence",
     .description = "fences around a put into the destination's window (kept with the communicator), which the receiver "
                    "copies out (TGT 2010 states ~: check also gives the reverse and the equivalence); measure only: the "
                    "receiver must take part in the fences (2 processes)",
     .restrictions = MG_R_MEASURE_ONLY | MG_R_NB_INT,
     .mem_formula = "the window: n rounded up to a power of two (at least 4 KiB)", .family = MG_FAM_RMA,
     .cost = "2 * barrier(0) + sendrecv(n) + copy(n)", .recv_side = mg_p2p_rma_put_recv},
};

static const mg_alg ssend_algs[] = {
    MG_DEFAULT_ROW("ssend_default", "MPI_Ssend", .fn = mg_ssend_default),
};

static const mg_alg rsend_algs[] = {
    MG_DEFAULT_ROW("rsend_default", "MPI_Rsend", .fn = mg_rsend_default),
    MG_PT2PT_ROW("rsend_as_send", "TGT9", "Rsend(n) <= Send(n)", "MPI_Send with the same arguments (a ready send's "
                 "receive is posted, so a standard send matches it alike)", 0, "send(n)", .fn = mg_rsend_as_send),
};

static const mg_alg isend_algs[] = {
    MG_DEFAULT_ROW("isend_default", "MPI_Isend", .fn = mg_isend_default),
};

static const mg_alg recv_algs[] = {
    MG_DEFAULT_ROW("recv_default", "MPI_Recv", .fn = mg_recv_default),
};

static const mg_alg irecv_algs[] = {
    MG_DEFAULT_ROW("irecv_default", "MPI_Irecv", .fn = mg_irecv_default),
};

static const mg_alg sendrecv_algs[] = {
    MG_DEFAULT_ROW("sendrecv_default", "MPI_Sendrecv", .fn = mg_sendrecv_default),
    MG_PT2PT_ROW("sendrecv_as_isend_recv_wait", "TGT10", "Sendrecv(n) <= Isend(n) + Recv(n) + Wait",
                 "MPI_Isend of the send side, MPI_Recv of the receive side (its status), MPI_Wait", 0, "self(n)",
                 .fn = mg_sendrecv_as_isend_recv_wait),
    MG_PT2PT_ROW("sendrecv_as_irecv_send_wait", "TGT11", "Sendrecv(n) <= Irecv(n) + Send(n) + Wait",
                 "MPI_Irecv of the receive side, MPI_Send of the send side, MPI_Wait (its status)", 0, "self(n)",
                 .fn = mg_sendrecv_as_irecv_send_wait),
    /* TGT 2010 eq. 37 reads the other way round (the row must not be slower than the default):
     * check's reverse verdict of this row (src/check/analyze.c, mg_ck_relations) */
    {.name = "sendrecv_as_cart_reorder", .fn = mg_sendrecv_default, .guideline = "TGT37",
     .formula = "Sendrecv{cart}(n) vs Sendrecv{cart, reorder}(n)",
     .description = "the library's own sendrecv with the neighbours on a Cartesian communicator made with reordering "
                    "(pattern cart or cartpair); measure only: another communicator, check judges eq. 37, Sendrecv{cart, "
                    "reorder} <= Sendrecv{cart}, per direction of the exchange (cart) or per neighbour pair (cartpair)", .restrictions = MG_R_MEASURE_ONLY, .mem_formula = "0", .family = MG_FAM_TOPO,
     .cost = "self(n)"},
};

static const mg_alg sendrecv_replace_algs[] = {
    MG_DEFAULT_ROW("sendrecv_replace_default", "MPI_Sendrecv_replace", .fn = mg_sendrecv_replace_default),
};
