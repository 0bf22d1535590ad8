/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The swtim authors
 */

#include <errno.h>
#include <stdlib.h>

#include <rte_cycles.h>
#include <rte_lcore.h>

#include "swtim_idle.h"
#include "swtim_log.h"

static int
swtim_idle_parse(const char *key, const char *value, void *opaque)
{
	uint32_t *max_sleep_us = opaque;
	unsigned long v;
	char *end;

	if (value == NULL) {
		SWTIM_LOG(ERR, "%s needs a value", key);
		return -EINVAL;
	}
	errno = 0;
	v = strtoul(value, &end, 10);
	/* strtoul() takes a sign and wraps "-1": digits only. */
	if (value[0] < '0' || value[0] > '9' || end == value ||
	    *end != '\0') {
		SWTIM_LOG(ERR, "driver option %s=\"%s\": not a whole number of"
			  " microseconds (0 to %u)", key, value,
			  SWTIM_IDLE_MAX_SLEEP_US);
		return -EINVAL;
	}
	if (errno != 0 || v > SWTIM_IDLE_MAX_SLEEP_US) {
		SWTIM_LOG(ERR, "driver option %s=\"%s\": above %u us, the"
			  " longest sleep", key, value,
			  SWTIM_IDLE_MAX_SLEEP_US);
		return -EINVAL;
	}
	*max_sleep_us = v;
	return 0;
}

int
swtim_idle_init(struct swtim_idle *idle, const struct rte_kvargs *args)
{
	if (args == NULL || rte_kvargs_count(args, SWTIM_IDLE_ARG) == 0)
		return 0;
	return rte_kvargs_process(args, SWTIM_IDLE_ARG, swtim_idle_parse,
				  &idle->max_sleep_us) == 0 ? 0 : -EINVAL;
}

void
swtim_idle_after_run(struct swtim_idle *idle, bool worked,
		     uint64_t next_deadline)
{
	unsigned int lcore = rte_lcore_id();
	uint32_t *backoff;
	uint64_t now, hz, until, margin;

	if (idle->max_sleep_us == 0)
		return;
	backoff = &idle->sleep_us[RTE_MIN(lcore, (unsigned int)RTE_MAX_LCORE)];
	if (worked) {
		*backoff = 0;
		return;
	}
	*backoff = RTE_MIN(*backoff + SWTIM_IDLE_STEP_US, idle->max_sleep_us);

	hz = rte_get_timer_hz();
	now = rte_get_timer_cycles();
	until = now + (uint64_t)*backoff * hz / US_PER_S;
	margin = (uint64_t)SWTIM_IDLE_MARGIN_US * hz / US_PER_S;
	if (next_deadline != UINT64_MAX)
		until = RTE_MIN(until, next_deadline > margin ?
				next_deadline - margin : 0);
	if (until > now)
		rte_delay_us_sleep((until - now) * US_PER_S / hz);
}
