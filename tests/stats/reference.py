#!/usr/bin/env python3
"""Reference values for tests/stats/test_stats.c, computed independently of src/stats/.

Run:  python3 tests/stats/reference.py
Uses only the Python 3 standard library (mpmath, if installed, adds a cross-check of the
t-distribution values; nothing depends on it). Every number written into test_stats.c
that is not taken from a published source is printed by this script, under the name
of the test that uses it.

How each reference is computed, and why it is independent of the C code:
- quantiles: Hyndman & Fan (1996) type 7 written out directly; mean, variance and
  standard deviation with the `statistics` module (exact rational arithmetic inside).
- median standard error: McKean & Schrader (1984) as in Wilcox's R function msmedse
  (WRS, Rallfun): c = round((n+1)/2 - z_.995 sqrt(n/4)), se = (x_(n-c+1) - x_(c)) / (2 z_.995).
- Mann-Whitney U: counted pair by pair from the definition (a > b counts 1, a == b
  counts 1/2), not from ranks.
- exact p without ties: by brute-force enumeration of all C(m+n, m) label assignments
  for small samples, and for large ones from the generating function of U, the
  Gaussian binomial coefficient prod_{i=1..m} (1 - q^(n+i)) / (1 - q^i), in exact
  integer arithmetic (the C code uses the Mann-Whitney recurrence in floating point).
- exact p with ties: brute-force enumeration of all subsets with exact fractions.
- normal approximation: the formula of R's wilcox.test (correct = TRUE,
  alternative = "greater"), with math.erfc for the normal tail.
- t tests: statistic and Welch-Satterthwaite df from exact rational moments; the
  t upper tail by Simpson integration of the t density (GSL uses the incomplete
  beta function); critical values by bisection on that tail.
- Holm: the step-down definition applied directly.
- bootstrap: MT19937 written out from the reference algorithm (Matsumoto & Nishimura
  1998, init_genrand seeding as in GSL's gsl_rng_mt19937, seed 0 -> 4357), GSL's
  gsl_rng_uniform_int rejection rule, and the plain resampler (every value drawn, resample
  medians by sorting), which the library used until issue 31. The library now draws the same
  bootstrap distribution by bisection with binomial counts (docs/statistics.md), another
  stream: test_stats.c keeps tie.slowdown's interval (its ends do not depend on the stream)
  and quotes the other two for comparison; tests/stats/test_bootstrap.c checks the law.
"""

import itertools
import math
import statistics
from fractions import Fraction
from math import comb

try:
    import mpmath  # optional cross-check only
except ImportError:  # pragma: no cover
    mpmath = None


def show(name, value):
    if isinstance(value, float):
        print(f"{name} = {value!r}")
    else:
        print(f"{name} = {value}")


# ---------------------------------------------------------------- descriptive

def quantile7(x, p):
    s = sorted(x)
    n = len(s)
    h = (n - 1) * p
    lo = math.floor(h)
    if lo + 1 >= n:
        return s[n - 1]
    return s[lo] + (h - lo) * (s[lo + 1] - s[lo])


Z995 = statistics.NormalDist().inv_cdf(0.995)


def msmedse(x):
    y = sorted(x)
    n = len(y)
    av = math.floor((n + 1) / 2 - Z995 * math.sqrt(n / 4) + 0.5)
    if av < 1:
        av = 1
    top = n - av + 1
    return (y[top - 1] - y[av - 1]) / (2 * Z995)


# ---------------------------------------------------------------- Mann-Whitney

def u_stat(a, b):
    u = Fraction(0)
    for x in a:
        for y in b:
            if x > y:
                u += 1
            elif x == y:
                u += Fraction(1, 2)
    return u


def exact_brute(a, b):
    """P(U >= u_obs) over all assignments of the pooled values to the groups (exact)."""
    pooled = list(a) + list(b)
    m, big_n = len(a), len(a) + len(b)
    u_obs = u_stat(a, b)
    hits = total = 0
    for idx in itertools.combinations(range(big_n), m):
        s = set(idx)
        aa = [pooled[i] for i in idx]
        bb = [pooled[i] for i in range(big_n) if i not in s]
        total += 1
        if u_stat(aa, bb) >= u_obs:
            hits += 1
    return Fraction(hits, total)


