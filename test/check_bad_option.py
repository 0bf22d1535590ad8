#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The swtim authors

"""Run a program with a bad option and check how it refuses it.

Usage:
  check_bad_option.py [--expect-rc N] [--no-pointer] --names TEXT --
      COMMAND [ARGS...]

The program must exit with status N (default 2), say on stderr what was
wrong in a line that contains TEXT (the option, say), end its stderr with a
line pointing to --help (unless --no-pointer: where the value is bad
for a reason the help cannot mend, a --bin that does not start, say), and
not print its usage text: a few lines of error, not the whole --help. Lines EAL logs before it parses
the application's options (those starting "EAL:" or "TELEMETRY:") are
left out.
"""

import argparse
import subprocess
import sys

# Said by --help and never by an error message.
USAGE_MARKS = ("usage:", "options:")


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--expect-rc", type=int, default=2)
    ap.add_argument("--no-pointer", action="store_true",
                    help="do not ask for the pointer to --help")
    ap.add_argument("--names", required=True,
                    help="text the error line must contain")
    ap.add_argument("command", nargs=argparse.REMAINDER)
    args = ap.parse_args()
    cmd = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not cmd:
        ap.error("no command")

    run = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    lines = [l for l in (run.stdout + run.stderr).splitlines()
             if l.strip() and not l.startswith(("EAL:", "TELEMETRY:"))]
    err = [l for l in run.stderr.splitlines() if l.strip()]
    bad = []
    if run.returncode != args.expect_rc:
        bad.append("exit status %d, not %d" % (run.returncode,
                                               args.expect_rc))
    if not any(args.names in l for l in err):
        bad.append("no line on stderr names %r" % args.names)
    if not args.no_pointer and (not err or "see --help" not in err[-1]):
        bad.append("stderr does not end with a pointer to --help")
    if any(l.strip().lower().startswith(USAGE_MARKS) for l in lines):
        bad.append("the usage text is printed")
    if len(lines) > 3:
        bad.append("%d lines of output, not an error and a pointer"
                   % len(lines))
    print("$ " + " ".join(cmd))
    print("".join(run.stdout) + "".join(run.stderr), end="")
    for b in bad:
        print("FAIL: " + b)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
