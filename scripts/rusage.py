"""rusage.py OUT CMD...: run CMD, then write its CPU seconds (user + system) to OUT."""
import resource
import subprocess
import sys

rc = subprocess.run(sys.argv[2:]).returncode
r = resource.getrusage(resource.RUSAGE_CHILDREN)
with open(sys.argv[1], "w") as f:
    f.write(f"{r.ru_utime + r.ru_stime}\n")
sys.exit(rc)