def gauss_binomial_counts(m, n):
    """Coefficients of prod_{i=1..m} (1 - q^(n+i)) / (1 - q^i): counts of U = 0..mn."""
    poly = [1]
    for i in range(1, m + 1):
        # multiply by (1 - q^(n+i))
        d = n + i
        new = poly + [0] * d
        for k, c in enumerate(poly):
            new[k + d] -= c
        # divide by (1 - q^i): running sum with stride i
        for k in range(i, len(new)):
            new[k] += new[k - i]
        poly = new[: m * n + 1] if len(new) > m * n + 1 else new
    poly = poly + [0] * (m * n + 1 - len(poly))
    assert sum(poly) == comb(m + n, m)
    assert all(c >= 0 for c in poly)
    return poly


def exact_sf(m, n, u):
    """P(U >= u) without ties, as an exact fraction."""
    c = gauss_binomial_counts(m, n)
    u = math.ceil(u)
    return Fraction(sum(c[max(u, 0):]), comb(m + n, m))


def exact_crit_lower(m, n, alpha):
    """Largest c with P(U <= c) <= alpha (the entry of a published table), or None."""
    c = gauss_binomial_counts(m, n)
    tot = comb(m + n, m)
    cum = 0
    best = None
    for u, k in enumerate(c):
        cum += k
        if Fraction(cum, tot) <= alpha:
            best = u
        else:
            break
    return best


def normal_r(a, b):
    """R wilcox.test(a, b, alternative='greater', exact=FALSE, correct=TRUE)."""
    m, n = len(a), len(b)
    pooled = sorted(list(a) + list(b))
    big_n = m + n
    ties = 0
    i = 0
    while i < big_n:
        j = i
        while j < big_n and pooled[j] == pooled[i]:
            j += 1
        t = j - i
        ties += t ** 3 - t
        i = j
    u = float(u_stat(a, b))
    z = u - m * n / 2
    sigma = math.sqrt((m * n / 12) * ((m + n + 1) - ties / ((m + n) * (m + n - 1))))
    if sigma == 0:
        return u, 0.0, 1.0
    z = (z - 0.5) / sigma
    p = 0.5 * math.erfc(z / math.sqrt(2))
    return u, z, p


# ---------------------------------------------------------------- t tests

def t_density(x, df):
    lc = math.lgamma((df + 1) / 2) - math.lgamma(df / 2) - 0.5 * math.log(df * math.pi)
    return math.exp(lc - (df + 1) / 2 * math.log1p(x * x / df))


def t_sf(t, df, steps=200000):
    """P(T_df >= t) by composite Simpson integration of the density over [0, |t|]."""
    a = abs(t)
    h = a / steps
    s = t_density(0.0, df) + t_density(a, df)
    for k in range(1, steps):
        s += (4 if k % 2 else 2) * t_density(k * h, df)
    integral = s * h / 3
    return 0.5 - integral if t >= 0 else 0.5 + integral


def t_crit(alpha, df):
    lo, hi = 0.0, 50.0
    for _ in range(60):
        mid = (lo + hi) / 2
        if t_sf(mid, df, 20000) > alpha:
            lo = mid
        else:
            hi = mid
    # polish with the fine integration
    for _ in range(3):
        f = t_sf(lo, df) - alpha
        lo += f / t_density(lo, df)
    return lo


def moments(x):
    fx = [Fraction(v) for v in x]
    mean = sum(fx) / len(fx)
    if len(fx) < 2:
        return mean, Fraction(0)  # enters the pooled variance with weight n - 1 = 0
    var = sum((v - mean) ** 2 for v in fx) / (len(fx) - 1)
    return mean, var


def welch(a, b):
    ma, va = moments(a)
    mb, vb = moments(b)
    sa, sb = va / len(a), vb / len(b)
    se2 = sa + sb
    t = float(ma - mb) / math.sqrt(se2)
    df = float(se2 * se2 / (sa * sa / (len(a) - 1) + sb * sb / (len(b) - 1)))
    return t, df


def student(a, b):
    ma, va = moments(a)
    mb, vb = moments(b)
    m, n = len(a), len(b)
    sp2 = ((m - 1) * va + (n - 1) * vb) / (m + n - 2)
    t = float(ma - mb) / math.sqrt(float(sp2 * (Fraction(1, m) + Fraction(1, n))))
    return t, m + n - 2


# ---------------------------------------------------------------- Holm

def holm(p):
    k = len(p)
    order = sorted(range(k), key=lambda i: (p[i], i))
    adj = [0.0] * k
    running = 0.0
    for r, i in enumerate(order):
        running = max(running, min(1.0, (k - r) * p[i]))
        adj[i] = running
    return adj


# ---------------------------------------------------------------- MT19937 as in GSL

