/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The swtim authors
 */

#ifndef SWTIM_PROC_H
#define SWTIM_PROC_H

/**
 * @file
 * Which processes of the DPDK group are alive. Every process that uses
 * swtim takes a slot in a table in shared memory (a memzone) when it first
 * creates or looks up an adapter; its locks (swtim_olock.h) are tagged
 * with that slot and the slot's generation, so that whoever waits on a
 * lock can tell a holder that is slow from one that is dead (a secondary
 * killed inside an arm or a cancel) and need not wait for it for good.
 *
 * A slot whose process is dead is taken again by the next process that
 * needs one, with a new generation: a tag of the old generation then still
 * reads as dead.
 */

#include <stdbool.h>
#include <stdint.h>

#include "swtim_tunables.h"

/** Bits of a tag that name the slot. */
#define SWTIM_PROC_SLOT_BITS 8
_Static_assert(SWTIM_PROCS_MAX <= 1u << SWTIM_PROC_SLOT_BITS,
	       "a slot fits in a tag");
/** Generations a slot counts through (tag bits above the slot). */
#define SWTIM_PROC_GEN_MASK ((UINT32_C(1) << 23) - 1)

/**
 * This process's tag: its slot and the slot's generation, never 0 (the
 * generation starts at 1), below bit 31 (swtim_olock.h uses that bit).
 * 0 until swtim_proc_attach() has succeeded.
 */
extern uint32_t swtim_proc_tag;

/**
 * Take this process's slot (once; later calls return at once). Called
 * from swtim_adapters_attach(), before any adapter is handed out, so
 * every lock taken on an adapter is tagged.
 *
 * @return
 *   0, or -1 with rte_errno set: ENOMEM (the primary could not reserve the
 *   table), ENOENT (a secondary found none), ENOSPC (every slot is held by
 *   a live process). Logged.
 */
int swtim_proc_attach(void);

/**
 * Whether the process a tag names is gone: the slot has been taken again
 * since, or its process has exited or been killed (a zombie counts as
 * gone). This process's own tag is never gone. A live answer is kept for
 * a few milliseconds per slot, so callers may ask on every failed try.
 *
 * @param tag
 *   A tag, as swtim_proc_tag (bit 31 ignored).
 * @return
 *   true if the holder of that tag will never release what it holds.
 */
bool swtim_proc_tag_dead(uint32_t tag);

#endif /* SWTIM_PROC_H */
