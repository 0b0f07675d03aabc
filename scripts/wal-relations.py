"""wal-relations.py PG_WALDUMP WAL_DIR START_LSN END_LSN RELMAP ANSWERED OUT

What a step's WAL is made of (issue 15 point 4), per relation and record type, per answered
screening: pg_waldump reads the records between the step's two WAL positions, and RELMAP (lines
"filenode|relname" from pg_class) names the relations. The 30 largest rows go to OUT, with the
record count and bytes (full-page images included) per answered screening and the share of the
step's bytes. The segments must still be in WAL_DIR: a checkpoint during the step may have
recycled the first ones, and then the rows cover only what was left (said in the first line).
"""
import collections
import re
import subprocess
import sys

waldump, wal_dir, start, end, relmap_path, answered, out = sys.argv[1:8]
answered = max(1, int(answered))
names = {}
for line in open(relmap_path):
    node, _, name = line.rstrip("\n").partition("|")
    names[node] = name

record = re.compile(r"rmgr: (\S+)\s+len \(rec/tot\):\s*\d+/\s*(\d+).*?desc: (\S+)")
relation = re.compile(r"rel \d+/\d+/(\d+)")
count, size = collections.Counter(), collections.Counter()
proc = subprocess.run([waldump, "-p", wal_dir, "-s", start, "-e", end], capture_output=True, text=True)
for line in proc.stdout.splitlines():
    m = record.search(line)
    if not m:
        continue
    r = relation.search(line)
    key = (f"{m.group(1)}/{m.group(3)}", names.get(r.group(1), r.group(1)) if r else "-")
    count[key] += 1
    size[key] += int(m.group(2))

total = sum(size.values()) or 1
with open(out, "w") as f:
    note = proc.stderr.strip().splitlines()[-1] if proc.returncode and proc.stderr.strip() else "complete"
    f.write(f"# WAL between {start} and {end}: {sum(count.values()) / answered:.1f} records and "
            f"{total / answered:.0f} bytes per answered screening ({note})\n")
    f.write("# records/screening  bytes/screening  share  record type  relation\n")
    for key, b in size.most_common(30):
        f.write(f"{count[key] / answered:10.2f} {b / answered:12.0f} {100 * b / total:8.1f}%  {key[0]:22s} {key[1]}\n")