class MT19937:
    def __init__(self, seed):
        if seed == 0:
            seed = 4357
        self.mt = [0] * 624
        self.mt[0] = seed & 0xFFFFFFFF
        for i in range(1, 624):
            prev = self.mt[i - 1]
            self.mt[i] = (1812433253 * (prev ^ (prev >> 30)) + i) & 0xFFFFFFFF
        self.mti = 624

    def get(self):
        if self.mti >= 624:
            mt = self.mt
            for kk in range(624):
                y = (mt[kk] & 0x80000000) | (mt[(kk + 1) % 624] & 0x7FFFFFFF)
                v = mt[(kk + 397) % 624] ^ (y >> 1)
                if y & 1:
                    v ^= 0x9908B0DF
                mt[kk] = v
            self.mti = 0
        y = self.mt[self.mti]
        self.mti += 1
        y ^= y >> 11
        y ^= (y << 7) & 0x9D2C5680
        y ^= (y << 15) & 0xEFC60000
        y ^= y >> 18
        return y

    def uniform_int(self, n):
        scale = 0xFFFFFFFF // n
        while True:
            k = self.get() // scale
            if k < n:
                return k


def boot_slowdown(a, b, level, resamples, seed):
    sa, sb = sorted(a), sorted(b)
    rng = MT19937(seed)
    ratios = []
    for _ in range(resamples):
        ra = sorted(sa[rng.uniform_int(len(sa))] for _ in range(len(sa)))
        rb = sorted(sb[rng.uniform_int(len(sb))] for _ in range(len(sb)))
        ratios.append(quantile7(ra, 0.5) / quantile7(rb, 0.5))
    tail = (1 - level) / 2
    return quantile7(a, 0.5) / quantile7(b, 0.5), quantile7(ratios, tail), quantile7(ratios, 1 - tail)


# ---------------------------------------------------------------- data sets (also in test_stats.c)

# Hollander & Wolfe (1973), p. 69; the example of R's ?wilcox.test.
HW_X = [0.80, 0.83, 1.89, 1.04, 1.45, 1.38, 1.91, 1.64, 0.73, 1.46]
HW_Y = [1.15, 0.88, 0.90, 0.74, 1.21]
# Student (1908) / R datasets::sleep: extra hours of sleep, drug 1 and drug 2.
SLEEP1 = [0.7, -1.6, -0.2, -1.2, -0.1, 3.4, 3.7, 0.8, 0.0, 2.0]
SLEEP2 = [1.9, 0.8, 1.1, 0.1, -0.1, 4.4, 5.5, 1.6, 4.6, 3.4]
# Small samples with ties (timer ticks of 1 us).
TIE_A = [3e-6, 4e-6, 4e-6, 5e-6, 6e-6, 6e-6, 7e-6]
TIE_B = [1e-6, 2e-6, 3e-6, 3e-6, 4e-6, 5e-6]
# Runtimes for descriptive statistics (bimodal with an outlier).
DESC = [1.2e-5, 1.1e-5, 1.3e-5, 1.2e-5, 2.9e-5, 1.0e-5, 3.1e-5, 1.2e-5, 9.5e-5, 1.1e-5, 3.0e-5]


def boundary(m, n):
    """No ties: A odd, B even multiples of 1 us."""
    a = [(2 * (500 + 7 * i) + 1) * 1e-6 for i in range(m)]
    b = [(2 * (480 + 6 * j)) * 1e-6 for j in range(n)]
    return a, b


def unequal():
    """3 vs 5000 without ties: B a permutation of even multiples of 1 ns; A odd."""
    b = [(2 * ((j * 7919) % 5000) + 10000) * 1e-9 for j in range(5000)]
    a = [17001e-9, 19001e-9, 19801e-9]
    return a, b


