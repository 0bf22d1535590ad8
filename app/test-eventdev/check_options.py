#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The swtim authors

"""Check swtim-test-eventdev's command line against its own --help.

Usage:
  check_options.py BINARY

Every option --help lists must be accepted as listed, and refused with a
one-line message naming it, a line pointing to --help and exit status 2
when its value is wrong: a flag given a value, a value missing, a number
just outside the range its message states, a name not among its choices.
The edges of each range, each choice and a K suffix must be accepted.
The options whose being given counts in a check after the parse must
have it refuse.
Nothing runs past the parse: each accepted command line ends in --help,
which prints the usage and exits 0 before EAL starts.
"""

import re
import subprocess
import sys

APP = "swtim-test-eventdev"
USAGE_RC = 2
# Lines of --help that list an option: two spaces, then the option.
OPTION_LINE = re.compile(r"^  --([a-z_-]+)(?:=(\S+))?")
RANGE = re.compile(r"want (?:'(\w+)' or )?a number in (\d+)\.\.(\d+), got")
CHOICES = re.compile(r"want ([\w, ]+?), got")
# dpdk-test-eventdev's options for timer runs, whose command lines this
# application takes unchanged: --help must list each.
UPSTREAM = """test dev plcores wlcores stlist nb_flows nb_timers nb_timer_adptrs
    timer_tick_nsec max_tmo_nsec expiry_nsec pool_sz prod_type_timerdev
    prod_type_timerdev_burst prod_enq_burst_sz worker_deq_depth fwd_latency
    queue_priority deq_tmo_nsec socket_id nb_pkts verbose help""".split()
# Options whose being given (not only their value) counts in a check
# after the parse: each command line is refused by that check, with a
# message naming the option.
RUN = ["--prod_type_timerdev_burst", "--plcores=1", "--wlcores=2"]
GIVEN = [
    # --prod_type_timerdev_burst counts as --prod_type_timerdev too: the
    # check that wants one of them passes, the pool's check refuses.
    ("pool_sz", RUN + ["--pool_sz=15"]),
    ("swtim-driver", RUN + ["--adapter=dpdk", "--swtim-driver=wheel"]),
    ("swtim-args", RUN + ["--adapter=dpdk", "--swtim-args=x=1"]),
    # The default load is count, which takes no rate.
    ("load-rate", RUN + ["--load-rate=5"]),
]


class Checker:
    def __init__(self, binary):
        self.binary = binary
        self.failures = []
        self.runs = 0

    def run(self, *args):
        self.runs += 1
        p = subprocess.run([self.binary, "--"] + list(args),
                           capture_output=True, text=True, timeout=30)
        return p.returncode, p.stdout, p.stderr

    def fail(self, what):
        self.failures.append(what)

    def accepted(self, *args):
        """The parse accepts args: --help after them is reached."""
        rc, out, err = self.run(*args, "--help")
        if rc != 0 or not out.startswith("Usage:"):
            self.fail("%s refused (rc %d): %s" % (" ".join(args), rc,
                                                   err.strip()))

    def refused(self, name, *args):
        """args are refused with a message naming --name; its text."""
        rc, out, err = self.run(*args)
        lines = err.splitlines()
        cmd = " ".join(args)
        if rc != USAGE_RC:
            self.fail("%s: exit status %d, expected %d" % (cmd, rc, USAGE_RC))
        elif out != "":
            self.fail("%s: printed to stdout (the usage?)" % cmd)
        elif len(lines) != 2 or lines[1] != APP + ": see --help":
            self.fail("%s: want a message and 'see --help', got %r"
                      % (cmd, err))
        elif name is not None and "--" + name not in lines[0]:
            self.fail("%s: message does not name --%s: %s"
                      % (cmd, name, lines[0]))
        return lines[0] if lines else ""

    def check_value_option(self, name, metavar):
        self.refused(name, "--" + name)         # the value missing
        rc, _, _ = self.run("--%s=@bogus" % name, "--help")
        if rc == 0:
            # A string: anything goes but a value too long for it.
            self.refused(name, "--%s=%s" % (name, "x" * 5000))
            return
        msg = self.refused(name, "--%s=@bogus" % name)
        m = RANGE.search(msg)
        if m:
            word, lo, hi = m.group(1), int(m.group(2)), int(m.group(3))
            if word:
                self.accepted("--%s=%s" % (name, word))
            self.accepted("--%s=%d" % (name, lo))
            self.accepted("--%s=%d" % (name, hi))
            if lo > 0:
                self.refused(name, "--%s=%d" % (name, lo - 1))
            self.refused(name, "--%s=%d" % (name, hi + 1))
            if lo <= 1024 <= hi:
                self.accepted("--%s=1K" % name)
            return
        m = CHOICES.search(msg)
        if m:
            choices = re.split(r", | or ", m.group(1))
            if "|" in metavar and metavar.split("|") != choices:
                self.fail("--%s: --help lists %s, the parser wants %s"
                          % (name, metavar, choices))
            for choice in choices:
                self.accepted("--%s=%s" % (name, choice))
            return
        if metavar == "LIST":
            self.accepted("--%s=1,3-4" % name)
        elif metavar == "TYPES":
            self.accepted("--%s=a,o,p" % name)
        else:
            self.fail("--%s=%s: refusal not understood: %s"
                      % (name, metavar, msg))

    def check(self):
        rc, out, err = self.run("--help")
        if rc != 0 or not out.startswith("Usage:") or err != "":
            self.fail("--help: exit status %d, stderr %r" % (rc, err))
            return
        options = [OPTION_LINE.match(l).groups() for l in out.splitlines()
                   if OPTION_LINE.match(l)]
        names = [n for n, _ in options]
        if len(set(names)) != len(names):
            self.fail("--help lists an option twice: %s" % names)
        for name in UPSTREAM:
            if name not in names:
                self.fail("--help does not list --%s" % name)
        for name, metavar in options:
            if metavar is None:
                self.accepted("--" + name)
                self.refused(name, "--%s=1" % name)
            else:
                self.check_value_option(name, metavar)
        for name, args in GIVEN:
            self.refused(name, *args)
        self.refused(None, "--no-such-option")
        self.refused(None, "stray-argument")


def main():
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    c = Checker(sys.argv[1])
    c.check()
    for f in c.failures:
        print("FAIL:", f)
    print("%d command lines, %d failures" % (c.runs, len(c.failures)))
    return 1 if c.failures else 0


if __name__ == "__main__":
    sys.exit(main())
