/*
 * Unit tests of the library-variant parsers (src/bench/libvar_mpit.c), no MPI launch:
 *   parse_ompi_info FILE     ompi_info --parsable output recorded on this machine (Open MPI 4.1.4)
 *   parse_ompi_human FILE    the same in ompi_info's human format
 *   parse_mpich FILE         MPICH 4.0.2's MPIR_CVAR_<COLL>_INTRA_ALGORITHM lines as `mpivars`
 *                            prints them, descriptions glued by MPI_T (the ch4 POSIX ones, which
 *                            discovery never reads, left out of the file)
 *   select FILE              --lib-variants specs against the parsed catalogue: the chosen masks,
 *                            and the messages of bad names
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/libvar_mpit.h"
#include "common/test.h"

static char *slurp(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *b = malloc((size_t)n + 1);
  if (b && fread(b, 1, (size_t)n, f) != (size_t)n) n = 0;
  if (b) b[n] = '\0';
  fclose(f);
  return b;
}

/* The names of coll's variants, space-separated. */
static const char *names(const mg_lv_lib *lib, mg_coll c) {
  static char buf[1024];
  size_t u = 0;
  buf[0] = '\0';
  for (int k = 0; k < lib->n[c]; k++) u += (size_t)snprintf(buf + u, sizeof buf - u, "%s%s", k ? " " : "", lib->algs[c][k].name);
  return buf;
}

static void check_ompi(const mg_lv_lib *lib) {
  ASSERT_EQ(lib->kind, MG_LV_OMPI);
  /* the library's own decision (0 "ignore") is the default, never a variant */
  ASSERT_STR_EQ(names(lib, MG_ALLREDUCE), "basic_linear nonoverlapping recursive_doubling ring segmented_ring rabenseifner");
  ASSERT_EQ(lib->algs[MG_ALLREDUCE][3].value, 4); /* ring */
  ASSERT_STR_EQ(names(lib, MG_REDUCE), "linear chain pipeline binary binomial in-order_binary rabenseifner");
  ASSERT_EQ(lib->n[MG_BCAST], 9);
  ASSERT_STR_EQ(lib->algs[MG_BCAST][8].name, "scatter_allgather_ring");
  ASSERT_EQ(lib->algs[MG_BCAST][8].value, 9);
  ASSERT_TRUE(lib->n[MG_BARRIER] > 0 && lib->n[MG_ALLTOALL] > 0 && lib->n[MG_SCATTER] > 0);
  ASSERT_EQ(lib->n[MG_ALLGATHERV] > 0, 1);
  ASSERT_EQ(lib->n[MG_SEND], 0); /* point-to-point: none */
}

static int parse_mpich(const char *text) {
  mg_lv_alg a[MG_LV_MAX + 1];
  int lines = 0;
  for (const char *l = text; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
    const char *nm = l;
    while (*nm == '\t' || *nm == ' ') nm++;
    if (!*nm || *nm == '\n') continue;
    const char *eol = strchr(nm, '\n'), *tab = nm;
    char line[8192];
    snprintf(line, sizeof line, "%.*s", (int)(eol ? eol - nm : (long)strlen(nm)), nm);
    char *desc = strrchr(line, '\t');
    ASSERT_TRUE(desc != NULL);
    (void)tab;
    int n = mg_lv_parse_mpich_desc(desc + 1, a, MG_LV_MAX + 1);
    lines++;
    ASSERT_MSG(n >= 2, "%.60s: %d values", line, n);
    ASSERT_STR_EQ(a[0].name, "auto");
    for (int k = 0; k < n; k++) {
      ASSERT_EQ(a[k].value, k);
      ASSERT_MSG(strncmp(a[k].name, "algorithm", 9) && strspn(a[k].name, "abcdefghijklmnopqrstuvwxyz0123456789_") ==
                                                           strlen(a[k].name),
                 "%.40s: bad name '%s'", line, a[k].name);
    }
    if (!strncmp(line, "MPIR_CVAR_ALLREDUCE_INTRA_ALGORITHM=", 36)) {
      ASSERT_EQ(n, 5);
      ASSERT_STR_EQ(a[2].name, "smp"); /* glued to "...nonblocking algorithm" */
      ASSERT_STR_EQ(a[4].name, "reduce_scatter_allgather");
    }
    if (!strncmp(line, "MPIR_CVAR_BCAST_INTRA_ALGORITHM=", 32)) {
      ASSERT_EQ(n, 6);
      ASSERT_STR_EQ(a[2].name, "nb"); /* glued to "Force Binomial Tree" */
      ASSERT_STR_EQ(a[4].name, "scatter_recursive_doubling_allgather");
      ASSERT_STR_EQ(a[5].name, "scatter_ring_allgather");
    }
  }
  return lines;
}

