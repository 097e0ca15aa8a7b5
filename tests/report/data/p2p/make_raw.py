#!/usr/bin/env python3
"""Writes raw.csv: a synthetic `check --p2p` launch at 2 ranks for the report's latency plot
(tests/report, group p2p). MPI_Send's default follows t(n) = 1 us + n / 10 GB/s, but at 64 KiB and
256 KiB it is 1.6 t(n) (a protocol switch: the shape of TPDS 2010 Fig. 1); send_as_split2 is 1.1 t(n)
except there, where it is t(n) (eq. 1 violated), send_as_split4 1.3 t(n) except at 64 KiB, 1.2 t(n)
(violated) — so the marks belong at exactly 64 KiB and 256 KiB. At 1 MiB the default and split2 are
bimodal (half t, half 2 t): inconclusive, a '?'. send_as_isend_wait equals the default everywhere
(eq. 7 holds where the interval is narrow). Deterministic: values are spread, not random."""
sizes = [1024, 4096, 16384, 65536, 262144, 1048576]
N = 40

def t(n):
    return 1e-6 + n / 10e9

def spread(base, i, width=0.004):
    return base * (1 + width * (((i * 17) % N) / N - 0.5))

rows = []
for n in sizes:
    for i in range(N):
        d = t(n) * (1.6 if n in (65536, 262144) else 1.0)
        s2 = t(n) * (1.0 if n in (65536, 262144) else 1.1)
        s4 = t(n) * (1.2 if n == 65536 else 2.0 if n == 262144 else 1.3)
        iw = d
        if n == 1048576:
            d = t(n) * (1 if i % 2 else 2)
            s2 = t(n) * (1 if (i // 2) % 2 else 2)
            iw = t(n) * (1 if (i // 3) % 2 else 2)
        for alg, v in (("default", d), ("send_as_isend_wait", iw), ("send_as_split2", s2), ("send_as_split4", s4)):
            rows.append(f"send,{alg},{n},{n},MPI_BYTE,2,P2P,{i},{i},0,{spread(v, i):.9e},1")

meta = ["#@format=mpiguide-bench-raw/2", "#@mpi_library_name=TestMPI", "#@mpi_library_version=TestMPI 1.0 (fixture)",
        "#@nprocs=2", "#@nnodes=1", "#@ranks_per_node=2", "#@hostname=fixture", "#@date=2026-01-01T00:00:00Z",
        "#@launch=P2P", "#@pattern=pingpong", "#@sync=barrier", "#@timer=fixture", "#@sync_cost_sec=1e-08"]
for n in sizes:
    for k in (2, 4):
        meta.append(f"#@measure_only=send,send_as_split{k},{n},measure only (measure_only): a timing, no repair for this call")
with open("raw.csv", "w") as f:
    f.write("\n".join(meta) + "\n")
    f.write("collective,algorithm,bytes,count,datatype,nprocs,launch,round,rep,warmup,runtime_sec,valid\n")
    f.write("\n".join(rows) + "\n")
