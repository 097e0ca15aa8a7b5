/*
 * Records cached with a communicator through an attribute (the private point-to-point
 * communicators of toolkit.c, the node structures of hier_nodes.c): one list of records under a
 * lock per kind. The attribute's delete callback (the communicator is being freed, or finalize
 * deletes it) only marks the record orphaned, since freeing communicators inside a callback is
 * not allowed; orphans are freed at the next lookup that misses and at finalize.
 *
 * A record type embeds mg_record as its first member:
 *
 *   typedef struct { mg_record rec; MPI_Comm priv; } my_rec;
 *   static void my_free(mg_record *r) { PMPI_Comm_free(&((my_rec *)r)->priv); free(r); }
 *   static mg_records mine = MG_RECORDS_INIT(my_free);
 */
#ifndef MG_ALGS_COMM_RECORDS_H
#define MG_ALGS_COMM_RECORDS_H

#include <mpi.h>
#include <pthread.h>

typedef struct mg_record {
  MPI_Comm parent; /* the communicator the record is cached with */
  int orphan;      /* its attribute was deleted: free at the next sweep */
  struct mg_record *next;
} mg_record;

typedef struct mg_records {
  pthread_mutex_t lock;
  int keyval;      /* created at the first lookup; keyvals are process-wide */
  mg_record *list;
  void (*free_record)(mg_record *r); /* frees what r holds and r, outside any callback */
} mg_records;

#define MG_RECORDS_INIT(free_fn) {PTHREAD_MUTEX_INITIALIZER, MPI_KEYVAL_INVALID, NULL, (free_fn)}

/* The record cached with comm in *out, NULL when comm has none yet (then the orphans are freed
 * first, so a new record does not pile up on freed ones). A PMPI error code passes through. */
int mg_records_find(mg_records *k, MPI_Comm comm, mg_record **out);
/* Cache r with comm (r->parent set here). On an error nothing is cached: the caller frees r. */
int mg_records_add(mg_records *k, MPI_Comm comm, mg_record *r);
/* Before MPI_Finalize: delete every attribute still set, free every record and the keyval. */
void mg_records_finalize(mg_records *k);

#endif
