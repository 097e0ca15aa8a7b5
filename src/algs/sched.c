/*
 * Schedules: the non-blocking forms of the catalogue's compositions (Iallreduce as Ireduce then
 * Ibcast, ...; rows of family nbc with MG_R_PROGRESS) as rounds of the library's own non-blocking
 * collectives, each round posted when the one before it has completed (the libNBC model, Hoefler,
 * Lumsdaine and Rehm, SC07), and the whole completed through one MPI request the caller gets.
 *
 * Why a thread. A schedule that libmpiguide advanced only in the calls it sees would deadlock a
 * legal program: rank 0 posts MPI_Iallreduce and waits; rank 1 posts it, then blocks in MPI_Recv
 * for a message rank 0 sends after its wait. Rank 1 never posts round 2, rank 0 never completes
 * (MPI-3.1 §5.12: the operation must complete; the progress rule). Nor can libmpiguide block in
 * the post: rank 1 may be in a blocking call on another communicator that waits for rank 0 (test
 * diff.nbc.sched: both orders). So a schedule runs in libmpiguide only with its progress thread,
 * asked for with MPIGUIDE_PROGRESS=thread: MPI_Init then asks for MPI_THREAD_MULTIPLE, the ranks
 * agree at MPI_Init that every one got it (mg_progress_on, equal on every rank), and the thread
 * advances the schedules from their post to their completion, whatever the application's thread
 * is doing. Without it the rows fall back (MG_WHY_NO_PROGRESS); the benchmark, which never asks
 * for the thread, runs the rounds one after the other in the call (the composition's completion
 * time, what check judges).
 *
 * - The request: a generalized request (MPI_Grequest_start, MPI-3.1 §12.2), completed by the thread
 *   with MPI_Grequest_complete once the last round has. Every completion call (MPI_Wait, _Test,
 *   _Waitall with other requests, _Waitany, _Waitsome, _Testall) and MPI_Request_free work as the
 *   standard says for any request. Its status: no source, no tag, 0 elements, not cancelled; the
 *   error of the round that failed, if one did. A schedule's memory (the descriptor, a row's
 *   intermediate vector) is freed by the request's free function, when it is both complete and
 *   freed.
 * - The order of collectives. Rounds are posted at different times on different ranks, so not on
 *   the caller's communicator (the caller's own collectives in between would match them wrongly)
 *   but on a shadow of it, a communicator of the same group that libmpiguide makes with
 *   MPI_Comm_create right after the caller's communicator was made, while every rank of it is in
 *   that call (the generated wrappers of MPI_Comm_dup, _split, _create, MPI_Cart_create ...: role
 *   @newcomm, src/lib/mpi_functions.txt; MPI_COMM_WORLD's at MPI_Init). Not MPI_Comm_idup in the
 *   post: Open MPI 4.1.4's idup posts its later rounds from its progress engine with the parent's
 *   next collective tags, so a non-blocking collective the caller posts on the parent while it is
 *   pending, on one rank before that progress and on another after, matches the wrong messages
 *   (MPI_ERR_TRUNCATE, then a hang: a plain MPI program shows it). A communicator libmpiguide did
 *   not see made (MPI_Comm_idup's, MPI_COMM_SELF, Open MPI's Fortran calls) has no shadow, and its
 *   schedule rows fall back (no_progress). Later schedules on a shadow queue: one posts its first
 *   round only once every earlier one on it has posted its last, so every rank posts the same
 *   rounds in the same order there. The shadow is an attribute of the communicator (not copied to
 *   its duplicates), freed with it, or after its last schedule if that completes later.
 * - Locks. One mutex over the list of schedules, taken by a post and by the thread; it is never
 *   taken inside a callback MPI calls (the request's query and free functions, the attribute's
 *   delete function), which may run under the library's own lock (MPICH's global critical
 *   section): those touch only their own object and atomic flags.
 * - Cost: a post allocates the schedule (malloc; the row's vector from mg_nbc_alloc's pool) and
 *   the request; the thread polls PMPI_Test on each pending round, yields the processor when a pass
 *   advanced nothing, and sleeps on a condition variable when no schedule is pending.
 */
