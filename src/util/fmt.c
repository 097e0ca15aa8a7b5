/* Byte counts and durations for people (see fmt.h). */
#include <math.h>
#include <stdio.h>

#include "util/fmt.h"

const char *mg_fmt_bytes(size_t n, mg_bytes_style style, char *buf, size_t len) {
  if (style == MG_BYTES_IEC) {
    static const char *const unit[] = {"B", "KiB", "MiB", "GiB"};
    double v = (double)n;
    int u = 0;
    while (v >= 1024 && u < 3) v /= 1024, u++;
    snprintf(buf, len, v == floor(v) ? "%.0f %s" : "%.3g %s", v, unit[u]);
    return buf;
  }
  static const char units[] = "KMG";
  int u = -1;
  while (u < 2 && n >= 1024 && n % 1024 == 0) {
    n /= 1024;
    u++;
  }
  if (u < 0)
    snprintf(buf, len, "%zu", n);
  else
    snprintf(buf, len, "%zu%c", n, units[u]);
  return buf;
}

const char *mg_fmt_seconds(double sec, char *buf, size_t len) {
  double a = fabs(sec);
  if (!isfinite(sec)) snprintf(buf, len, "-");
  else if (a < 1e-6) snprintf(buf, len, "%.3f µs", sec * 1e6); /* %.4g would print 2.5e-02 */
  else if (a < 1e-3 && fabs(sec * 1e6) < 999.95) snprintf(buf, len, "%.4g µs", sec * 1e6);
  else if (a < 1 && fabs(sec * 1e3) < 999.95) snprintf(buf, len, "%.4g ms", sec * 1e3);
  else if (a < 9999.5) snprintf(buf, len, "%.4g s", sec);
  else snprintf(buf, len, "%.0f s", sec);
  return buf;
}
