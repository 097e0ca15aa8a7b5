/*
 * LogGP parameters of a job, as `mpiguide loggp` measures them (docs/loggp.md), and the
 * queries the cost models (src/model/cost.c, the point-to-point algorithms' cost functions)
 * make of them. LogGP (Alexandrov et al., 1995): L latency, o overhead (o_s at the sender,
 * o_r at the receiver), g gap between messages, G gap per byte of a long message, P
 * processes. The overheads and the gap are measured per message size; the queries
 * interpolate between measured sizes and extrapolate beyond them with G.
 * All times in seconds, sizes in bytes.
 */
#ifndef MG_LOGGP_H
#define MG_LOGGP_H

#include <stddef.h>

#define MG_LOGGP_MAXPTS 64

typedef struct mg_loggp {
  int p;        /* processes of the job that was measured */
  int inter;    /* the pair class measured: 0 both processes on one node, 1 on two nodes */
  double L;     /* latency */
  double g;     /* gap between small messages: the gap curve at the smallest size, less (s-1)G */
  double G;     /* gap per byte of long messages (the fit over the largest sizes) */
  int npts;     /* measured sizes, ascending */
  double size[MG_LOGGP_MAXPTS];
  double os[MG_LOGGP_MAXPTS], orecv[MG_LOGGP_MAXPTS]; /* overheads at that size */
  double gap[MG_LOGGP_MAXPTS]; /* g + (s-1)G at that size: the interval between messages of s
                                  bytes that one process sends back to back */
  double rtt[MG_LOGGP_MAXPTS]; /* PRTT(1,0,s) measured: a message of s bytes and its reply;
                                  0 where not measured (then mg_loggp_msg is the LogGP sum) */
  int nodes;     /* nodes of the job that was measured (0: unknown, taken as 1) */
  int cores;     /* processors of its smallest node (0: unknown) */
  double handoff; /* on a node with more ranks than processors: how late a message is whose receiver
                     waits for a processor (a ring round of all ranks less the crowded message; 0:
                     not measured or no such node) */
  double wake;    /* what mg_loggp_msg adds to every message: 0 in a file's parameters; the cost
                     model sets it to handoff for a job whose nodes run more ranks than processors */
  double copy;   /* local memcpy, per byte */
  double reduce; /* local MPI_Reduce_local (MPI_SUM on MPI_DOUBLE), per byte */
} mg_loggp;

/* Overheads and per-message interval at size s (interpolated, extrapolated with G). */
double mg_loggp_os(const mg_loggp *m, double s);
double mg_loggp_or(const mg_loggp *m, double s);
double mg_loggp_gap(const mg_loggp *m, double s);
/* How much a schedule in which every rank of a node is busy at once slows down on p processes
 * spread over the measured job's nodes: the ranks per node over the node's processors when they
 * exceed them (ranks of an oversubscribed node take turns), else 1; 1 when the cores are unknown. */
double mg_loggp_crowding(const mg_loggp *m, int p);
/* Whether a job of p processes spread over the measured job's nodes runs more ranks on a node than
 * it has processors (the cores known). */
int mg_loggp_oversubscribed(const mg_loggp *m, int p);
/* One message of s bytes, from the start of the send to the end of the receive, as the cost
 * models price it: half the measured round trip PRTT(1,0,s) where the file has it (beyond the
 * largest size: plus (s - s_max) G), else the LogGP sum mg_loggp_msg_sum; plus m->wake. On this machine the
 * sum counts a large message's transfer two or three times (o_s and o_r each wait for it:
 * docs/loggp.md), so the cost models use the measured round trip. */
double mg_loggp_msg(const mg_loggp *m, double s);
/* The LogGP sum o_s(s) + L + (s-1) G + o_r(s), with (s-1) G taken from the gap curve where
 * measured: the model whose fit `mpiguide loggp` reports. */
double mg_loggp_msg_sum(const mg_loggp *m, double s);

#endif
