"""cpu-split.py RESULT.json LOADGEN_CPU_S SERVER_T0 SERVER_T1 MACHINE_T0 MACHINE_T1 PG_T0 PG_T1 HZ RATE DURATION NCPU WALL_S STEAL_TICKS [WARMUP_S]

Adds the CPU cost per screening of the server, the load generator, PostgreSQL and everything
else (the kernel's interrupt work, other processes) to a load generator result and prints it.
"""
import json
import sys

path = sys.argv[1]
j = json.load(open(path))
lg = float(sys.argv[2])
s0, s1, m0, m1, p0, p1, hz = map(float, sys.argv[3:10])
rate, dur, ncpu = float(sys.argv[10]), float(sys.argv[11].rstrip("s")), int(sys.argv[12])
wall = float(sys.argv[13])
steal = float(sys.argv[14]) / hz
warmup = float(sys.argv[15].rstrip("s")) if len(sys.argv) > 15 else 3.0
sent = rate * (dur + warmup)  # the load generator's warm-up at the same rate is inside the window
srv, tot, pg = (s1 - s0) / hz, (m1 - m0) / hz, (p1 - p0) / hz
# Per answered screening too: under overload most offered screenings are refused at once, and
# dividing by the offered ones would make a collapse look cheap.
answered = max(1, j.get("completed", 0))
c = {"serverPerAnswered": srv / answered * 1e6, "postgresPerAnswered": pg / answered * 1e6,
     "server": srv / sent * 1e6, "loadgen": lg / sent * 1e6, "postgres": pg / sent * 1e6,
     "other": (tot - srv - lg - pg) / sent * 1e6,
     "machineBusyPct": tot / wall / ncpu * 100, "stealPct": steal / wall / ncpu * 100}
j["cpuUsPerScreening"] = c
json.dump(j, open(path, "w"), indent=2)
print(f"{j['proto']}  CPU per screening: server {c['server']:.0f} us, loadgen {c['loadgen']:.0f} us, "
      f"PostgreSQL {c['postgres']:.0f} us, other {c['other']:.0f} us; machine {c['machineBusyPct']:.0f}% busy, "
      f"{c['stealPct']:.1f}% stolen by the hypervisor; per answered screening: server {c['serverPerAnswered']:.0f} us, "
      f"PostgreSQL {c['postgresPerAnswered']:.0f} us")
