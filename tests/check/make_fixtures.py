#!/usr/bin/env python3
"""Writes the small raw-data fixtures of tests/check/data/ (Python 3 standard library only).

The values are chosen so that the verdicts can be computed by hand; test_check.c states the
hand computations. Run from anywhere: python3 tests/check/make_fixtures.py (rewrites the files).
"""
import os

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data")
COLS = "collective,algorithm,bytes,count,datatype,nprocs,launch,round,rep,warmup,runtime_sec,valid"


def raw_csv(path, launch, sync_cost, series, extra_meta=(), nprocs=4):
    """series: list of (collective, algorithm, bytes, [runtimes in us], warmups, invalid_at)."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    rows = []
    for coll, alg, nbytes, values, warm, invalid in series:
        for i, w in enumerate(warm):
            rows.append((coll, alg, nbytes, i, i, 1, w, 1))
        for i, v in enumerate(values):
            r = len(warm) + i
            rows.append((coll, alg, nbytes, r, i, 0, v, 0 if i in invalid else 1))
    with open(path, "w") as f:
        f.write("#@format=mpiguide-bench-raw/1\n#@mpi_library_name=TestMPI\n")
        f.write("#@mpi_library_version=TestMPI 1.0 (fixture)\n")
        f.write("#@nprocs=%d\n#@nnodes=1\n#@hostname=fixture\n#@date=2024-01-01T00:00:00Z\n" % nprocs)
        f.write("#@launch=%s\n#@sync=barrier\n#@datatype=MPI_BYTE\n" % launch)
        f.write("#@sync_cost_sec=%g\n" % sync_cost)
        for m in extra_meta:
            f.write("#@%s\n" % m)
        f.write("#@check_rows=%d\n" % len(rows))
        f.write(COLS + "\n")
        for coll, alg, nbytes, rnd, rep, wflag, v, valid in rows:
            f.write("%s,%s,%d,%d,MPI_BYTE,%d,%s,%d,%d,%d,%.9f,%d\n"
                    % (coll, alg, nbytes, nbytes, nprocs, launch, rnd, rep, wflag, v * 1e-6, valid))


def small():
    # bcast 1K: default 10..19 us, allgatherv 5..14 minus 0.5 (every default above every mock-up
    # but for overlaps, see test_check.c), scatter_allgather 20..29 (slower: no violation).
    d1k = [10 + i for i in range(10)]
    ag1k = [1 + i * 0.5 for i in range(10)]          # 1.0 .. 5.5: all below the default
    sa1k = [20 + i for i in range(10)]
    # bcast 64K: default 100..109, allgatherv 99.5..108.5: shifted by 0.5 us < sync cost (2 us)
    d64 = [100 + i for i in range(10)]
    ag64 = [99.5 + i for i in range(10)]
    # allreduce 8: default {5,6,7}, reduce_bcast {1,2,3,4}: U = 12, exact p = 1/C(7,3) = 1/35
    series = [
        ("bcast", "default", 1024, d1k, [500.0], {10}),
        ("bcast", "bcast_as_allgatherv", 1024, ag1k, [500.0], set()),
        ("bcast", "bcast_as_scatter_allgather", 1024, sa1k, [500.0], set()),
        ("bcast", "default", 65536, d64, [], set()),
        ("bcast", "bcast_as_allgatherv", 65536, ag64, [], set()),
        # the default's third round invalid (999 us, ignored): its valid values {5,6,7} span rounds
        # 0-3 as the mock-up's do, so the comparison reads both whole (analyze.c, shared_rounds)
        ("allreduce", "default", 8, [5, 6, 999, 7], [], {2}),
        ("allreduce", "allreduce_as_reduce_bcast", 8, [1, 2, 3, 4], [], set()),
    ]
    # an invalid row (index 10) of the bcast 1K default: 999 us, must be ignored
    series[0] = ("bcast", "default", 1024, d1k + [999.0], [500.0], {10})
    raw_csv(os.path.join(HERE, "small", "raw.csv"), "L1", 2e-6, series,
            extra_meta=["skipped=bcast,bcast_as_scatter_allgather,65536,skipped: not applicable: test fixture",
                        "stop=bcast,default,1024,rse,11"])


def monotony():
    # bcast default: 1K 50..59 us, 4K 10..19 (faster: 1K is non-monotone), 16K 60..69 (4K against
    # 16K: monotone); allgatherv 1K 5..14, 4K 15..24, 16K 30..39 (monotone everywhere).
    series = [
        ("bcast", "default", 1024, [50 + i for i in range(10)], [], set()),
        ("bcast", "default", 4096, [10 + i for i in range(10)], [], set()),
        ("bcast", "default", 16384, [60 + i for i in range(10)], [], set()),
        ("bcast", "bcast_as_allgatherv", 1024, [5 + i for i in range(10)], [], set()),
        ("bcast", "bcast_as_allgatherv", 4096, [15 + i for i in range(10)], [], set()),
        ("bcast", "bcast_as_allgatherv", 16384, [30 + i for i in range(10)], [], set()),
    ]
    raw_csv(os.path.join(HERE, "monotony", "raw.csv"), "L1", 2e-6, series)


def measure_only():
    # allreduce 8 B: the userop row 10..19 us against the default's 50..59, measured outside its
    # bits-only restriction (#@measure_only): a violation of eq. 23, flagged M, never a tuning rule.
    series = [
        ("allreduce", "default", 8, [50 + i for i in range(10)], [], set()),
        ("allreduce", "allreduce_as_userop", 8, [10 + i for i in range(10)], [], set()),
    ]
    raw_csv(os.path.join(HERE, "measure_only", "raw.csv"), "L1", 2e-6, series,
            extra_meta=["measure_only=allreduce,allreduce_as_userop,8,measure only (op_not_exact): a timing, "
                        "no repair for this call"])


def launches():
    # allreduce 1K, GL5: launch a: default 20..29 vs mock 10..19 (slower);
    #                    launch b: default 10..19 vs mock 10.5..19.5 (faster): pooled significant,
    #                    launches disagree -> no violation (flag L).
    # allreduce 1K, GL6: default slower in both launches -> violation.
    for name, dflt, gl5, gl6 in [
        ("a", [20 + i for i in range(10)], [10 + i for i in range(10)], [5 + i for i in range(10)]),
        ("b", [10 + i for i in range(10)], [10.5 + i for i in range(10)], [5 + i for i in range(10)]),
    ]:
        raw_csv(os.path.join(HERE, "launches", name, "raw.csv"), "launch-" + name, 1e-6, [
            ("allreduce", "default", 1024, dflt, [], set()),
            ("allreduce", "allreduce_as_reduce_bcast", 1024, gl5, [], set()),
            ("allreduce", "allreduce_as_reducescatterblock_allgather", 1024, gl6, [], set()),
        ])


def repro():
    d = os.path.join(HERE, "repro")
    os.makedirs(d, exist_ok=True)
    files = {
        "data_MPI_Reduce_scatter_block_default.dat": [(16, [8, 9, 10, 11, 12])],
        "data_MPI_Reduce_scatter_block_reduce_scatter_block_as_allreduce.dat": [(16, [3, 4, 5, 6, 7])],
        "data_MPI_Bcast_MPI_Bcast.dat": [(8, [2, 3, 4]), (1024, [5, 6, 7])],
        "data_MPI_Bcast_bcast_as_allgatherv.dat": [(8, [1.5, 2.5, 3.5]), (1024, [9, 10, 11])],
    }
    for fname, sizes in files.items():
        with open(os.path.join(d, fname), "w") as f:
            f.write("#@nprocs=2\n#@sync_cost_sec=1e-06\n#@launch=repro-1\n")
            f.write("test nrep msize runtime_sec\n")
            test = fname[5:-4]
            for msize, values in sizes:
                for i, v in enumerate(values):
                    f.write("%s %d %d %.9f\n" % (test, i, msize, v * 1e-6))


def truncated():
    # a raw CSV cut in the middle of its third line (a run killed while writing)
    d = os.path.join(HERE, "truncated")
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "raw.csv"), "w") as f:
        f.write(COLS + "\n")
        f.write("bcast,default,8,8,MPI_BYTE,4,T1,0,0,0,0.000002000,1\n")
        f.write("bcast,bcast_as_allgatherv,8,8,MPI_BY")


if __name__ == "__main__":
    truncated()
    small()
    monotony()
    measure_only()
    launches()
    repro()
