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
 *   not see made (MPI_Comm_idup's, MPI_COMM_SELF, one made through PMPI_) has no shadow, and its
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
#include "algs/p2p_sched.h" /* mg_p2p_waitall */

int mg_progress_on;

typedef struct shadow {
  MPI_Comm lane[MG_SCHED_LANES]; /* the shadow: round r of every schedule on lane r */
  MPI_Comm of;          /* the caller's communicator */
  atomic_int users;     /* schedules on it not yet finished */
  atomic_int freed;     /* the caller's communicator is freed */
  atomic_int gone;      /* the shadow is freed (once, by whoever sees both conditions first) */
  unsigned long gate[MG_SCHED_LANES]; /* the pass in which an earlier schedule had round r to post */
  struct shadow *next, **prev; /* the list of live shadows (finalize frees them), under shlock */
} shadow;

typedef struct mg_sched {
  mg_call c;            /* the call (its buffers the caller's; c.req not used; derived datatypes dup'd) */
  mg_sched_round post;  /* posts round r on comm */
  int nround, next;     /* rounds; the next to post */
  int nq;               /* the current round's requests, in q (room for the qcap of mg_sched_run) */
  MPI_Request *q;
  MPI_Datatype made;    /* the receive datatype dup'd for the later rounds (MPI_DATATYPE_NULL: none) */
  void *tmp;            /* the row's intermediate data (mg_nbc_alloc), or NULL */
  int err;              /* the first error, returned by the request */
  shadow *sh;
  MPI_Request greq;     /* the caller's request: generalized, or a persistent one's receive (below) */
  struct mg_sched *link;
  /* a persistent request's template (MPI_<Coll>_init): started by MPI_Start, again and again */
  int persistent, active, freed, tag, token;
  struct mg_sched *tlink; /* the list of templates */
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
  mg_sched *templates;  /* the persistent requests' templates, under the lock */
  atomic_int ntemplates;
  MPI_Comm self;        /* a duplicate of MPI_COMM_SELF: the persistent requests' completion tokens */
  int next_tag;
} eng = {.lock = PTHREAD_MUTEX_INITIALIZER, .wake = PTHREAD_COND_INITIALIZER, .tail = &eng.head,
         .keyval = MPI_KEYVAL_INVALID, .shlock = PTHREAD_MUTEX_INITIALIZER, .self = MPI_COMM_NULL};

long mg_sched_live(void) { return atomic_load(&eng.live); }

/* Free the shadow once both its communicator is freed and no schedule uses it, by whoever of the
 * two sees that first (the attribute's delete function or the thread's last completion). */
static void shadow_release(shadow *sh) {
  if (atomic_load(&sh->users) != 0 || !atomic_load(&sh->freed)) return;
  if (atomic_exchange(&sh->gone, 1)) return;
  for (int l = 0; l < MG_SCHED_LANES; l++)
    if (sh->lane[l] != MPI_COMM_NULL) PMPI_Comm_free(&sh->lane[l]);
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
  MPI_Comm lane[MG_SCHED_LANES];
  for (int l = 0; l < MG_SCHED_LANES; l++) lane[l] = MPI_COMM_NULL;
  if (sh)
    for (int l = 0; l < MG_SCHED_LANES; l++) sh->lane[l] = MPI_COMM_NULL;
  sh ? (void)(sh->of = MPI_COMM_NULL) : (void)0;
  int got = PMPI_Comm_group(comm, &g) == MPI_SUCCESS;
  for (int l = 0; l < MG_SCHED_LANES; l++) /* lane 0 made from comm, the others duplicate it */
    got &= (l ? PMPI_Comm_dup(lane[0], &lane[l]) : PMPI_Comm_create(comm, g, &lane[0])) == MPI_SUCCESS &&
           lane[l] != MPI_COMM_NULL;
  if (g != MPI_GROUP_EMPTY) PMPI_Group_free(&g);
  got &= sh && PMPI_Comm_set_attr(comm, eng.keyval, sh) == MPI_SUCCESS;
  int all = 0;
  if (PMPI_Allreduce(&got, &all, 1, MPI_INT, MPI_MIN, comm) != MPI_SUCCESS) all = 0;
  if (!all) {
    if (got) PMPI_Comm_delete_attr(comm, eng.keyval), sh = NULL; /* shadow_delete frees it: no lanes yet */
    for (int l = 0; l < MG_SCHED_LANES; l++)
      if (lane[l] != MPI_COMM_NULL) PMPI_Comm_free(&lane[l]);
    free(sh);
    return;
  }
  memcpy(sh->lane, lane, sizeof lane);
  sh->of = comm;
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

/* A round's requests tested one by one (complete ones become MPI_REQUEST_NULL), as MPI_Testall
 * without a status array (GCC 12 flags MPICH's MPI_STATUSES_IGNORE, a pointer of value 1, as an
 * overflow); waited for by p2p_sched.h's mg_p2p_waitall. *all: every one complete. An MPI code. */
static int test_all(int n, MPI_Request *q, int *all) {
  int rc = MPI_SUCCESS;
  *all = 1;
  for (int i = 0; i < n && rc == MPI_SUCCESS; i++) {
    int f = 1;
    if (q[i] != MPI_REQUEST_NULL) rc = PMPI_Test(&q[i], &f, MPI_STATUS_IGNORE);
    *all &= f;
  }
  return rc;
}

/* Post round s->next of s on its lane (s->q, s->nq). Under eng.lock. */
static void post_round(mg_sched *s) {
  s->nq = 0;
  int rc = s->post(&s->c, s->tmp, s->next, s->sh->lane[s->next], s->q, &s->nq);
  s->next++;
  if (rc != MPI_SUCCESS) s->err = rc, s->next = s->nround, s->nq = 0; /* a failed post made no request */
}

/* One pass over the pending schedules, oldest first: test each current round, post the next one
 * where allowed (round r of a schedule only once every earlier schedule on its shadow has posted
 * its round r, so every rank posts lane r's collectives in one order); the finished ones are
 * unlinked onto *done. Under eng.lock. 1 if anything moved. */
static int step(mg_sched **done) {
  int moved = 0;
  unsigned long pass = ++eng.pass;
  mg_sched **pp = &eng.head;
  while (*pp) {
    mg_sched *s = *pp;
    shadow *sh = s->sh;
    int flag = 1;
    if (s->nq > 0) {
      int rc = test_all(s->nq, s->q, &flag);
      if (rc != MPI_SUCCESS && !s->err) s->err = rc, s->next = s->nround, flag = 1; /* the requests freed */
      if (flag) s->nq = 0, moved = 1;
    }
    while (flag && s->nq == 0 && s->next < s->nround && !s->err && sh->gate[s->next] != pass)
      post_round(s), moved = 1;
    if (s->nq == 0 && (s->next >= s->nround || s->err)) {
      *pp = s->link; /* finished: to complete outside the lock */
      if (!*pp) eng.tail = pp;
      atomic_fetch_sub(&eng.pending, 1);
      s->link = *done, *done = s;
      continue;
    }
    for (int r = s->next; r < s->nround; r++) sh->gate[r] = pass; /* later schedules' round r waits */
    pp = &s->link;
  }
  return moved;
}

/* Complete the finished schedules' requests (outside eng.lock: MPI may call greq_free inside, and
 * the caller's thread may free the schedule the moment its request completes). */
static void template_free(mg_sched *s);

static void complete(mg_sched *done) {
  while (done) {
    mg_sched *s = done;
    done = s->link;
    if (s->persistent) { /* inactive again (before the token: the caller may start it at once), then the token */
      pthread_mutex_lock(&eng.lock);
      s->active = 0;
      int tag = s->tag, freed = s->freed, token = s->err; /* not from s->token, the receive's buffer */
      pthread_mutex_unlock(&eng.lock);
      PMPI_Send(&token, 1, MPI_INT, 0, tag, eng.self); /* to its own receive: eager, at once */
      if (freed) template_free(s);
      continue;
    }
    shadow *sh = s->sh;
    MPI_Request g = s->greq;
    if (s->made != MPI_DATATYPE_NULL) PMPI_Type_free(&s->made);
    atomic_fetch_sub(&sh->users, 1);
    shadow_release(sh);
    PMPI_Grequest_complete(g); /* s may be freed from here on */
  }
}

/* A template's end (MPI_Request_free, at once or after its last run): unlinked, its datatype and
 * memory freed, its shadow released. */
static void template_free(mg_sched *s) {
  pthread_mutex_lock(&eng.lock);
  for (mg_sched **pp = &eng.templates; *pp; pp = &(*pp)->tlink)
    if (*pp == s) {
      *pp = s->tlink;
      atomic_fetch_sub(&eng.ntemplates, 1);
      break;
    }
  pthread_mutex_unlock(&eng.lock);
  if (s->made != MPI_DATATYPE_NULL) PMPI_Type_free(&s->made);
  atomic_fetch_sub(&s->sh->users, 1);
  shadow_release(s->sh);
  mg_nbc_free(s->tmp);
  free(s);
  atomic_fetch_sub(&eng.live, 1);
}

void mg_sched_started(int n, const MPI_Request *reqs) {
  if (!atomic_load(&eng.ntemplates) || n <= 0 || !reqs) return;
  int any = 0;
  atomic_fetch_add(&eng.posting, 1);
  pthread_mutex_lock(&eng.lock);
  atomic_fetch_sub(&eng.posting, 1);
  for (int i = 0; i < n; i++) /* in the caller's order: round 0 of each, on lane 0 */
    for (mg_sched *s = eng.templates; s; s = s->tlink)
      if (s->greq == reqs[i] && !s->active && !s->freed) {
        s->active = 1, s->next = 0, s->nq = 0, s->err = 0, s->link = NULL;
        post_round(s);
        *eng.tail = s, eng.tail = &s->link;
        atomic_fetch_add(&eng.pending, 1);
        any = 1;
        break;
      }
  if (any) pthread_cond_signal(&eng.wake);
  pthread_mutex_unlock(&eng.lock);
}

void mg_sched_freeing(int n, const MPI_Request *reqs) {
  if (!atomic_load(&eng.ntemplates) || n <= 0 || !reqs) return;
  for (int i = 0; i < n; i++) {
    mg_sched *found = NULL;
    pthread_mutex_lock(&eng.lock);
    for (mg_sched *s = eng.templates; s && !found; s = s->tlink)
      if (s->greq == reqs[i] && !s->freed) found = s;
    int now = found && !found->active; /* an active one: freed after its run (complete) */
    if (found) found->freed = 1;
    pthread_mutex_unlock(&eng.lock);
    if (now) template_free(found);
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
static int run_inline(const mg_call *c, int nround, mg_sched_round post, void *tmp, MPI_Request *q) {
  int rc = MPI_SUCCESS;
  for (int r = 0; r < nround && rc == MPI_SUCCESS; r++) {
    int nq = 0;
    rc = post(c, tmp, r, c->comm, q, &nq);
    if (rc == MPI_SUCCESS && nq > 0) rc = mg_p2p_waitall(nq, q, MPI_SUCCESS);
  }
  if (c->req) *c->req = MPI_REQUEST_NULL;
  return rc;
}

/* A derived datatype the later rounds name (the receive side's: the rows' second rounds are
 * broadcasts and scatters of the result), duplicated: the caller may free its own once the
 * operation is posted (MPI-3.1 §4.1.9), before those rounds are. */
static int keep_type(MPI_Datatype *t, MPI_Datatype *made) {
  int ni, na, nd, comb;
  if (*t == MPI_DATATYPE_NULL || PMPI_Type_get_envelope(*t, &ni, &na, &nd, &comb) != MPI_SUCCESS ||
      comb == MPI_COMBINER_NAMED)
    return MPI_SUCCESS;
  int rc = PMPI_Type_dup(*t, made);
  if (rc == MPI_SUCCESS) *t = *made;
  return rc;
}

int mg_sched_run(const mg_call *c, int nround, mg_sched_round post, size_t tmp_bytes, int qcap) {
  if (nround < 1 || nround > MG_SCHED_LANES || qcap < 1) return MPI_ERR_INTERN;
  void *tmp = NULL;
  if (tmp_bytes && !(tmp = mg_nbc_alloc(tmp_bytes))) return MPI_ERR_NO_MEM;
  if (!mg_progress_on || !c->req) {
    MPI_Request small[4], *q = qcap <= 4 ? small : malloc((size_t)qcap * sizeof *q);
    int rc = q ? run_inline(c, nround, post, tmp, q) : MPI_ERR_NO_MEM;
    if (q != small) free(q);
    mg_nbc_free(tmp);
    return rc;
  }
  mg_sched *s = calloc(1, sizeof *s + (size_t)qcap * sizeof(MPI_Request));
  if (!s) return mg_nbc_free(tmp), MPI_ERR_NO_MEM;
  s->c = *c, s->c.req = NULL, s->post = post, s->nround = nround, s->tmp = tmp;
  s->q = (MPI_Request *)(s + 1), s->made = MPI_DATATYPE_NULL;
  int rc = nround > 1 ? keep_type(&s->c.rtype, &s->made) : MPI_SUCCESS;
  atomic_fetch_add(&eng.posting, 1);
  pthread_mutex_lock(&eng.lock);
  atomic_fetch_sub(&eng.posting, 1);
  if (rc == MPI_SUCCESS && !eng.started) {
    if (pthread_create(&eng.thread, NULL, progress, NULL) != 0) rc = MPI_ERR_OTHER;
    else eng.started = 1;
  }
  if (rc == MPI_SUCCESS && !(s->sh = shadow_of(c->comm))) rc = MPI_ERR_COMM; /* mg_applicable tested it */
  if (rc == MPI_SUCCESS && c->persistent) { /* a template: the caller's request a persistent receive */
    if (eng.self == MPI_COMM_NULL) rc = PMPI_Comm_dup(MPI_COMM_SELF, &eng.self); /* local: one process */
    s->persistent = 1, s->tag = eng.next_tag, eng.next_tag = (eng.next_tag + 1) % 32768; /* MPI_TAG_UB >= 32767 */
    if (rc == MPI_SUCCESS) rc = PMPI_Recv_init(&s->token, 1, MPI_INT, 0, s->tag, eng.self, &s->greq);
    if (rc == MPI_SUCCESS) {
      s->tlink = eng.templates, eng.templates = s;
      atomic_fetch_add(&eng.ntemplates, 1);
      atomic_fetch_add(&eng.live, 1);
      atomic_fetch_add(&s->sh->users, 1); /* held until MPI_Request_free */
      *c->req = s->greq;
      pthread_mutex_unlock(&eng.lock);
      return MPI_SUCCESS;
    }
  }
  if (rc == MPI_SUCCESS) post_round(s), rc = s->err; /* round 0 now, with the caller's arguments as given */
  if (rc == MPI_SUCCESS) rc = PMPI_Grequest_start(greq_query, greq_free, greq_cancel, s, &s->greq);
  if (rc != MPI_SUCCESS) {
    pthread_mutex_unlock(&eng.lock);
    if (s->nq > 0) mg_p2p_waitall(s->nq, s->q, MPI_SUCCESS); /* round 0 posted, the request not made */
    if (s->made != MPI_DATATYPE_NULL) PMPI_Type_free(&s->made);
    mg_nbc_free(tmp);
    free(s);
    return rc;
  }
  atomic_fetch_add(&eng.live, 1);
  atomic_fetch_add(&s->sh->users, 1);
  *c->req = s->greq;
  *eng.tail = s, eng.tail = &s->link;
  atomic_fetch_add(&eng.pending, 1);
  pthread_cond_signal(&eng.wake);
  pthread_mutex_unlock(&eng.lock);
  return MPI_SUCCESS;
}

void mg_sched_finalize(void) {
  pthread_mutex_lock(&eng.lock);
  int started = eng.started;
  eng.stop = 1;
  pthread_cond_signal(&eng.wake);
  pthread_mutex_unlock(&eng.lock);
  if (started) pthread_join(eng.thread, NULL);
  while (eng.templates) { /* never freed by the caller: the requests' memory (MPI frees the receives) */
    mg_sched *s = eng.templates;
    if (s->active) { /* MPI_Finalize with an active request: the caller's error; unlinked, not run */
      eng.templates = s->tlink;
      atomic_fetch_sub(&eng.ntemplates, 1);
      continue;
    }
    template_free(s);
  }
  if (eng.self != MPI_COMM_NULL) PMPI_Comm_free(&eng.self);
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