#include <errno.h>
#include <mpi.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "algs/algs.h"

int mg_progress_on;

typedef struct shadow {
  MPI_Comm dup;         /* the shadow */
  MPI_Comm of;          /* the caller's communicator */
  atomic_int users;     /* schedules on it not yet finished */
  atomic_int freed;     /* the caller's communicator is freed */
  atomic_int gone;      /* the shadow is freed (once, by whoever sees both conditions first) */
  unsigned long gate;   /* the pass in which an earlier schedule on it still had rounds to post */
  struct shadow *next, **prev; /* the list of live shadows (finalize frees them), under shlock */
} shadow;

typedef struct mg_sched {
  mg_call c;            /* the call (its buffers the caller's; c.req not used) */
  mg_sched_round post;  /* posts round r on comm */
  int nround, next;     /* rounds; the next to post */
  MPI_Request q;        /* the current round's */
  void *tmp;            /* the row's intermediate data (mg_nbc_alloc), or NULL */
  int err;              /* the first error, returned by the request */
  shadow *sh;
  MPI_Request greq;
  struct mg_sched *link;
} mg_sched;

static struct {
  pthread_mutex_t lock;
  pthread_cond_t wake;
  mg_sched *head, **tail;
  pthread_t thread;
  int started, stop;
  unsigned long pass;
  int keyval;
  shadow *shadows;
  pthread_mutex_t shlock; /* the list of shadows only: never held across an MPI call */
  atomic_long live; /* schedules allocated and not yet freed (mpiguide_requests_kept) */
  atomic_int posting; /* posts waiting for the lock: the thread lets them in before it takes it again */
  atomic_int pending; /* schedules in the list (read without the lock by mg_sched_drive) */
  atomic_int driving; /* the program's threads in a completion call advancing the schedules */
} eng = {.lock = PTHREAD_MUTEX_INITIALIZER, .wake = PTHREAD_COND_INITIALIZER, .tail = &eng.head,
         .keyval = MPI_KEYVAL_INVALID, .shlock = PTHREAD_MUTEX_INITIALIZER};

long mg_sched_live(void) { return atomic_load(&eng.live); }

/* Free the shadow once both its communicator is freed and no schedule uses it, by whoever of the
 * two sees that first (the attribute's delete function or the thread's last completion). */
static void shadow_release(shadow *sh) {
  if (atomic_load(&sh->users) != 0 || !atomic_load(&sh->freed)) return;
  if (atomic_exchange(&sh->gone, 1)) return;
  if (sh->dup != MPI_COMM_NULL) PMPI_Comm_free(&sh->dup);
  pthread_mutex_lock(&eng.shlock);
  if (sh->prev && (*sh->prev = sh->next)) sh->next->prev = sh->prev; /* not linked: made, then refused */
  pthread_mutex_unlock(&eng.shlock);
  free(sh);
}

static int shadow_delete(MPI_Comm comm, int keyval, void *attr, void *extra) {
  (void)comm, (void)keyval, (void)extra;
  shadow *sh = attr;
  atomic_store(&sh->freed, 1);
  shadow_release(sh);
  return MPI_SUCCESS;
}

static pthread_once_t keyval_once = PTHREAD_ONCE_INIT;
static void keyval_make(void) {
  if (PMPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, shadow_delete, &eng.keyval, NULL) != MPI_SUCCESS)
    eng.keyval = MPI_KEYVAL_INVALID;
}

static shadow *shadow_of(MPI_Comm comm) {
  shadow *sh = NULL;
  int found = 0;
  if (eng.keyval == MPI_KEYVAL_INVALID || comm == MPI_COMM_NULL ||
      PMPI_Comm_get_attr(comm, eng.keyval, &sh, &found) != MPI_SUCCESS)
    return NULL;
  return found ? sh : NULL;
}

int mg_sched_has_shadow(MPI_Comm comm) { return shadow_of(comm) != NULL; }

