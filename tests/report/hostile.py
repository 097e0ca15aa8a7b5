#!/usr/bin/env python3
"""Hostile data through the real commands (docs/report.md, "Every value is escaped"): the page a
shared report is must never carry markup from the files it was made of.

  hostile.py MPIGUIDE REPORT_DATA_DIR WORK_DIR

Writes, under WORK_DIR, check raw files whose algorithm names, datatype column and #@ lines carry
markup (an algorithm `allreduce_as_x"><svg onload=alert(2)>`, a library variant likewise, a
datatype `</title><script>alert(1)</script>`, names with a `'`), a verify.csv and an overlap file
likewise (`#@nprocs=<script>...`, a collective named with markup), and runs

  check --from A -o OUT -q          (the page every check writes)
  report A B                        (two configurations: the campaign's sections)
  report A VERIFY, report VERIFY    (default vs tuned)
  report --overlap OVERLAP

Each page is parsed (html.parser): no <script> element, no on...= attribute anywhere, no raw
payload in the text, and the payloads' escaped forms where they were written. A reader that
refuses a hostile file (exit 2, file:line) passes for that file; the writer is tested on its own
by `mg_test_report ... html`.
"""
import html.parser
import os
import random
import re
import shutil
import subprocess
import sys

ALG = 'allreduce_as_x"><svg onload=alert(2)>'
LIB = 'lib:v"><svg onload=alert(3)>'
BALG = 'bcast_as_split2"><svg onload=alert(4)>'
QUOTE = "allreduce_as_q'uote"
DT = "</title><script>alert(1)</script>"
META = {
    "mpi_library_name": "</title><script>alert(11)</script>",
    "mpi_library_version": "v1.0 '\"><script>alert(12)</script>",
    "hostname": "<script>alert(13)</script>",
    "cpu_model": "<svg onload=alert(14)>",
    "launcher": "x\" onmouseover=\"alert(15)",
    "date": "<script>alert(16)</script>",
    "timer": "t' onfocus='alert(17)",
    "budget_hit": "<script>alert(18)</script>",
}


def csv_field(s):
    return '"' + s.replace('"', '""') + '"' if any(c in s for c in ',"\n') else s


def raw_csv(path, name, reduce_bcast_us):
    """A check raw file of 4 ranks: allreduce (the hostile pair and MPI_DOUBLE:MPI_SUM) and bcast at
    two sizes, the hostile names among the mock-ups; fixed pseudo-random runtimes (seed 7)."""
    rng = random.Random(7)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    rows = []
    lines = ["#@format=mpiguide-bench-raw/2", "#@nprocs=4", "#@nnodes=1", "#@launch=L1", "#@sync=barrier",
             "#@sync_cost_sec=5e-07", "#@lib_variants=allreduce=" + LIB[4:], "#@lib_variants_source=openmpi synthetic"]
    for k, v in META.items():
        lines.append("#@%s=%s" % (k, name if k == "mpi_library_name" else v))
    lines.append("collective,algorithm,bytes,count,datatype,op,root,nprocs,launch,round,rep,warmup,runtime_sec,valid")
    # median runtimes in microseconds at (16 B, 64 KiB): the mock-ups and the variant faster at 64 KiB
    allreduce = {"default": (5, 100), "allreduce_as_reduce_bcast": (5, reduce_bcast_us), "allreduce_as_split2": (5, 50),
                 ALG: (5, 80), QUOTE: (5, 95), LIB: (5, 50)}
    bcast = {"default": (4, 60), "bcast_as_allgatherv": (4, 30), BALG: (4, 40)}
    for r in range(40):
        for coll, algs, pairs in (("allreduce", allreduce, [(DT, "MPI_SUM"), ("MPI_DOUBLE", "MPI_SUM")]),
                                  ("bcast", bcast, [("MPI_BYTE", "")])):
            for dt, op in pairs:
                for si, b in enumerate((16, 65536)):
                    for alg, us in algs.items():
                        t = us[si] * 1e-6 * (1 + 0.04 * rng.random())
                        rows.append(",".join([coll, csv_field(alg), str(b), str(b), csv_field(dt), op,
                                              "0" if coll == "bcast" else "", "4", "L1", str(r), str(r), "0",
                                              "%.9f" % t, "1"]))
    with open(path, "w") as f:
        f.write("\n".join(lines + rows) + "\n")


def verify_csv(d):
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "verify.csv"), "w") as f:
        f.write("#@format=mpiguide-verify/1\n#@profile=<script>alert(31)</script>\n#@nprocs=4\n#@alpha=0.05\n"
                "collective,nprocs,bytes,in_profile,tuned,median_default_sec,median_tuned_sec,ratio,ratio_lo,"
                "ratio_hi,p_holm,verdict,still_faster\n"
                "allgather,4,128,1,allgather_as_x'\"><svg onload=alert(32)>,6.7e-06,6.6e-06,0.98,0.97,1.01,1,same,\n"
                "allgather,4,256,1,allgather_as_alltoall,1.2e-05,7.7e-06,0.62,0.61,0.63,1e-10,faster,"
                "<script>alert(33)</script> 1.5x\n"
                "allgather,4,512,0,default,1.2e-05,1.2e-05,1.0,0.98,1.01,1,same,a'b 1.2x;<b>c</b> 1.1x\n")


