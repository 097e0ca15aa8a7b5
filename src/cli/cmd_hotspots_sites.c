/*
 * Call sites named and their labels told apart (cmd_hotspots_sites.h; docs/hotspots.md, "Call
 * sites"). addr2line runs here, at analysis time, never on the application's path.
 */
#include <elf.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/cmd_hotspots_sites.h"

static void short_func(const char *f, char *out, size_t len);


static const char *base_name(const char *p) {
  const char *s = strrchr(p, '/');
  return s ? s + 1 : p;
}

/* addr2line -a -f -i -C -e obj ADDR...: per address a line with the address, then two lines
 * (function, file:line) for the site and, when the site is in an inlined function, two more for
 * each function it was inlined into, innermost first (the first of them is the caller kept). Fills
 * names[i] of the spots idx[0..k) of object obj. 0, or -1 when addr2line could not run. */
static int addr2line(const char *obj, const mg_hs_spot *spots, const int *idx, int k, mg_hs_site *names) {
  int fd[2];
  if (pipe(fd)) return -1;
  char **argv = calloc((size_t)k + 8, sizeof *argv);
  char(*addr)[24] = calloc((size_t)k, sizeof *addr);
  if (!argv || !addr) return free(argv), free(addr), close(fd[0]), close(fd[1]), -1;
  int a = 0;
  argv[a++] = "addr2line";
  argv[a++] = "-a";
  argv[a++] = "-i";
  argv[a++] = "-f";
  argv[a++] = "-C";
  argv[a++] = "-e";
  argv[a++] = (char *)obj;
  /* the return address less one: inside the call instruction, on the caller's line */
  for (int i = 0; i < k; i++) {
    unsigned long long off = spots[idx[i]].offset;
    snprintf(addr[i], sizeof addr[i], "0x%llx", off ? off - 1 : 0);
    argv[a++] = addr[i];
  }
  fflush(NULL);
  pid_t pid = fork();
  if (pid == 0) {
    dup2(fd[1], 1);
    close(fd[0]);
    close(fd[1]);
    int dn = open("/dev/null", O_WRONLY);
    if (dn >= 0) dup2(dn, 2);
    execvp(argv[0], argv);
    _exit(127);
  }
  close(fd[1]);
  int ok = pid > 0;
  FILE *in = ok ? fdopen(fd[0], "r") : NULL;
  if (!in) close(fd[0]);
  char line[4096], func[160] = "";
  int i = -1, pair = 0; /* the address's entry, and the lines of function and file read for it */
  while (in && fgets(line, sizeof line, in)) {
    if (!strchr(line, '\n')) /* a longer line: its rest is dropped, the pairs stay in step */
      for (int ch = getc(in); ch != EOF && ch != '\n'; ch = getc(in)) {
      }
    line[strcspn(line, "\n")] = '\0';
    if (line[0] == '0' && line[1] == 'x' && line[2] && strspn(line + 2, "0123456789abcdef") == strlen(line + 2)) {
      if (++i >= k) break; /* the address line of the next entry */
      pair = 0;
      continue;
    }
    if (i < 0) break; /* not what -a prints */
    mg_hs_site *n = &names[idx[i]];
    if (pair % 2 == 0) { /* a function */
      snprintf(func, sizeof func, "%.159s", strcmp(line, "??") ? line : "");
      pair++;
      continue;
    }
    char *disc = strstr(line, " (discriminator");
    if (disc) *disc = '\0';
    int known = strncmp(line, "??", 2) && !strstr(line, ":?") && !strstr(line, ":0");
    if (pair == 1) { /* the site itself */
      if (func[0]) snprintf(n->func, sizeof n->func, "%s", func);
      if (known) snprintf(n->where, sizeof n->where, "%.255s", base_name(line));
    } else if (pair == 3 && func[0]) { /* the function the site's function was inlined into */
      char f[160];
      short_func(func, f, sizeof f);
      snprintf(n->caller, sizeof n->caller, "%.159s%s%.255s", f, known ? " " : "", known ? base_name(line) : "");
    }
    pair++;
  }
  if (in) fclose(in);
  int st = 0;
  if (pid > 0) waitpid(pid, &st, 0);
  free(argv);
  free(addr);
  return ok && WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -1;
}

/* Whether the ELF object at path has a symbol table (.symtab: not stripped). 1 also when it cannot
 * be told (not a 64-bit ELF file, unreadable): then addr2line's names are taken as they come. */
static int has_symtab(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return 1;
  Elf64_Ehdr eh;
  int r = 1;
  if (fread(&eh, sizeof eh, 1, f) == 1 && !memcmp(eh.e_ident, ELFMAG, SELFMAG) && eh.e_ident[EI_CLASS] == ELFCLASS64 &&
      eh.e_shentsize == sizeof(Elf64_Shdr) && eh.e_shoff && !fseek(f, (long)eh.e_shoff, SEEK_SET)) {
    r = 0;
    Elf64_Shdr sh;
    for (int i = 0; i < eh.e_shnum && fread(&sh, sizeof sh, 1, f) == 1; i++)
      if (sh.sh_type == SHT_SYMTAB) r = 1;
  }
  fclose(f);
  return r;
}

/* Names of every spot; *missing: addr2line could not be run. In a stripped object (no .symtab,
 * as every Debian package's binaries) addr2line names the nearest dynamic symbol below an address
 * however far (CP2K's sites all came out as "cblas_dgemv", an export of cp2k.psmp): there, without
 * file:line, the trace's symbol stands, which dladdr gave only for a symbol holding the address. */
