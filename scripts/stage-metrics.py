#!/usr/bin/env python3
"""Where a step's screenings waited, from the server's own /metrics.

    stage-metrics.py URL OUT [INTERVAL]

Reads URL (complyd's /metrics) every INTERVAL seconds (default 0.5) until SIGTERM, then writes
to OUT, and prints, the mean and the largest value read of each stage's gauge (the unary
screenings in flight at the door, those waiting for their account's turn, the read queue, the
two commit lanes) and how much each refusal counter grew between the first read and one made
after SIGTERM (docs/guide/screening.md "Overload", under Metrics). The bench script runs it beside a step with
STAGES=1; its own CPU counts as the machine's "other".
"""
import signal
import sys
import time
import urllib.request

GAUGES = [
    ("in flight", "complyd_screening_in_flight"),
    ("account wait", "complyd_screening_account_wait_length"),
    ("read queue", "complyd_screening_queue_length"),
    ("case lane", 'complyd_screening_commit_queue_length{stage="case"}'),
    ("commit lane", 'complyd_screening_commit_queue_length{stage="commit"}'),
]
COUNTERS = [
    ("door", "complyd_screening_gate_shed_total"),
    ("admission", "complyd_screening_shed_total"),
    ("account", "complyd_screening_account_shed_total"),
]


def read(url):
    """One scrape: series (name with its labels, as exposed) to value; None when unreachable."""
    try:
        with urllib.request.urlopen(url, timeout=1) as res:
            text = res.read().decode()
    except OSError:
        return None
    values = {}
    for line in text.splitlines():
        if line.startswith("complyd_screening_"):
            series, _, value = line.rpartition(" ")
            values[series] = float(value)
    return values


def main():
    url, out = sys.argv[1], sys.argv[2]
    interval = float(sys.argv[3]) if len(sys.argv) > 3 else 0.5
    stop = []
    signal.signal(signal.SIGTERM, lambda *_: stop.append(True))
    reads = []
    while not stop:
        got = read(url)
        if got is not None:
            reads.append(got)
        deadline = time.monotonic() + interval
        while not stop and time.monotonic() < deadline:
            time.sleep(0.05)
    parts = []
    for label, series in GAUGES:
        seen = [r[series] for r in reads if series in r]
        parts.append(f"{label} {sum(seen) / len(seen):.1f} ({max(seen):g})" if seen else f"{label} not exposed")
    # The counters once more after the step, so that refusals of its last moments count.
    final = read(url)
    grown = []
    for label, series in COUNTERS:
        seen = [r[series] for r in reads + ([final] if final else []) if series in r]
        grown.append(f"{label} {seen[-1] - seen[0]:g}" if seen else f"{label} not exposed")
    lines = [f"stages over {len(reads)} reads of /metrics, {interval} s apart, mean (max): " + ", ".join(parts),
             "refused during the step: " + ", ".join(grown)]
    with open(out, "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
