"""wal-split.py RESULT.json LSN0 RECORDS0 FPI0 BYTES0 CKPT0 LSN1 RECORDS1 FPI1 BYTES1 CKPT1

Adds the WAL written per answered screening to a load generator result (issue 15 point 4: the
storage cost of a stored verdict): bytes by the WAL position, records and full-page images from
pg_stat_wal, the share of the WAL bytes that full-page images took (pg_stat_wal counts their
bytes within wal_bytes; the share is estimated from the page size, 8 KiB a page before
compression), and the checkpoints that started during the step.
"""
import json
import sys

path = sys.argv[1]
lsn0, rec0, fpi0, by0, ck0, lsn1, rec1, fpi1, by1, ck1 = map(int, sys.argv[2:12])
j = json.load(open(path))
answered = max(1, j.get("completed", 0))
wal_bytes = max(0, lsn1 - lsn0)
fpi = fpi1 - fpi0
w = {"bytesPerAnswered": wal_bytes / answered, "recordsPerAnswered": (rec1 - rec0) / answered,
     "fullPageImagesPerAnswered": fpi / answered,
     "fpiShare": min(1.0, fpi * 8192 / wal_bytes) if wal_bytes else 0.0,
     "checkpoints": ck1 - ck0, "walMB": wal_bytes / 1e6}
j["wal"] = w
json.dump(j, open(path, "w"), indent=2)
print(f"WAL per answered screening: {w['bytesPerAnswered']:.0f} bytes, {w['recordsPerAnswered']:.1f} records, "
      f"{w['fullPageImagesPerAnswered']:.2f} full-page images (at most {w['fpiShare'] * 100:.0f}% of the bytes: an image without its hole is smaller than a page); "
      f"{w['walMB']:.0f} MB in the step, {w['checkpoints']} checkpoint(s) started")