def overlap_csv(src, dst):
    with open(src) as f:
        text = f.read()
    text = text.replace("#@nprocs=2", "#@nprocs=<script>alert(41)</script>")
    text = text.replace("#@mpi_library_name=Open MPI", "#@mpi_library_name=</title><script>alert(42)</script>")
    text = text.replace("#@hostname=vm", "#@hostname=h' onclick='alert(43)")
    # a collective named with markup (the overlap reader keeps the name it reads)
    text = re.sub(r"^bcast,", lambda m: csv_field('bc"><svg onload=alert(44)>') + ",", text, flags=re.M)
    with open(dst, "w") as f:
        f.write(text)


class Page(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.bad = []

    def handle_starttag(self, tag, attrs):
        if tag == "script":
            self.bad.append("a <script> element")
        for k, v in attrs:
            if k.startswith("on"):
                self.bad.append("an event handler %s=%r on <%s>" % (k, v, tag))
            if not re.fullmatch(r"[a-z][a-z0-9:-]*", k):
                self.bad.append("an attribute %r on <%s> (a value broke out of its quotes)" % (k, tag))

    handle_startendtag = handle_starttag


def check_page(name, path, escaped):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    p = Page()
    p.feed(text)
    bad = list(p.bad)
    for raw in ("<script", "<svg onload", "q'uote", "x' onclick", "t' onfocus", "a'b"):
        if raw.lower() in text.lower():
            bad.append("the raw payload %r" % raw)
    for e in escaped:
        if e not in text:
            bad.append("no escaped %r" % e)
    print("%s: %s: %s" % (name, path, "ok" if not bad else "%d problem(s)" % len(bad)))
    for b in sorted(set(bad), key=bad.index):
        print("  %s%s" % ("%d x " % bad.count(b) if bad.count(b) > 1 else "", b))
    return len(bad)


def run(cmd, name):
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    if r.returncode == 2 and re.search(r":\d+: ", r.stderr):
        print("%s: refused by the reader (that is fine): %s" % (name, r.stderr.strip()[:300]))
        return False
    if r.returncode != 0:
        print("%s: %s failed (exit %d): %s" % (name, " ".join(cmd), r.returncode, r.stderr.strip()[:600]))
        raise SystemExit(1)
    return True


def main():
    if len(sys.argv) != 4:
        print(__doc__)
        return 2
    cli, data, work = sys.argv[1:]
    shutil.rmtree(work, ignore_errors=True)  # a rerun starts clean (check -o refuses a result directory)
    os.makedirs(work)
    a, b, ver, ovl = (os.path.join(work, x) for x in ("a", "b", "verify", "overlap.csv"))
    raw_csv(os.path.join(a, "raw.csv"), META["mpi_library_name"], 60)
    raw_csv(os.path.join(b, "raw.csv"), "</title><script>alert(19)</script>", 130)
    verify_csv(ver)
    overlap_csv(os.path.join(data, "overlap", "openmpi_np2.csv"), ovl)

    esc_alg = 'allreduce_as_x&quot;&gt;&lt;svg onload=alert(2)&gt;'
    esc_dt = "&lt;/title&gt;&lt;script&gt;alert(1)&lt;/script&gt;:sum"
    check_escaped = ['data-alg="' + esc_alg + '"', 'data-alg="lib:v&quot;&gt;&lt;svg onload=alert(3)&gt;"',
                     'data-alg="bcast_as_split2&quot;&gt;&lt;svg onload=alert(4)&gt;"', esc_dt,
                     "allreduce_as_q&#39;uote", "&lt;/title&gt;&lt;script&gt;alert(11)&lt;/script&gt;",
                     "x&quot; onmouseover=&quot;alert(15)", "t&#39; onfocus=&#39;alert(17)"]
    bad = 0
    out = os.path.join(work, "check_out")
    if run([cli, "check", "--from", a, "-o", out, "-q"], "check --from"):
        bad += check_page("check --from", os.path.join(out, "report.html"), check_escaped)
    page = os.path.join(work, "two.html")
    if run([cli, "report", a, b, "-o", page], "report A B"):
        bad += check_page("report A B", page, check_escaped + ["&lt;/title&gt;&lt;script&gt;alert(19)&lt;/script&gt;"])
    ver_escaped = ["&lt;script&gt;alert(31)&lt;/script&gt;", "allgather_as_x&#39;&quot;&gt;&lt;svg onload=alert(32)&gt;",
                   "&lt;script&gt;alert(33)&lt;/script&gt; 1.5x", "a&#39;b 1.2x"]
    page = os.path.join(work, "verify.html")
    if run([cli, "report", ver, "-o", page], "report VERIFY"):
        bad += check_page("report VERIFY", page, ver_escaped)
    page = os.path.join(work, "check_verify.html")
    if run([cli, "report", a, ver, "-o", page], "report A VERIFY"):
        bad += check_page("report A VERIFY", page, ver_escaped + [esc_dt])
    page = os.path.join(work, "overlap.html")
    if run([cli, "report", "--overlap", ovl, "-o", page], "report --overlap"):
        bad += check_page("report --overlap", page,
                          [", &lt;script&gt;alert(41)&lt;/script&gt; processes", "h&#39; onclick=&#39;alert(43)",
                           'data-coll="bc&quot;&gt;&lt;svg onload=alert(44)&gt;"'])
    print("hostile: %d problem(s)" % bad)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
