#!/usr/bin/env python3
"""Run one simulation bounded in wall-clock time and in memory, and record what it cost (issue 50.4).

Usage: bound.py --timeout SECONDS --pss-max MB --log FILE [--name NAME] -- COMMAND...

The command runs in a process group of its own; every 0.2 s the group's proportional set size
(Pss, from /proc/PID/smaps_rollup of the command and its descendants: a page mapped by every
simulated rank counts once) is summed. Over --pss-max MB, or past --timeout seconds, the group
gets SIGTERM (mpiguide check saves its finished cells and stops), then SIGKILL 30 s later.
SIGINT and SIGTERM to bound.py are passed on the same way, so a campaign's Ctrl-C reaches the
check. No cgroups needed (containers without systemd: systemd-run --scope is not available there).

Appends one tab-separated line to --log (created with a header if absent):
  name  rc  stopped  wall_s  cpu_s  peak_pss_mb  command
stopped is '-' (ran to its end), 'timeout', 'memory' or 'signal'; cpu_s is the user + system
time of the command and all its descendants (getrusage RUSAGE_CHILDREN, or where larger the sum
of what /proc/PID/stat said of each at the last sample: a simulation stopped by a bound outlives
its smpirun and is not waited for here). The exit
status is the command's (124 after a timeout, 137 after a memory stop, as timeout(1) says).
"""
import os, resource, signal, subprocess, sys, time

HEADER = "name\trc\tstopped\twall_s\tcpu_s\tpeak_pss_mb\tcommand\n"


def usage(msg):
    sys.exit(f"bound.py: {msg} (usage: bound.py --timeout S --pss-max MB --log FILE [--name N] -- CMD...)")


def positive(opt, v):
    try:
        x = float(v)
    except ValueError:
        usage(f"{opt} '{v}' is not a number")
    if not 0 < x <= 1e7:
        usage(f"{opt} {v} is not from 0 to 1e7")
    return x


def group_pss_kb(root, cpu):
    """Pss of root and its descendants, in kB; cpu[pid]: each one's user + system seconds so far."""
    total, todo, tick = 0, [root], os.sysconf("SC_CLK_TCK")
    while todo:
        pid = todo.pop()
        try:
            f = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
            cpu[pid] = (int(f[11]) + int(f[12])) / tick
            for line in open(f"/proc/{pid}/smaps_rollup"):
                if line.startswith("Pss:"):
                    total += int(line.split()[1])
            todo += [int(c) for c in open(f"/proc/{pid}/task/{pid}/children").read().split()]
        except (OSError, ValueError):
            pass
    return total


def main(argv):
    opts, i = {}, 0
    while i < len(argv) and argv[i] != "--":
        if argv[i] not in ("--timeout", "--pss-max", "--log", "--name") or i + 1 >= len(argv):
            usage(f"unknown option or missing value '{argv[i]}'")
        opts[argv[i]] = argv[i + 1]
        i += 2
    cmd = argv[i + 1:]
    if not cmd or "--log" not in opts:
        usage("--log and a command after -- are required")
    tmo = positive("--timeout", opts.get("--timeout", "3600"))
    pss_max = positive("--pss-max", opts.get("--pss-max", "8192"))
    name = opts.get("--name", os.path.basename(cmd[0]))
    if any(c in name for c in "\t\n"):
        usage("--name holds a tab or a line break")

    t0 = time.time()
    p = subprocess.Popen(cmd, start_new_session=True)
    stopped, term_at, peak, cpu = "-", None, 0, {}

    def stop(why):
        nonlocal stopped, term_at
        if term_at is None:
            stopped, term_at = why, time.time()
            try:
                os.killpg(p.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass

    signal.signal(signal.SIGINT, lambda *_: stop("signal"))
    signal.signal(signal.SIGTERM, lambda *_: stop("signal"))
    while p.poll() is None:
        peak = max(peak, group_pss_kb(p.pid, cpu))
        now = time.time()
        if peak > pss_max * 1024:
            stop("memory")
        elif now - t0 > tmo:
            stop("timeout")
        if term_at is not None and now - term_at > 30:
            try:
                os.killpg(p.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        time.sleep(0.2)
    wall = time.time() - t0
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    # a descendant killed after its parent (a stop) is not waited for by us: its CPU is the sampled one
    cpu_s = max(ru.ru_utime + ru.ru_stime, sum(cpu.values()))
    rc = p.returncode if p.returncode >= 0 else 128 - p.returncode
    if stopped == "timeout":
        rc = 124
    elif stopped == "memory":
        rc = 137
    new = not os.path.exists(opts["--log"])
    with open(opts["--log"], "a") as f:
        if new:
            f.write(HEADER)
        f.write(f"{name}\t{rc}\t{stopped}\t{wall:.1f}\t{cpu_s:.1f}\t{peak // 1024}\t"
                f"{' '.join(cmd)}\n")
    print(f"bound.py: {name}: exit {rc}, stopped {stopped}, {wall:.1f} s wall, "
          f"{cpu_s:.1f} CPU-s, peak Pss {peak // 1024} MB", file=sys.stderr)
    return rc


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