void mg_sched_shadow_make(MPI_Comm comm) {
  int inter = 1;
  pthread_once(&keyval_once, keyval_make);
  if (eng.keyval == MPI_KEYVAL_INVALID || PMPI_Comm_test_inter(comm, &inter) != MPI_SUCCESS || inter) return;
  /* MPI_Comm_create, not _dup: the program's own attributes are not copied (their callbacks not run).
   * Collective over comm: every rank takes part, whatever failed on it, and all keep the shadow or none. */
  MPI_Group g = MPI_GROUP_EMPTY;
  shadow *sh = calloc(1, sizeof *sh);
  if (sh) sh->dup = sh->of = MPI_COMM_NULL;
  int got = PMPI_Comm_group(comm, &g) == MPI_SUCCESS;
  MPI_Comm dup = MPI_COMM_NULL;
  got &= PMPI_Comm_create(comm, g, &dup) == MPI_SUCCESS && dup != MPI_COMM_NULL;
  if (g != MPI_GROUP_EMPTY) PMPI_Group_free(&g);
  got &= sh && PMPI_Comm_set_attr(comm, eng.keyval, sh) == MPI_SUCCESS;
  int all = 0;
  if (PMPI_Allreduce(&got, &all, 1, MPI_INT, MPI_MIN, comm) != MPI_SUCCESS) all = 0;
  if (!all) {
    if (got) PMPI_Comm_delete_attr(comm, eng.keyval), sh = NULL; /* shadow_delete frees it: no dup yet */
    if (dup != MPI_COMM_NULL) PMPI_Comm_free(&dup);
    free(sh);
    return;
  }
  sh->dup = dup, sh->of = comm;
  pthread_mutex_lock(&eng.shlock);
  if ((sh->next = eng.shadows)) sh->next->prev = &sh->next;
  eng.shadows = sh, sh->prev = &eng.shadows;
  pthread_mutex_unlock(&eng.shlock);
}

/* The generalized request's functions (MPI-3.1 §12.2), called by MPI, maybe under its own lock:
 * they touch the schedule only. */
static int greq_query(void *extra, MPI_Status *st) {
  mg_sched *s = extra;
  PMPI_Status_set_elements(st, MPI_BYTE, 0);
  PMPI_Status_set_cancelled(st, 0);
  st->MPI_SOURCE = MPI_UNDEFINED, st->MPI_TAG = MPI_UNDEFINED;
  return s->err;
}

static int greq_free(void *extra) {
  mg_sched *s = extra;
  mg_nbc_free(s->tmp);
  free(s);
  atomic_fetch_sub(&eng.live, 1);
  return MPI_SUCCESS;
}

static int greq_cancel(void *extra, int complete) {
  (void)extra, (void)complete; /* cancelling a collective is erroneous (MPI-3.1 §3.8.4): nothing to undo */
  return MPI_SUCCESS;
}

/* One pass over the pending schedules, oldest first: test each current round, post the next one
 * where allowed; the finished ones are unlinked onto *done. Under eng.lock. 1 if anything moved. */
static int step(mg_sched **done) {
  int moved = 0;
  unsigned long pass = ++eng.pass;
  mg_sched **pp = &eng.head;
  while (*pp) {
    mg_sched *s = *pp;
    shadow *sh = s->sh;
    int flag = 1;
    if (s->q != MPI_REQUEST_NULL) {
      int rc = PMPI_Test(&s->q, &flag, MPI_STATUS_IGNORE);
      if (rc != MPI_SUCCESS && !s->err) s->err = rc, s->next = s->nround;
      if (flag) moved = 1;
    }
    /* the next round, or rounds that post nothing; the first only after every earlier schedule
     * on this shadow has posted its last */
    while (flag && s->q == MPI_REQUEST_NULL && s->next < s->nround && !s->err && (s->next > 0 || sh->gate != pass)) {
      int rc = s->post(&s->c, s->tmp, s->next, sh->dup, &s->q);
      s->next++, moved = 1;
      if (rc != MPI_SUCCESS) s->err = rc, s->next = s->nround;
    }
    if (s->q == MPI_REQUEST_NULL && (s->next >= s->nround || s->err)) {
      *pp = s->link; /* finished: to complete outside the lock */
      if (!*pp) eng.tail = pp;
      atomic_fetch_sub(&eng.pending, 1);
      s->link = *done, *done = s;
      continue;
    }
    if (s->next < s->nround) sh->gate = pass; /* later schedules on sh wait */
    pp = &s->link;
  }
  return moved;
}

