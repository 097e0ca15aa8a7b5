/*
 * An allocation counter to preload beside libmpiguide (LD_PRELOAD=".../libmgmalloccount.so
 * .../libmpiguide.so"): it counts every malloc, calloc, realloc, memalign, posix_memalign,
 * aligned_alloc and valloc of the process and passes them to glibc's own (__libc_*). The
 * overhead benchmark (overhead.c) finds mg_malloc_calls() with dlsym and prints how many
 * allocations its timed loop made: with and without libmpiguide, the difference is the library's
 * ("nothing allocates on the path" of a point-to-point call, issue 18). glibc only; not thread-safe
 * counting (relaxed atomics: a count, not a fence).
 */
#include <stdatomic.h>
#include <stddef.h>

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);
extern void *__libc_valloc(size_t);

static atomic_size_t calls;
#define COUNT() atomic_fetch_add_explicit(&calls, 1, memory_order_relaxed)
#define EXPORT __attribute__((visibility("default")))

EXPORT size_t mg_malloc_calls(void) { return atomic_load_explicit(&calls, memory_order_relaxed); }

EXPORT void *malloc(size_t n) { return COUNT(), __libc_malloc(n); }
EXPORT void *calloc(size_t k, size_t n) { return COUNT(), __libc_calloc(k, n); }
EXPORT void *realloc(void *p, size_t n) { return COUNT(), __libc_realloc(p, n); }
EXPORT void *memalign(size_t a, size_t n) { return COUNT(), __libc_memalign(a, n); }
EXPORT void *aligned_alloc(size_t a, size_t n) { return COUNT(), __libc_memalign(a, n); }
EXPORT void *valloc(size_t n) { return COUNT(), __libc_valloc(n); }
EXPORT int posix_memalign(void **out, size_t a, size_t n) {
  COUNT();
  void *p = __libc_memalign(a, n);
  if (!p) return 12; /* ENOMEM */
  *out = p;
  return 0;
}
