/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The swtim authors
 */

#ifndef FAULT_ALLOC_H
#define FAULT_ALLOC_H

/**
 * @file
 * An interposer in front of DPDK's allocators, for tests that make
 * allocations fail one at a time.
 *
 * A program linked with fault_alloc.c (and -rdynamic, so that shared
 * libraries find them) defines rte_malloc(), rte_zmalloc(), rte_calloc(),
 * rte_realloc(), their _socket variants and rte_memzone_reserve*(): the
 * dynamic linker binds libswtim's calls, and DPDK's own (rte_ring_create()
 * reserving its memzone, an event device's port set-up), to them. Each
 * passes the call on to the real function (dlsym(RTLD_NEXT)) unless a
 * failure is armed for it, in which case it returns NULL with rte_errno
 * ENOMEM. An allocator that calls another (rte_zmalloc() calling
 * rte_malloc_socket()) counts once: the outermost call.
 *
 * Counting starts when a failure is armed and only counts calls from the
 * thread chosen (any thread, or one lcore), so a test can fail the n-th
 * allocation of a create, or every allocation a service lcore makes.
 */

#include <stdbool.h>
#include <stdint.h>

/** Count calls from any thread. */
#define FAULT_ALLOC_ANY_LCORE UINT32_MAX

/**
 * Arm: calls counted from now on, from threads whose lcore id is lcore
 * (or any, FAULT_ALLOC_ANY_LCORE), fail from the first-th (counting from
 * 1) to the last-th, inclusive; UINT64_MAX as last fails every one from
 * first on.
 */
void fault_alloc_arm(uint64_t first, uint64_t last, uint32_t lcore);
/** Disarm; counts stay readable until the next arm. */
void fault_alloc_disarm(void);
/** Calls counted since the last arm. */
uint64_t fault_alloc_calls(void);
/** Calls failed since the last arm. */
uint64_t fault_alloc_failed(void);

#endif /* FAULT_ALLOC_H */
