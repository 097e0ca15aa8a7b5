/*
 * The progress line of the measuring commands (cmd_util.h: check, bench, verify): the fraction
 * done, the time left of this launch and of the launches after it (bench/eta.h,
 * mg_eta_launches_left), and at the end how far over its budget a measurement went.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench/eta.h"
#include "cli/cmd_util.h"

/* Seconds since this process started (Linux: /proc/self/stat's start time against CLOCK_BOOTTIME);
 * 0 when unknown. What a launch spends before its measurement: the launcher's spawn, MPI_Init, ... */
static double process_age(void) {
  FILE *f = fopen("/proc/self/stat", "r");
  char buf[1024];
  size_t n = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
  if (f) fclose(f);
  buf[n] = '\0';
  char *q = strrchr(buf, ')'); /* after the command name, which may hold spaces */
  unsigned long long start = 0;
  for (int field = 2; q && *q && field < 22; field++) q = strchr(q + 1, ' '); /* field 22: starttime */
  if (!q || sscanf(q, " %llu", &start) != 1) return 0;
  struct timespec ts;
  long hz = sysconf(_SC_CLK_TCK);
  if (hz <= 0 || clock_gettime(CLOCK_BOOTTIME, &ts) != 0) return 0;
  double age = (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec - (double)start / (double)hz;
  return age > 0 && age < 86400 ? age : 0;
}

void mg_cmd_progress_init(mg_cmd_progress *p, const char *cmd, int on, double budget) {
  memset(p, 0, sizeof *p);
  p->cmd = cmd;
  p->on = on;
  p->tty = isatty(STDERR_FILENO);
  p->budget = budget;
  p->frac_share = 1;
  p->startup = on ? process_age() : 0;
}

void mg_cmd_progress_cb(double frac, double elapsed, const char *what, void *arg) {
  mg_cmd_progress *p = arg;
  if (!p->on) return;
  double el = p->elapsed_before + elapsed;
  p->last_el = el;
  if (el < 2) return;
  if (p->printed && el - p->last_print < (p->tty ? 1.0 : 5.0)) return;
  double f = p->frac_before + frac * p->frac_share;
  p->last_print = el;
  p->printed = 1;
  char eta[128] = "?", label[32] = "", over[64] = "";
  int past;
  double left, total = mg_eta_launches_left(el, f, p->budget, p->launch, p->launches, p->startup, &left, &past);
  if (isfinite(total)) { /* cut to the budget only while some is left: launches ran 2-5x theirs (issue 49) */
    if (past) snprintf(over, sizeof over, ", over the %.0fs budget", p->budget);
    f = el / (el + left); /* the share shown agrees with the time left (cut to the budget: more done) */
    if (p->launches > p->launch)
      snprintf(eta, sizeof eta, "%.0fs (this launch %.0fs%s)", total, left, over);
    else
      snprintf(eta, sizeof eta, "%.0fs%s%s%s", left, *over ? " (" : "", *over ? over + 2 : "", *over ? ")" : "");
  }
  if (p->launches > 0) snprintf(label, sizeof label, "launch %d/%d ", p->launch, p->launches);
  fprintf(stderr, "%smpiguide %s: %s%-26s %3.0f%%  elapsed %.0fs  ETA %s%s", p->tty ? "\r" : "", p->cmd, label, what,
          100 * f, el, eta, p->tty ? "   " : "\n");
  fflush(stderr);
}

int mg_cmd_launch_of(const char *v, int *k, int *n) {
  int end = 0;
  return sscanf(v, "%d/%d%n", k, n, &end) != 2 || v[end] || *k < 1 || *k > *n ? -1 : 0;
}

void mg_cmd_progress_end(mg_cmd_progress *p) {
  if (p->printed && p->tty) fputc('\n', stderr);
  double el = p->elapsed_before > p->last_el ? p->elapsed_before : p->last_el;
  if (p->on && p->budget > 0 && el > 1.25 * p->budget)
    fprintf(stderr, "mpiguide %s: the measurement took %.0f s (and %.1f s of start-up before it), %.1fx its budget of "
                    "%.0f s: the budget bounds the repetitions, but every size still takes at least one batch per "
                    "variant (fewer sizes or collectives make it shorter)\n", p->cmd, el, p->startup, el / p->budget,
            p->budget);
}