/* Complete the finished schedules' requests (outside eng.lock: MPI may call greq_free inside, and
 * the caller's thread may free the schedule the moment its request completes). */
static void complete(mg_sched *done) {
  while (done) {
    mg_sched *s = done;
    done = s->link;
    shadow *sh = s->sh;
    MPI_Request g = s->greq;
    atomic_fetch_sub(&sh->users, 1);
    shadow_release(sh);
    PMPI_Grequest_complete(g); /* s may be freed from here on */
  }
}

/* The thread: a pass over the pending schedules, again at once while passes advance something;
 * when one advanced nothing it sleeps, 1 us doubling to 128 us (so that it takes no processor
 * from the program's own threads, which may be waiting in MPI on the same core), and while a
 * program thread advances the schedules in a completion call (mg_sched_drive) it leaves that to it. */
static void *progress(void *unused) {
  (void)unused;
  long idle_ns = 0;
  pthread_mutex_lock(&eng.lock);
  while (!eng.stop) {
    if (!eng.head) {
      idle_ns = 0;
      pthread_cond_wait(&eng.wake, &eng.lock);
      continue;
    }
    mg_sched *done = NULL;
    int moved = atomic_load(&eng.driving) ? 0 : step(&done);
    pthread_mutex_unlock(&eng.lock);
    complete(done);
    if (moved) {
      idle_ns = 0;
    } else {
      idle_ns = idle_ns ? (idle_ns < 128000 ? 2 * idle_ns : idle_ns) : 1000;
      struct timespec ts = {0, idle_ns};
      nanosleep(&ts, NULL);
    }
    while (atomic_load(&eng.posting)) sched_yield(); /* a mutex is not fair: the post goes first */
    pthread_mutex_lock(&eng.lock);
  }
  pthread_mutex_unlock(&eng.lock);
  return NULL;
}

/* Whether request r is a pending schedule's. Under eng.lock. */
static int pending_greq(MPI_Request r) {
  for (mg_sched *s = eng.head; s; s = s->link)
    if (s->greq == r) return 1;
  return 0;
}

void mg_sched_drive(int kind, int n, const MPI_Request *reqs) {
  if (!atomic_load(&eng.pending) || n <= 0 || !reqs) return;
  int ours0 = -1;
  atomic_fetch_add(&eng.driving, 1);
  for (;;) {
    atomic_fetch_add(&eng.posting, 1);
    pthread_mutex_lock(&eng.lock);
    atomic_fetch_sub(&eng.posting, 1);
    mg_sched *done = NULL;
    step(&done);
    int ours = 0;
    for (int i = 0; i < n; i++) ours += reqs[i] != MPI_REQUEST_NULL && pending_greq(reqs[i]);
    pthread_mutex_unlock(&eng.lock);
    complete(done);
    if (ours0 < 0) ours0 = ours;
    if (kind == MG_SCHED_TEST || ours == 0 || (kind == MG_SCHED_ANY && ours < ours0)) break;
    if (kind == MG_SCHED_ANY) { /* another request of the call complete: the call returns it */
      int other = 0;
      pthread_mutex_lock(&eng.lock);
      for (int i = 0; i < n && !other; i++) {
        int flag = 0;
        if (reqs[i] != MPI_REQUEST_NULL && !pending_greq(reqs[i]) &&
            PMPI_Request_get_status(reqs[i], &flag, MPI_STATUS_IGNORE) == MPI_SUCCESS)
          other = flag;
      }
      pthread_mutex_unlock(&eng.lock);
      if (other) break;
    }
  }
  atomic_fetch_sub(&eng.driving, 1);
}

