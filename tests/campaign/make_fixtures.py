#!/usr/bin/env python3
"""The fixtures of tests/campaign (run once; the output is committed): a campaign tree of two
configurations, TestMPI 1.0 and 2.0 on 1 x 4, two launches each (`check --launches 2` layout),
allreduce's default against allreduce_as_reduce_bcast at 8 B and 1 KiB:

  1.0: a violation at 1 KiB (the default twice the mock-up), none at 8 B
  2.0: a violation at 8 B (new), none at 1 KiB (gone), and the default at 8 B slower beyond the
       spread of its launches

Runtimes are fixed numbers with a small deterministic ripple, so the verdicts and the bootstrap
(seeded by #@seed) are the same on every machine."""
import os

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "tree")
NREP = 20
# (config, version, {(alg, bytes): base runtime in us})
CONFIGS = [
    ("testmpi1-1x4", "1.0", {("default", 8): 10.0, ("allreduce_as_reduce_bcast", 8): 12.0,
                            ("default", 1024): 40.0, ("allreduce_as_reduce_bcast", 1024): 20.0}),
    ("testmpi2-1x4", "2.0", {("default", 8): 30.0, ("allreduce_as_reduce_bcast", 8): 12.0,
                            ("default", 1024): 18.0, ("allreduce_as_reduce_bcast", 1024): 20.0}),
]

os.makedirs(HERE, exist_ok=True)
with open(os.path.join(HERE, "campaign.spec"), "w") as f:
    for name, _, _ in CONFIGS:
        f.write(f"config {name}\n")
for name, ver, base in CONFIGS:
    for k in (1, 2):
        d = os.path.join(HERE, name, f"launch-{k}")
        os.makedirs(d, exist_ok=True)
        lid = f"{name}-L{k}"
        with open(os.path.join(d, "raw.csv"), "w") as f:
            f.write("#@format=mpiguide-bench-raw/1\n#@mpi_library_name=TestMPI\n"
                    f"#@mpi_library_version=TestMPI {ver} (fixture)\n#@nprocs=4\n#@nnodes=1\n#@ranks_per_node=4\n"
                    "#@hostname=fixture\n#@hosts=fixture:4\n#@cpu_model=Fixture CPU 1\n#@launcher=mpirun\n"
                    f"#@date=2024-01-0{k}T00:00:00Z\n#@launch={lid}\n#@sync=barrier\n#@datatype=MPI_BYTE\n"
                    "#@sync_cost_sec=1e-07\n#@check_format=1\n#@seed=7\n")
            f.write("collective,algorithm,bytes,count,datatype,nprocs,launch,round,rep,warmup,runtime_sec,valid\n")
            for (alg, size), us in base.items():
                for r in range(NREP):
                    t = us * (1 + 0.01 * ((r * 7 + k * 3) % 11)) * (1 + 0.02 * (k - 1))
                    f.write(f"allreduce,{alg},{size},{size},MPI_BYTE,4,{lid},{r},{r},0,{t * 1e-6:.9f},1\n")