void mg_hs_resolve(const mg_hs_trace *t, mg_hs_site *names, int *missing) {
  int *idx = malloc((size_t)(t->n + 1) * sizeof *idx);
  for (int i = 0; i < t->n; i++) snprintf(names[i].func, sizeof names[i].func, "%s", t->spots[i].sym);
  for (int o = 0; idx && o < t->nobjs; o++) {
    int k = 0;
    for (int i = 0; i < t->n; i++)
      if (t->spots[i].obj == o) idx[k++] = i;
    if (!k || access(t->objs[o], R_OK) != 0) continue;
    if (addr2line(t->objs[o], t->spots, idx, k, names)) *missing = 1;
    if (!has_symtab(t->objs[o]))
      for (int i = 0; i < k; i++)
        if (!names[idx[i]].where[0])
          snprintf(names[idx[i]].func, sizeof names[idx[i]].func, "%s", t->spots[idx[i]].sym);
  }
  free(idx);
}

/* A C++ function as the table shows it (issue 33: demangled signatures of ~100 characters pushed
 * every column off the line): its name without the parameter list and what follows it (" const",
 * " [clone .cold]"): the last '(' outside template arguments and parentheses, so that
 * "(anonymous namespace)::f(int)" keeps its namespace and "S::operator()(int)" its operator; and
 * when still longer than 40 characters, every outermost template argument list as "<>". A C
 * function, or a name whose brackets do not balance, stays as it is. */
static void short_func(const char *f, char *out, size_t len) {
  int angle = 0, paren = 0;
  size_t cut = 0, n = strlen(f);
  for (size_t i = 0; i < n; i++) {
    if (!strncmp(f + i, "operator", 8) && (f[i + 8] == '<' || f[i + 8] == '>' || f[i + 8] == '(')) {
      i += f[i + 8] == '(' ? 9 : 8; /* operator<, operator>, operator(): not brackets */
      continue;
    }
    if (f[i] == '<') angle++;
    else if (f[i] == '>' && angle > 0) angle--;
    else if (f[i] == '(') {
      if (!angle && !paren) cut = i;
      paren++;
    } else if (f[i] == ')' && paren > 0) paren--;
  }
  if (angle || paren) cut = 0; /* unbalanced: not a name this understands */
  char name[160];
  snprintf(name, sizeof name, "%.*s", (int)(cut ? cut : n), f);
  if (cut && strlen(name) > 40) { /* collapse the outermost template argument lists */
    char c[160];
    size_t k = 0;
    int depth = 0;
    for (size_t i = 0; name[i] && k + 1 < sizeof c; i++) {
      if (name[i] == '<' && depth++ == 0) c[k++] = '<';
      else if (name[i] == '>' && depth > 0 && --depth == 0) c[k++] = '>';
      else if (!depth) c[k++] = name[i];
    }
    c[k] = '\0';
    snprintf(name, sizeof name, "%s", c);
  }
  snprintf(out, len, "%s", name);
}

static void site_text(const mg_hs_trace *t, const mg_hs_spot *s, const mg_hs_site *n, int wide, char *buf,
                      size_t len) {
  const char *obj = s->obj >= 0 ? base_name(t->objs[s->obj]) : "?";
  char f[160];
  if (wide) snprintf(f, sizeof f, "%s", n->func);
  else short_func(n->func, f, sizeof f);
  if (s->obj < 0 && !s->sym[0]) /* an untimed trace's spot: no site recorded */
    snprintf(buf, len, "(untimed: no site)");
  else if (n->where[0])
    snprintf(buf, len, "%.159s %.139s", f[0] ? f : "?", n->where);
  else if (f[0])
    snprintf(buf, len, "%s (%s+0x%llx)", f, obj, s->offset);
  else
    snprintf(buf, len, "%s+0x%llx", obj, s->offset);
}

void mg_hs_label_of(const mg_hs_trace *t, const mg_hs_spot *s, const mg_hs_site *n, int wide, mg_hs_label *l) {
  const char *obj = s->obj >= 0 ? t->objs[s->obj] : "?";
  snprintf(l->id, sizeof l->id, "%.290s+0x%llx", obj, s->offset);
  site_text(t, s, n, wide, l->text, sizeof l->text);
  snprintf(l->caller, sizeof l->caller, "%s", n->caller);
  snprintf(l->off, sizeof l->off, "%.170s+0x%llx", base_name(obj), s->offset);
}

void mg_hs_labels_apart(mg_hs_label *L, int n) {
  char *done = calloc((size_t)n + 1, 1);
  int *grp = malloc(((size_t)n + 1) * sizeof *grp);
  if (!done || !grp) { /* no memory: the labels stay as they are */
    free(done);
    free(grp);
    return;
  }
  for (int i = 0; i < n; i++) {
    if (done[i]) continue;
    int g = 0, ids = 0, callers = 1;
    for (int j = i; j < n; j++)
      if (!done[j] && !strcmp(L[j].text, L[i].text)) grp[g++] = j, done[j] = 1;
    for (int a = 0; a < g; a++) {
      int first = 1; /* a's id not seen among the group before it */
      for (int b = 0; b < a; b++) {
        if (!strcmp(L[grp[a]].id, L[grp[b]].id)) {
          first = 0;
          continue;
        }
        /* two sites: their callers must both be known and differ */
        if (!L[grp[a]].caller[0] || !L[grp[b]].caller[0] || !strcmp(L[grp[a]].caller, L[grp[b]].caller)) callers = 0;
      }
      ids += first;
    }
    if (ids < 2) continue;
    for (int a = 0; a < g; a++) {
      mg_hs_label *l = &L[grp[a]];
      char text[sizeof l->text];
      snprintf(text, sizeof text, "%.200s (%s%.290s)", l->text, callers ? "inlined in " : "", callers ? l->caller : l->off);
      snprintf(l->text, sizeof l->text, "%s", text);
    }
  }
  free(done);
  free(grp);
}