/* The rounds one after the other, each waited for, on the caller's communicator: the benchmark's
 * way (the composition's completion time). */
static int run_inline(const mg_call *c, int nround, mg_sched_round post, void *tmp) {
  int rc = MPI_SUCCESS;
  for (int r = 0; r < nround && rc == MPI_SUCCESS; r++) {
    MPI_Request q = MPI_REQUEST_NULL;
    rc = post(c, tmp, r, c->comm, &q);
    if (rc == MPI_SUCCESS && q != MPI_REQUEST_NULL) rc = PMPI_Wait(&q, MPI_STATUS_IGNORE);
  }
  if (c->req) *c->req = MPI_REQUEST_NULL;
  return rc;
}

int mg_sched_run(const mg_call *c, int nround, mg_sched_round post, size_t tmp_bytes) {
  void *tmp = NULL;
  if (tmp_bytes && !(tmp = mg_nbc_alloc(tmp_bytes))) return MPI_ERR_NO_MEM;
  if (!mg_progress_on || !c->req || c->persistent) {
    int rc = run_inline(c, nround, post, tmp);
    mg_nbc_free(tmp);
    return rc;
  }
  mg_sched *s = calloc(1, sizeof *s);
  if (!s) return mg_nbc_free(tmp), MPI_ERR_NO_MEM;
  s->c = *c, s->c.req = NULL, s->post = post, s->nround = nround, s->tmp = tmp, s->q = MPI_REQUEST_NULL;
  atomic_fetch_add(&eng.posting, 1);
  pthread_mutex_lock(&eng.lock);
  atomic_fetch_sub(&eng.posting, 1);
  int rc = MPI_SUCCESS;
  if (!eng.started) {
    if (pthread_create(&eng.thread, NULL, progress, NULL) != 0) rc = MPI_ERR_OTHER;
    else eng.started = 1;
  }
  if (rc == MPI_SUCCESS && !(s->sh = shadow_of(c->comm))) rc = MPI_ERR_COMM; /* mg_applicable tested it */
  if (rc == MPI_SUCCESS) rc = PMPI_Grequest_start(greq_query, greq_free, greq_cancel, s, &s->greq);
  if (rc != MPI_SUCCESS) {
    pthread_mutex_unlock(&eng.lock);
    mg_nbc_free(tmp);
    free(s);
    return rc;
  }
  atomic_fetch_add(&eng.live, 1);
  atomic_fetch_add(&s->sh->users, 1);
  *c->req = s->greq;
  *eng.tail = s, eng.tail = &s->link;
  atomic_fetch_add(&eng.pending, 1);
  mg_sched *done = NULL;
  step(&done); /* the first round now, where it may be posted */
  pthread_cond_signal(&eng.wake);
  pthread_mutex_unlock(&eng.lock);
  complete(done);
  return MPI_SUCCESS;
}

void mg_sched_finalize(void) {
  pthread_mutex_lock(&eng.lock);
  int started = eng.started;
  eng.stop = 1;
  pthread_cond_signal(&eng.wake);
  pthread_mutex_unlock(&eng.lock);
  if (started) pthread_join(eng.thread, NULL);
  /* schedules still pending here are the caller's error (MPI_Finalize with active requests); the
   * shadows: deleting the attribute frees each (shadow_delete), one per turn */
  for (;;) {
    MPI_Comm of = MPI_COMM_NULL;
    pthread_mutex_lock(&eng.shlock);
    for (shadow *sh = eng.shadows; sh && of == MPI_COMM_NULL; sh = sh->next)
      if (!atomic_load(&sh->freed)) of = sh->of;
    pthread_mutex_unlock(&eng.shlock);
    if (of == MPI_COMM_NULL || PMPI_Comm_delete_attr(of, eng.keyval) != MPI_SUCCESS) break;
  }
  if (eng.keyval != MPI_KEYVAL_INVALID) PMPI_Comm_free_keyval(&eng.keyval);
  pthread_mutex_lock(&eng.lock);
  eng.started = eng.stop = 0;
  pthread_mutex_unlock(&eng.lock);
}