def main():
    print("# descriptive (DESC)")
    show("desc.min", min(DESC))
    show("desc.max", max(DESC))
    show("desc.mean", float(statistics.mean([Fraction(v) for v in DESC])))
    show("desc.sd", statistics.stdev(DESC))
    show("desc.median", statistics.median(DESC))
    for p in (0.0, 0.1, 0.25, 0.5, 0.75, 0.9, 1.0):
        show(f"desc.q7({p})", quantile7(DESC, p))
    show("desc.se_median", msmedse(DESC))
    show("desc.rse_median", msmedse(DESC) / statistics.median(DESC))
    show("desc.rse_mean", statistics.stdev(DESC) / math.sqrt(len(DESC)) / statistics.mean(DESC))
    show("seq10.q7(0.25)", quantile7(range(1, 11), 0.25))
    show("seq10.q7(0.9)", quantile7(range(1, 11), 0.9))
    big = [float(i) for i in range(1, 101)]
    show("seq100.se_median", msmedse(big))

    print("# Mann-Whitney exact tables")
    for alpha in (Fraction(5, 100), Fraction(25, 1000)):
        for mn in ((3, 3), (4, 4), (5, 5), (6, 6), (7, 7), (8, 8), (9, 9), (10, 10), (20, 20),
                   (5, 10), (4, 12)):
            show(f"crit_lower(alpha={float(alpha)}, m={mn[0]}, n={mn[1]})",
                 exact_crit_lower(mn[0], mn[1], alpha))
    show("counts(3,3)", gauss_binomial_counts(3, 3))

    print("# Hollander-Wolfe (R ?wilcox.test example)")
    show("hw.U", u_stat(HW_X, HW_Y))
    show("hw.p_exact", float(exact_sf(len(HW_X), len(HW_Y), u_stat(HW_X, HW_Y))))
    show("hw.p_exact_brute", float(exact_brute(HW_X, HW_Y)))
    show("hw.normal(U,z,p)", normal_r(HW_X, HW_Y))

    print("# ties")
    show("tie.U", u_stat(TIE_A, TIE_B))
    show("tie.p_exact_perm", float(exact_brute(TIE_A, TIE_B)))
    show("tie.normal(U,z,p)", normal_r(TIE_A, TIE_B))
    show("tie_swapped.p_exact_perm", float(exact_brute(TIE_B, TIE_A)))

    print("# degenerate")
    show("n1.U ({5} vs {1,2,3,4})", u_stat([5], [1, 2, 3, 4]))
    show("n1.p", float(exact_brute([5], [1, 2, 3, 4])))
    show("n1.U ({2.5} vs {1,2,3,4})", u_stat([2.5], [1, 2, 3, 4]))
    show("n1.p ({2.5} vs {1,2,3,4})", float(exact_brute([2.5], [1, 2, 3, 4])))
    show("n1n1.p ({2} vs {1})", float(exact_brute([2], [1])))
    ident = [1e-6, 2e-6, 3e-6, 4e-6, 5e-6]
    show("identical.U", u_stat(ident, ident))
    show("identical.p_perm", float(exact_brute(ident, ident)))
    show("identical.normal", normal_r(ident, ident))
    show("allties_AgtB.p_perm ({2,2,2} vs {1,1,1})", float(exact_brute([2, 2, 2], [1, 1, 1])))
    show("student n1 ({5} vs {1,2,3,4}) (t, df)", student([5.0], [1.0, 2.0, 3.0, 4.0]))
    t, df = student([5.0], [1.0, 2.0, 3.0, 4.0])
    show("student n1 p", t_sf(t, df))
    show("student n1 crit(0.05, 3)", t_crit(0.05, 3))

    print("# exact/normal boundary")
    for m, n in ((49, 49), (50, 49), (49, 50)):
        a, b = boundary(m, n)
        u = u_stat(a, b)
        show(f"boundary({m},{n}).U", u)
        show(f"boundary({m},{n}).p_exact", float(exact_sf(m, n, u)))
        show(f"boundary({m},{n}).normal(U,z,p)", normal_r(a, b))

    print("# very unequal sizes 3 vs 5000")
    a, b = unequal()
    u = u_stat(a, b)
    show("unequal.U", u)
    show("unequal.normal(U,z,p)", normal_r(a, b))
    show("unequal.p_exact (for comparison)", float(exact_sf(3, 5000, u)))
    t, df = welch(a, b)
    show("unequal.welch.t", t)
    show("unequal.welch.df", df)
    show("unequal.welch.p", t_sf(t, df))
    show("unequal.welch.crit(0.05)", t_crit(0.05, df))
    show("unequal.slowdown(0.95, 200, seed 7)", boot_slowdown(a, b, 0.95, 200, 7))

    print("# t tests on the sleep data (A = drug 2, B = drug 1)")
    t, df = welch(SLEEP2, SLEEP1)
    show("sleep.welch.t", t)
    show("sleep.welch.df", df)
    show("sleep.welch.p", t_sf(t, df))
    show("sleep.welch.crit(0.05)", t_crit(0.05, df))
    t, df = student(SLEEP2, SLEEP1)
    show("sleep.student.t", t)
    show("sleep.student.df", df)
    show("sleep.student.p", t_sf(t, df))
    show("sleep.student.crit(0.05)", t_crit(0.05, df))
    if mpmath is not None:
        tw, dfw = welch(SLEEP2, SLEEP1)
        ref = 0.5 * mpmath.betainc(dfw / 2, 0.5, 0, dfw / (dfw + tw * tw), regularized=True)
        show("sleep.welch.p (mpmath cross-check)", float(ref))

    print("# Holm")
    show("holm(wikipedia)", holm([0.01, 0.04, 0.03, 0.005]))
    show("holm(cap)", holm([0.5, 0.6, 0.01]))
    show("holm(ties)", holm([0.02, 0.02, 0.04, 0.001, 0.3]))

    print("# bootstrap slowdown")
    show("mt19937(5489) 10000th", _nth(5489, 10000))
    show("mt19937(0) first", MT19937(0).get())
    show("tie.slowdown(0.95, 1000, seed 42)", boot_slowdown(TIE_A, TIE_B, 0.95, 1000, 42))
    show("hw.slowdown(0.90, 500, seed 1)", boot_slowdown(HW_X, HW_Y, 0.90, 500, 1))

    print("# the verdicts' interval (spread)")
    spread_main()


