/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The swtim authors
 */

#ifndef SWTIM_OLOCK_H
#define SWTIM_OLOCK_H

/**
 * @file
 * A spinlock in shared memory that knows who holds it: its word is the
 * holder's process tag (swtim_proc.h), so a waiter can tell when the
 * holder is dead (a secondary process killed inside an arm or a cancel)
 * instead of spinning for ever. What happens then depends on what the
 * lock guards, said by the holder when it takes the lock:
 *
 * - held plainly, the state behind the lock may be half changed: the
 *   waiter gets -ENOTRECOVERABLE (as a robust mutex's would), the lock
 *   stays held, and the caller gives up on what it guards for good;
 * - held with SWTIM_OLOCK_STEAL, the holder commits its change with one
 *   store (or has changed nothing that matters): a waiter that finds it
 *   dead takes the lock over and goes on.
 *
 * Uncontended, taking and releasing cost what rte_spinlock's do: one
 * compare-and-swap and one store. A waiter asks whether the holder lives
 * once every SWTIM_OLOCK_CHECK_SPINS spins, and a holder in the waiter's
 * own process is never asked about.
 */

#include <stdbool.h>
#include <stdint.h>

#include <rte_branch_prediction.h>
#include <rte_common.h>
#include <rte_debug.h>

#include "swtim_proc.h"
#include "swtim_tunables.h"

/** Taken with this bit, a lock whose holder died may be taken over. */
#define SWTIM_OLOCK_STEAL (UINT32_C(1) << 31)

/** The lock: 0 when free, else its holder's tag (and how it holds). */
typedef struct {
	uint32_t holder;
} swtim_olock_t;

/**
 * Initialise a lock, free.
 *
 * @param lock
 *   The lock.
 */
static inline void
swtim_olock_init(swtim_olock_t *lock)
{
	__atomic_store_n(&lock->holder, 0, __ATOMIC_RELAXED);
}

/**
 * Take the lock if it is free; never waits.
 *
 * @param lock
 *   The lock.
 * @param how
 *   0, or SWTIM_OLOCK_STEAL.
 * @return
 *   true if the caller holds it now.
 */
static __rte_always_inline bool
swtim_olock_trylock(swtim_olock_t *lock, uint32_t how)
{
	uint32_t free = 0;

	RTE_ASSERT(swtim_proc_tag != 0);
	return __atomic_compare_exchange_n(&lock->holder, &free,
			swtim_proc_tag | how, false, __ATOMIC_ACQUIRE,
			__ATOMIC_RELAXED);
}

/**
 * The slow path of swtim_olock_lock(): wait for the lock.
 *
 * @param lock
 *   The lock.
 * @param how
 *   0, or SWTIM_OLOCK_STEAL.
 * @return
 *   0 once held; -ENOTRECOVERABLE if it is held plainly by a dead process
 *   (and stays so).
 */
int swtim_olock_wait(swtim_olock_t *lock, uint32_t how);

/**
 * Take the lock, waiting while a live process holds it.
 *
 * @param lock
 *   The lock.
 * @param how
 *   0, or SWTIM_OLOCK_STEAL (the caller changes what the lock guards with
 *   one store, so a waiter may take the lock over if the caller dies).
 * @return
 *   0 once held; -ENOTRECOVERABLE if a dead process holds it plainly.
 */
static __rte_always_inline int
swtim_olock_lock(swtim_olock_t *lock, uint32_t how)
{
	if (likely(swtim_olock_trylock(lock, how)))
		return 0;
	return swtim_olock_wait(lock, how);
}

/**
 * Release a lock taken with swtim_olock_lock() or _trylock().
 *
 * @param lock
 *   The lock.
 */
static __rte_always_inline void
swtim_olock_unlock(swtim_olock_t *lock)
{
	__atomic_store_n(&lock->holder, 0, __ATOMIC_RELEASE);
}

/**
 * Whether a lock is held plainly by a dead process: held for good.
 *
 * @param lock
 *   The lock.
 * @return
 *   true if nobody will ever release it.
 */
bool swtim_olock_abandoned(const swtim_olock_t *lock);

#endif /* SWTIM_OLOCK_H */
