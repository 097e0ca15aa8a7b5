#!/usr/bin/env python3
"""The fixtures of tests/campaign (run once; the output is committed): a campaign tree of two
configurations, TestMPI 1.0 and 2.0 on 1 x 4, two launches each (`check --launches 2` layout),
allreduce's default against allreduce_as_reduce_bcast at 8 B and 1 KiB:

  1.0: a violation at 1 KiB (the default twice the mock-up), none at 8 B
  2.0: a violation at 8 B (new), none at 1 KiB (gone), and the default at 8 B slower beyond the
       spread of its launches

Two more trees of two configurations each (docs/campaign.md, "Which library is faster"):

  libs:  Open MPI 4.1.4 (mpirun) against MPICH 4.0.2 (srun --mpi=pmix; a violation at 8 B), 1 x 4,
         two launches each:
         at 8 B Open MPI's default is twice as fast, at 1 KiB the two are the same (0.5 % apart),
         at 1 MiB MPICH's is twice as fast (Open MPI's 27.98 ms: a latency past 10^4 us)
  noisy: the same Open MPI run against one whose noise threshold (#@sync_cost_sec, 1 ms) exceeds
         every difference: noise dominates it, so neither section may state a ratio

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



def write_tree(here, configs, lib=None):
    """configs: (name, version, base) as CONFIGS; lib: name -> (library, version string, launcher,
    sync cost) for trees of several libraries (None: TestMPI, mpirun, 1e-07 s)."""
    os.makedirs(here, exist_ok=True)
    with open(os.path.join(here, "campaign.spec"), "w") as f:
        for name, _, _ in configs:
            f.write(f"config {name}\n")
    for name, ver, base in configs:
        mpi, verstr, launcher, sync = lib[name] if lib else ("TestMPI", f"TestMPI {ver} (fixture)", "mpirun", "1e-07")
        for k in (1, 2):
            d = os.path.join(here, name, f"launch-{k}")
            os.makedirs(d, exist_ok=True)
            lid = f"{name}-L{k}"
            with open(os.path.join(d, "raw.csv"), "w") as f:
                f.write(f"#@format=mpiguide-bench-raw/1\n#@mpi_library_name={mpi}\n"
                        f"#@mpi_library_version={verstr}\n#@nprocs=4\n#@nnodes=1\n#@ranks_per_node=4\n"
                        f"#@hostname=fixture\n#@hosts=fixture:4\n#@cpu_model=Fixture CPU 1\n#@launcher={launcher}\n"
                        f"#@date=2024-01-0{k}T00:00:00Z\n#@launch={lid}\n#@sync=barrier\n#@datatype=MPI_BYTE\n"
                        f"#@sync_cost_sec={sync}\n#@check_format=1\n#@seed=7\n")
                f.write("collective,algorithm,bytes,count,datatype,nprocs,launch,round,rep,warmup,runtime_sec,valid\n")
                for (alg, size), us in base.items():
                    for r in range(NREP):
                        t = us * (1 + 0.01 * ((r * 7 + k * 3) % 11)) * (1 + 0.02 * (k - 1))
                        f.write(f"allreduce,{alg},{size},{size},MPI_BYTE,4,{lid},{r},{r},0,{t * 1e-6:.9f},1\n")


write_tree(HERE, CONFIGS)

M = "allreduce_as_reduce_bcast"
OMPI = ("openmpi-1x4", "4.1.4", {("default", 8): 10.0, (M, 8): 12.0, ("default", 1024): 40.0, (M, 1024): 44.0,
                                 ("default", 1 << 20): 27980.0, (M, 1 << 20): 30000.0})
LIBS = {"openmpi-1x4": ("Open MPI", "Open MPI v4.1.4, package: Debian OpenMPI (fixture)", "mpirun", "1e-07"),
        "mpich-1x4": ("MPICH", "MPICH Version: 4.0.2 (fixture)", "srun --mpi=pmix", "1e-07"),
        "noisy-1x4": ("MPICH", "MPICH Version: 4.0.2 (fixture)", "mpirun", "1e-03")}
write_tree(os.path.join(os.path.dirname(HERE), "libs"), [
    OMPI,
    ("mpich-1x4", "4.0.2", {("default", 8): 20.0, (M, 8): 10.0, ("default", 1024): 40.2, (M, 1024): 44.0,
                            ("default", 1 << 20): 14000.0, (M, 1 << 20): 15000.0})], LIBS)
write_tree(os.path.join(os.path.dirname(HERE), "noisy"), [
    OMPI,
    ("noisy-1x4", "4.0.2", {("default", 8): 40.0, (M, 8): 10.0, ("default", 1024): 60.0, (M, 1024): 50.0,
                            ("default", 1 << 20): 28000.0, (M, 1 << 20): 28100.0})], LIBS)
