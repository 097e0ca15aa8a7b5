/* Records cached with a communicator through an attribute (comm_records.h). */
#include "algs/comm_records.h"

static int mark_orphan(MPI_Comm comm, int keyval, void *attr, void *extra) {
  (void)comm, (void)keyval;
  mg_records *k = extra;
  pthread_mutex_lock(&k->lock);
  ((mg_record *)attr)->orphan = 1;
  pthread_mutex_unlock(&k->lock);
  return MPI_SUCCESS;
}

static void sweep_orphans(mg_records *k) {
  pthread_mutex_lock(&k->lock);
  for (mg_record **pp = &k->list; *pp;) {
    mg_record *r = *pp;
    if (!r->orphan) {
      pp = &r->next;
      continue;
    }
    *pp = r->next;
    k->free_record(r);
  }
  pthread_mutex_unlock(&k->lock);
}

int mg_records_find(mg_records *k, MPI_Comm comm, mg_record **out) {
  int found = 0, rc;
  *out = NULL;
  if (k->keyval == MPI_KEYVAL_INVALID) { /* first use */
    pthread_mutex_lock(&k->lock);
    rc = k->keyval == MPI_KEYVAL_INVALID ? PMPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, mark_orphan, &k->keyval, k)
                                         : MPI_SUCCESS;
    pthread_mutex_unlock(&k->lock);
    if (rc != MPI_SUCCESS) return rc;
  }
  mg_record *r = NULL;
  rc = PMPI_Comm_get_attr(comm, k->keyval, &r, &found);
  if (rc != MPI_SUCCESS) return rc;
  if (found)
    *out = r;
  else
    sweep_orphans(k);
  return MPI_SUCCESS;
}

int mg_records_add(mg_records *k, MPI_Comm comm, mg_record *r) {
  r->parent = comm, r->orphan = 0;
  int rc = PMPI_Comm_set_attr(comm, k->keyval, r);
  if (rc != MPI_SUCCESS) return rc;
  pthread_mutex_lock(&k->lock);
  r->next = k->list;
  k->list = r;
  pthread_mutex_unlock(&k->lock);
  return MPI_SUCCESS;
}

void mg_records_finalize(mg_records *k) {
  for (;;) { /* MPI_COMM_WORLD's attributes may be deleted inside PMPI_Finalize: detach them first */
    MPI_Comm parent = MPI_COMM_NULL;
    pthread_mutex_lock(&k->lock);
    for (mg_record *r = k->list; r && parent == MPI_COMM_NULL; r = r->next)
      if (!r->orphan) parent = r->parent;
    pthread_mutex_unlock(&k->lock);
    if (parent == MPI_COMM_NULL) break;
    if (PMPI_Comm_delete_attr(parent, k->keyval) != MPI_SUCCESS) { /* cannot happen; never loop */
      pthread_mutex_lock(&k->lock);
      for (mg_record *r = k->list; r; r = r->next) r->orphan = 1;
      pthread_mutex_unlock(&k->lock);
    }
  }
  sweep_orphans(k);
  if (k->keyval != MPI_KEYVAL_INVALID) PMPI_Comm_free_keyval(&k->keyval);
}
