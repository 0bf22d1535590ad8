/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The swtim authors
 */

/* What happens to a lane whose lock or claim a dead process holds. */

#include <errno.h>

#include "swtim_lane.h"
#include "swtim_log.h"

void
swtim_lane_kill(struct swtim_lane *lane)
{
	uint32_t alive = 0;

	if (__atomic_compare_exchange_n(&lane->dead, &alive, 1, false,
					__ATOMIC_RELAXED, __ATOMIC_RELAXED))
		SWTIM_LOG(ERR, "lane %u: a process died holding its lock or "
			  "claim (killed inside an arm or a cancel); its timers "
			  "are lost, the other lanes go on", lane->id);
}

int
swtim_lane_lock_wait(struct swtim_lane *lane)
{
	if (swtim_lane_dead(lane))
		return -ENOTRECOVERABLE;
	if (swtim_olock_wait(&lane->lock, 0) == 0)
		return 0;
	swtim_lane_kill(lane);
	return -ENOTRECOVERABLE;
}

bool
swtim_lane_probe(struct swtim_lane *lane)
{
	if (!swtim_lane_dead(lane) &&
	    (swtim_olock_abandoned(&lane->lock) ||
	     swtim_olock_abandoned(&lane->claim)))
		swtim_lane_kill(lane);
	return swtim_lane_dead(lane);
}