# ---------------------------------------------------------------- the verdicts' interval (spread)
# mg_stats__logspread and mg_stats_ratio_interval (docs/statistics.md, "One decision per line") on
# constructed replicate sets, with Python's own NormalDist and type 7 quantile (no GSL).

SPREAD_TAILS = (0.158655253931457, 0.10, 0.05, 0.025, 0.01, 0.005, 0.0025, 0.001)
ND = statistics.NormalDist()


def spread_set(name):
    """The replicate ratios of test_stats.c's ratio_interval group, sorted."""
    y = []
    if name == "skew":  # 90 % near 3x, 10 % at 30x: a tail away from 1
        y = [math.log(3) + 0.05 * ND.inv_cdf((i + 0.5) / 900) for i in range(900)] + [math.log(30)] * 100
    elif name == "towards1":  # 3 % at 0.95x: a tail across 1
        y = [math.log(0.95)] * 30 + [math.log(3) + 0.05 * ND.inv_cdf((i + 0.5) / 970) for i in range(970)]
    return sorted(math.exp(v) for v in y)


def logspread(r):
    n = len(r)
    logs = [math.log(v) for v in r]
    lse = statistics.stdev(logs)
    m = math.log(quantile7(r, 0.5))
    down = up = -1.0
    for t in SPREAD_TAILS:
        if t * n < 10:
            continue
        z = ND.inv_cdf(1 - t)
        down = max(down, (m - math.log(quantile7(r, t))) / z)
        up = max(up, (math.log(quantile7(r, 1 - t)) - m) / z)
    return dict(down=down, up=up, min=min(logs), max=max(logs), reach=1 / n, lse=lse)


def ratio_interval(ratio, sp, tail):
    x, z = math.log(ratio), ND.inv_cdf(1 - tail)
    lo, hi = math.exp(x - z * sp["down"]), math.exp(x + z * sp["up"])
    p = 0.5 * math.erfc(x / sp["down"] / math.sqrt(2))  # the upper tail without cancellation
    if tail < sp["reach"]:
        lo, hi = min(lo, math.exp(sp["min"])), max(hi, math.exp(sp["max"]))
    if sp["min"] <= 0:
        p = max(p, sp["reach"])
    return lo, hi, p


def spread_main():
    fam = 0.05 / (318 * 12)  # check --quick's family at 12 looks
    for name, ratio in (("skew", 3.0), ("towards1", 3.0)):
        r = spread_set(name)
        sp = logspread(r)
        for k in ("lse", "down", "up", "min", "max"):
            show(f"spread.{name}.{k}", sp[k])
        for tail in (0.025, fam):
            show(f"spread.{name}.interval({tail:.6g})", ratio_interval(ratio, sp, tail))
        sym = dict(sp, down=sp["lse"], up=sp["lse"], min=-math.inf, max=math.inf, reach=0)
        show(f"spread.{name}.symmetric({fam:.6g})", ratio_interval(ratio, sym, fam))
    sym = dict(down=0.1, up=0.1, min=-math.inf, max=math.inf, reach=0)
    show("spread.normal(2, 0.1).interval(0.025)", ratio_interval(2.0, sym, 0.025))
    show("spread.normal(0.8, 0.1).interval(0.01)", ratio_interval(0.8, sym, 0.01))


def _nth(seed, k):
    g = MT19937(seed)
    v = None
    for _ in range(k):
        v = g.get()
    return v


if __name__ == "__main__":
    main()
