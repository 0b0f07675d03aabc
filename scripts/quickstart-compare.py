#!/usr/bin/env python3
"""The README's quick start as a script, and its answers compared whole.

  quickstart-compare.py script README.md          the sh blocks after each `<!-- quickstart -->`,
                                                   each preceded by a marker line on stdout
  quickstart-compare.py compare README.md OUT     each block's stdout in OUT against the output
                                                   block the README shows after it

A block's expected output is the fenced block that follows its closing fence directly (```json
or a bare ```); a block without one is run but not compared. Both sides are masked the same way,
and only for what differs from run to run: UUIDs, event ids, timestamps, the case number's year
and the port dev listens on. Everything else (balances, case numbers, scores, rule names, the
order of lines) must be what the README says.
"""
import re
import sys

MARK = "@@quickstart-block {}@@"

MASKS = [
    (re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"), "..."),
    (re.compile(r"\bevt_[a-z0-9]{26}\b"), "evt_<id>"),
    # whole or cut-off ISO 8601 times (the webhook lines are cut at 100 characters)
    (re.compile(r"\d{4}-\d{2}-\d{2}T[0-9:.]*(Z|[+-]\d{2}:?\d{2})?"), "<time>"),
    (re.compile(r"\d{4}-\d{2}-\d{2}T?"), "<time>"),
    (re.compile(r"\bCASE-\d{4}-"), "CASE-<year>-"),
    (re.compile(r"http://127\.0\.0\.1:\d+"), "http://127.0.0.1:<port>"),
]


def mask(line):
    for pattern, repl in MASKS:
        line = pattern.sub(repl, line)
    return line.rstrip()


def blocks(readme):
    """Yields (sh lines, expected lines or None) for each quickstart block."""
    lines = open(readme, encoding="utf-8").read().split("\n")
    i = 0
    while i < len(lines):
        if lines[i] != "<!-- quickstart -->":
            i += 1
            continue
        i += 1
        if i >= len(lines) or lines[i] != "```sh":
            sys.exit(f"{readme}:{i + 1}: a quickstart marker must be followed by a ```sh block")
        i += 1
        sh = []
        while lines[i] != "```":
            sh.append(lines[i])
            i += 1
        i += 1
        expected = None
        if i < len(lines) and lines[i].startswith("```") and lines[i] != "```sh":
            i += 1
            expected = []
            while lines[i] != "```":
                expected.append(lines[i])
                i += 1
            i += 1
        yield sh, expected


def script(readme):
    print("set -euo pipefail")
    print("trap 'kill $(jobs -p) 2>/dev/null; wait' EXIT")
    for n, (sh, _) in enumerate(blocks(readme), 1):
        print(f"echo '{MARK.format(n)}'")
        print("\n".join(sh))
        print()


def compare(readme, out):
    got = {}
    current = None
    for line in open(out, encoding="utf-8", errors="replace").read().split("\n"):
        m = re.fullmatch(r"@@quickstart-block (\d+)@@", line)
        if m:
            current = int(m.group(1))
            got[current] = []
        elif current is not None:
            got[current].append(line)
    failed = 0
    for n, (_, expected) in enumerate(blocks(readme), 1):
        if n not in got:
            print(f"quickstart: block {n} did not run", file=sys.stderr)
            failed += 1
            continue
        if expected is None:
            continue
        want = [mask(l) for l in expected]
        have = [mask(l) for l in got[n]]
        while have and have[-1] == "":
            have.pop()
        if want != have:
            failed += 1
            print(f"quickstart: block {n} answered differently from the README (masked):", file=sys.stderr)
            for l in want:
                print(f"  README: {l}", file=sys.stderr)
            for l in have:
                print(f"  got:    {l}", file=sys.stderr)
    if failed:
        print(f"quickstart: {failed} block(s) differ", file=sys.stderr)
        return 1
    print("quickstart: every answer is the README's")
    return 0


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "script":
        script(sys.argv[2])
    elif len(sys.argv) == 4 and sys.argv[1] == "compare":
        sys.exit(compare(sys.argv[2], sys.argv[3]))
    else:
        sys.exit(__doc__)
