/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The swtim authors
 */

#include <sched.h>
#include <stdio.h>
#include <string.h>

#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_lcore.h>

#include "swtim_log.h"
#include "swtim_service.h"

int
swtim_service_register(const char *driver, uint16_t adapter_id,
		       rte_service_func run, void *arg, int socket,
		       bool mt_safe, uint32_t *service_id)
{
	struct rte_service_spec spec;
	int ret;

	memset(&spec, 0, sizeof(spec));
	snprintf(spec.name, sizeof(spec.name), "swtim_%s_%u", driver,
		 adapter_id);
	spec.callback = run;
	spec.callback_userdata = arg;
	spec.socket_id = socket;
	spec.capabilities = mt_safe ? RTE_SERVICE_CAP_MT_SAFE : 0;
	ret = rte_service_component_register(&spec, service_id);
	if (ret != 0)
		SWTIM_LOG(ERR, "cannot register service %s: %d", spec.name,
			  ret);
	return ret;
}

/* How long quiescing waits before it says in the log what it waits for. */
#define SWTIM_QUIESCE_WARN_MS 1000
/*
 * How long it waits for a service lcore the service is not mapped to (the
 * application may have unmapped it while that lcore was about to call):
 * such a lcore counts no loops at all once it has no service left.
 */
#define SWTIM_QUIESCE_UNMAPPED_MS 10

/* Whether lcore may still be in the loop it was in when it counted loops. */
static bool
swtim_lcore_in_loop(uint32_t lcore, uint64_t loops)
{
	uint64_t now_loops;

	return rte_service_lcore_may_be_active(lcore) == 1 &&
		rte_service_lcore_attr_get(lcore, RTE_SERVICE_LCORE_ATTR_LOOPS,
					   &now_loops) == 0 &&
		now_loops == loops;
}

void
swtim_service_quiesce(uint32_t service_id)
{
	const uint64_t hz = rte_get_timer_hz();
	uint32_t lcores[RTE_MAX_LCORE];
	uint64_t loops[RTE_MAX_LCORE], start, limit;
	bool mapped, warned = false;
	int32_t n, i;

	n = rte_service_lcore_list(lcores, RTE_DIM(lcores));
	for (i = 0; i < n; i++)
		if (rte_service_lcore_attr_get(lcores[i],
				RTE_SERVICE_LCORE_ATTR_LOOPS, &loops[i]) != 0)
			loops[i] = UINT64_MAX;	/* cannot tell: not waited for */
	start = rte_get_timer_cycles();
	for (i = 0; i < n; i++) {
		if (loops[i] == UINT64_MAX)
			continue;
		/* A lcore the service is mapped to loops as long as it runs. */
		mapped = rte_service_map_lcore_get(service_id, lcores[i]) == 1;
		limit = hz * (mapped ? SWTIM_QUIESCE_WARN_MS :
			      SWTIM_QUIESCE_UNMAPPED_MS) / MS_PER_S;
		while (swtim_lcore_in_loop(lcores[i], loops[i])) {
			if (rte_get_timer_cycles() - start > limit) {
				if (!mapped)
					break;
				if (!warned)
					SWTIM_LOG(WARNING, "service %u: service"
						  " lcore %u has not finished a"
						  " loop for %u ms; waiting"
						  " before releasing the"
						  " adapter", service_id,
						  lcores[i],
						  SWTIM_QUIESCE_WARN_MS);
				warned = true;
			}
			/* It may need this CPU to get on. */
			sched_yield();
		}
	}
}
