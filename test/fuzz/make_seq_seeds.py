#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The swtim authors
"""Write the seed sequences of fuzz_seq (and the differential test) into
corpus/seq/, in the byte format seq_exec.c reads (see seq_step_read()).
Run from anywhere; the seeds are committed, this is how they were made."""

import os
import sys

CREATE, START, STOP, FREE, ARM, ARM_TMO, CANCEL, REMAINING, STATS, \
    SERVICE, LOOKUP, INFO = range(12)
NB_OPS = 12
SHORT = 11          # timeout byte: 1 + 11 / 10 % 4 = 2 ticks
ZERO, LONG, MAX, OVER = 0, 5, 6, 7
FRESH, FRESH_PAR, KEEP, MISMATCH, BADQ, FIELDS = 0, 0x10, 8, 10, 11, 12


def op(code, slot=0):
    return bytes([code + NB_OPS * slot])


def create(slot=0, ext=False, periodic=False, mapped=True, nb=15):
    b = (1 if ext else 0) | (2 if periodic else 0) | \
        (0 if mapped else 0x1c) | (((nb - 1) // 2) << 5)
    return op(CREATE, slot) + bytes([b])


def tmo_bytes(t):
    return bytes([t]) + (b'\0\0' if t == LONG else b'')


def arm(slot, entries, tmo_op=False):
    """entries: (timer index or None, timeout byte, prepare byte)"""
    out = op(ARM_TMO if tmo_op else ARM, slot) + bytes([len(entries)])
    for k, (idx, t, prep) in enumerate(entries):
        out += bytes([0xff if idx is None else idx])
        if not tmo_op or k == 0:
            out += tmo_bytes(t)
        if idx is not None:
            out += bytes([prep, 0])   # how, and the state it may pick
    return out


def cancel(slot, idxs):
    out = op(CANCEL, slot) + bytes([len(idxs)])
    for idx in idxs:
        out += bytes([0xff if idx is None else idx, SHORT])
    return out


def service(slot=0, wait=True, iters=1):
    return op(SERVICE, slot) + bytes([(0 if wait else 1) | ((iters - 1) << 1)])


def simple(*parts):
    return b''.join(parts)


SEEDS = {
    'oneshot': simple(b'\0', create(), op(START),
                      arm(0, [(i, SHORT, FRESH) for i in range(4)]),
                      service(), op(STATS) + b'\0', op(STOP), op(FREE)),
    'oneshot-skiplist': simple(b'\1', create(ext=True), op(START),
                               arm(0, [(1, SHORT, FRESH_PAR), (2, LONG, FRESH)]),
                               op(REMAINING) + b'\2', service(),
                               cancel(0, [2, 2]), op(STOP), op(FREE)),
    'periodic': simple(b'\0', create(periodic=True), op(START),
                       arm(0, [(0, SHORT, FRESH), (1, SHORT, FRESH)]),
                       service(), service(), cancel(0, [0, 1]), service()),
    'errors': simple(b'\0', arm(0, [(0, SHORT, FRESH)]), create(),
                     arm(0, [(None, SHORT, 0)]),
                     arm(0, [(1, ZERO, FRESH)]), arm(0, [(2, OVER, FRESH)]),
                     arm(0, [(3, SHORT, MISMATCH)]), arm(0, [(4, SHORT, BADQ)]),
                     cancel(0, [5]), op(REMAINING) + b'\5',
                     op(LOOKUP) + b'\0', op(LOOKUP) + b'\3', op(LOOKUP) + b'\4',
                     op(INFO) + b'\0', op(INFO) + b'\1', op(INFO) + b'\7'),
    'two-adapters': simple(b'\0', create(0), create(1, ext=True),
                           op(START, 0), op(START, 1),
                           arm(0, [(0, LONG, FRESH), (1, SHORT, FRESH)]),
                           cancel(1, [0]), op(REMAINING, 1) + b'\0',
                           arm(1, [(0, SHORT, FRESH)]), service(0),
                           op(FREE, 0), op(STOP, 0), op(FREE, 0),
                           op(START, 0), arm(0, [(2, SHORT, FRESH)])),
    'nospace': simple(b'\1', create(nb=1), op(START),
                      arm(0, [(0, LONG, FRESH), (1, LONG, FRESH)]),
                      cancel(0, [0]), arm(0, [(1, LONG, KEEP)], True),
                      op(STATS) + b'\1', op(STOP), op(FREE)),
    'event-fields': simple(b'\0', create(nb=3), op(START),
                           arm(0, [(0, SHORT, FIELDS), (1, SHORT, FRESH)]),
                           service(), op(STATS) + b'\0'),
    'unmapped': simple(b'\0', create(mapped=False), op(START),
                       arm(0, [(0, SHORT, FRESH)]), service(), op(FREE)),
    'stop-start': simple(b'\0', create(), op(START),
                         arm(0, [(0, SHORT, FRESH)], True), op(STOP),
                         service(), op(START), op(START), service(),
                         arm(0, [(0, MAX, KEEP)]), op(FREE), op(STOP),
                         op(FREE), create()),
}

out = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'corpus', 'seq')
if len(sys.argv) > 1 and sys.argv[1] in ('-h', '--help'):
    print(__doc__)
    sys.exit(0)
os.makedirs(out, exist_ok=True)
for name, data in SEEDS.items():
    with open(os.path.join(out, name), 'wb') as f:
        f.write(data)