int main(int argc, char **argv) {
  if (argc < 3) return fprintf(stderr, "usage: mg_test_libvar CASE FILE\n"), 2;
  char *text = slurp(argv[2]), err[2048];
  ASSERT_TRUE(text != NULL);
  mg_lv_lib lib;
  if (!strcmp(argv[1], "parse_ompi_info") || !strcmp(argv[1], "parse_ompi_human")) {
    TEST_CASE(argv[1]);
    ASSERT_EQ(mg_lv_parse_ompi_info(text, &lib, err, sizeof err), 0);
    check_ompi(&lib);
    ASSERT_EQ(mg_lv_parse_ompi_info("nothing here\n", &lib, err, sizeof err), -1);
    ASSERT_CONTAINS(err, "ompi_info --param coll tuned --level 9");
  } else if (!strcmp(argv[1], "parse_mpich")) {
    TEST_CASE("parse_mpich");
    ASSERT_TRUE(parse_mpich(text) >= 15);
  } else if (!strcmp(argv[1], "select")) {
    TEST_CASE("select");
    ASSERT_EQ(mg_lv_parse_ompi_info(text, &lib, err, sizeof err), 0);
    lib.dynamic_rules = 1;
    mg_lv_set set;
    mg_coll colls[] = {MG_ALLREDUCE, MG_BCAST};
    ASSERT_EQ(mg_lv_select(&lib, "all", colls, 2, &set, err, sizeof err), 0);
    ASSERT_EQ_U(set.mask[MG_ALLREDUCE], (1u << 6) - 1);
    ASSERT_EQ_U(set.mask[MG_REDUCE], 0u); /* not measured: not chosen */
    ASSERT_EQ(mg_lv_select(&lib, "allreduce=ring,lib:recursive_doubling;bcast=all", colls, 2, &set, err, sizeof err), 0);
    ASSERT_EQ_U(set.mask[MG_ALLREDUCE], (1u << 3) | (1u << 2));
    ASSERT_EQ_U(set.mask[MG_BCAST], (1u << 9) - 1);
    char d[512];
    mg_lv_describe(&set, d, sizeof d);
    ASSERT_CONTAINS(d, "allreduce=recursive_doubling,ring;bcast=basic_linear,");
    mg_lv_describe_values(&set, d, sizeof d);
    ASSERT_EQ(mg_lv_value_in(d, "allreduce", "lib:ring"), 4);
    ASSERT_EQ(mg_lv_value_in(d, "bcast", "binomial"), 6);
    ASSERT_EQ(mg_lv_value_in(d, "allreduce", "binomial"), -1);
    /* bad names: what is wrong, and the valid ones */
    ASSERT_EQ(mg_lv_select(&lib, "allreduce=bogus", colls, 2, &set, err, sizeof err), -1);
    ASSERT_CONTAINS(err, "no variant 'bogus'");
    ASSERT_CONTAINS(err, "valid: basic_linear, nonoverlapping, recursive_doubling, ring, segmented_ring, rabenseifner, or all");
    ASSERT_EQ(mg_lv_select(&lib, "reduce=binomial", colls, 2, &set, err, sizeof err), -1);
    ASSERT_CONTAINS(err, "reduce is not among the collectives measured");
    ASSERT_EQ(mg_lv_select(&lib, "allreduc=ring", colls, 2, &set, err, sizeof err), -1);
    ASSERT_CONTAINS(err, "unknown collective 'allreduc'");
    ASSERT_EQ(mg_lv_select(&lib, "ring", colls, 2, &set, err, sizeof err), -1);
    ASSERT_CONTAINS(err, "is not COLLECTIVE=NAME");
    lib.dynamic_rules = 0; /* coll/tuned would ignore every forced value */
    ASSERT_EQ(mg_lv_select(&lib, "all", colls, 2, &set, err, sizeof err), -1);
    ASSERT_CONTAINS(err, "coll_tuned_use_dynamic_rules=1");
    lib.kind = MG_LV_NONE;
    ASSERT_EQ(mg_lv_select(&lib, "all", colls, 2, &set, err, sizeof err), -1);
    ASSERT_CONTAINS(err, "exposes no collective algorithm variable");
  } else {
    return fprintf(stderr, "unknown case %s\n", argv[1]), 2;
  }
  free(text);
  return mg_test_summary("mg_test_libvar");
}
