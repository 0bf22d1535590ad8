/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The swtim authors
 */

#ifndef SWTIM_POLL_SET_H
#define SWTIM_POLL_SET_H

/**
 * @file
 * The set of lanes (swtim_lane.h) the service scans: only those that
 * have ever had a timer armed into them.
 *
 * Joining is race-free and lock-free after the first time: a member flag
 * read with acquire keeps the lock off the arm path; the first arm from an
 * lcore takes the lock, appends the id and publishes the new count with
 * release. The service loads the count with acquire and reads only ids
 * below it, which never change once written.
 */

#include <stdint.h>

#include <rte_branch_prediction.h>
#include <rte_common.h>
#include <rte_debug.h>

#include "swtim_lane.h"
#include "swtim_olock.h"

/** The set. Initialise with swtim_poll_set_init(). */
struct swtim_poll_set {
	uint8_t member[SWTIM_LANES_MAX];
	/* Held with STEAL: a join commits with the count's store. */
	swtim_olock_t lock __rte_cache_aligned;
	uint32_t count;
	uint16_t ids[SWTIM_LANES_MAX];
};

/**
 * Initialise an empty set.
 *
 * @param set
 *   The set (zeroed memory).
 */
static inline void
swtim_poll_set_init(struct swtim_poll_set *set)
{
	swtim_olock_init(&set->lock);
}

/**
 * Add an id to the set if it is not there yet.
 *
 * @param set
 *   The set.
 * @param id
 *   A lane id, below SWTIM_LANES_MAX.
 */
static __rte_always_inline void
swtim_poll_set_join(struct swtim_poll_set *set, unsigned int id)
{
	uint32_t i;

	if (likely(__atomic_load_n(&set->member[id], __ATOMIC_ACQUIRE)))
		return;
	/* Cannot fail: the lock is only held with STEAL. */
	RTE_VERIFY(swtim_olock_lock(&set->lock, SWTIM_OLOCK_STEAL) == 0);
	/* A joiner killed between the count's store and the flag's left
	 * the id in: look before adding it. */
	for (i = 0; !set->member[id] && i < set->count && set->ids[i] != id;)
		i++;
	if (!set->member[id] && i == set->count) {
		set->ids[set->count] = id;
		__atomic_store_n(&set->count, set->count + 1, __ATOMIC_RELEASE);
	}
	__atomic_store_n(&set->member[id], 1, __ATOMIC_RELEASE);
	swtim_olock_unlock(&set->lock);
}

/**
 * Number of ids the caller may read from set->ids.
 *
 * @param set
 *   The set.
 * @return
 *   The count, loaded with acquire.
 */
static __rte_always_inline uint32_t
swtim_poll_set_count(const struct swtim_poll_set *set)
{
	return __atomic_load_n(&set->count, __ATOMIC_ACQUIRE);
}

#endif /* SWTIM_POLL_SET_H */
