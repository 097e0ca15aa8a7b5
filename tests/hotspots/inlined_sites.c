/*
 * Call sites that print one label (issue 46): two calls of one inlined function (halo, its call of
 * post at one file:line, inlined into main at two lines), and two calls of post on one line of
 * main. No MPI: post prints the offset of each return address in its object (the address less the
 * object's load bias, as libmpiguide's timed trace records it, src/lib/trace.c), and
 * tests/hotspots/run_labels.sh writes a trace of them for `mpiguide hotspots` to name.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <stdint.h>
#include <stdio.h>

static volatile int calls;

__attribute__((noinline)) void post(int x) {
  void *ra = __builtin_return_address(0);
  Dl_info info;
  struct link_map *lm = NULL;
  if (dladdr1(ra, &info, (void **)&lm, RTLD_DL_LINKMAP) && lm)
    printf("0x%llx\n", (unsigned long long)((uintptr_t)ra - (uintptr_t)lm->l_addr));
  calls += x;
}

static inline __attribute__((always_inline)) void halo(int x) {
  post(x); /* SITE */
}

int main(int argc, char **argv) {
  (void)argv;
  halo(argc);     /* CALLER-A */
  halo(argc + 1); /* CALLER-B */
  post(1); post(2); /* SAME-LINE */
  return calls == 0;
}
