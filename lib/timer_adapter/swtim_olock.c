/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The swtim authors
 */

/* The waiting side of swtim_olock.h. */

#include <errno.h>

#include <rte_pause.h>

#include "swtim_olock.h"

int
swtim_olock_wait(swtim_olock_t *lock, uint32_t how)
{
	uint32_t seen, spins = 0;

	for (;;) {
		seen = __atomic_load_n(&lock->holder, __ATOMIC_RELAXED);
		if (seen == 0) {
			if (swtim_olock_trylock(lock, how))
				return 0;
			continue;
		}
		if (++spins % SWTIM_OLOCK_CHECK_SPINS == 0 &&
		    swtim_proc_tag_dead(seen)) {
			if (!(seen & SWTIM_OLOCK_STEAL))
				return -ENOTRECOVERABLE;
			/* Whole behind the lock: take it over, unless
			 * another waiter has just done so. */
			if (__atomic_compare_exchange_n(&lock->holder, &seen,
					swtim_proc_tag | how, false,
					__ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
				return 0;
			continue;
		}
		rte_pause();
	}
}

bool
swtim_olock_abandoned(const swtim_olock_t *lock)
{
	uint32_t seen = __atomic_load_n(&lock->holder, __ATOMIC_RELAXED);

	return seen != 0 && !(seen & SWTIM_OLOCK_STEAL) &&
		swtim_proc_tag_dead(seen);
}
