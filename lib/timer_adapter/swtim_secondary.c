/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The swtim authors
 */

/*
 * What a secondary process does differently (swtim.h, "Multi-process"):
 * at lookup it checks that the adapter's driver is its own driver of the
 * same index and lets the driver attach per-process state; and its arms
 * refuse event timers outside DPDK's memory, which the primary's service
 * could not write.
 *
 * That check costs the primary nothing: a secondary's driver ops are a
 * copy of the driver's, made at its first lookup, with arm_burst
 * replaced, and the fast path finds ops by driver index in a per-process
 * table (swtim_driver.c), so only secondaries call the checking arm.
 */

#include <errno.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_memory.h>

#include "swtim_adapter_pvt.h"
#include "swtim_base.h"
#include "swtim_log.h"

/* A secondary's ops of each driver, under swtim_adapters_lock. */
static struct swtim_driver_ops swtim_secondary_ops[SWTIM_DRIVERS_MAX];

/*
 * The driver's arm for the front of the burst whose timers are in DPDK
 * memory (its memseg lists: hugepages and registered external memory);
 * EINVAL at the first that is not.
 */
static uint16_t
swtim_secondary_arm_burst(struct swtim_base *base,
			  struct rte_event_timer **evtims,
			  uint64_t timeout_ticks, uint16_t nb)
{
	const struct swtim_driver *drv =
		swtim_drivers_by_index[base->drv_index];
	uint16_t n, armed = 0;

	for (n = 0; n < nb; n++)
		if (rte_mem_virt2memseg_list(evtims[n]) == NULL)
			break;
	if (n > 0)
		armed = drv->ops->arm_burst(base, evtims, timeout_ticks, n);
	if (armed == n && n < nb) {
		SWTIM_LOG(ERR, "arm: timer %p of adapter %u is not in DPDK "
			  "memory (rte_malloc, mempool): the primary could not "
			  "deliver it", (void *)evtims[n], base->id);
		rte_errno = EINVAL;
	}
	return armed;
}

/* Point this process's ops of drv at its checking copy, once. */
static void
swtim_secondary_ops_set(const struct swtim_driver *drv)
{
	struct swtim_driver_ops *ops = &swtim_secondary_ops[drv->index];

	pthread_mutex_lock(&swtim_adapters_lock);
	if (swtim_driver_ops_by_index[drv->index] != ops) {
		*ops = *drv->ops;
		ops->arm_burst = swtim_secondary_arm_burst;
		/* Threads arming meanwhile use either: both are right. */
		__atomic_store_n(&swtim_driver_ops_by_index[drv->index], ops,
				 __ATOMIC_RELEASE);
	}
	pthread_mutex_unlock(&swtim_adapters_lock);
}

int
swtim_adapter_secondary_attach(struct swtim_adapter *adapter)
{
	const struct swtim_driver *drv = NULL;
	int ret;

	if (adapter->drv_index < SWTIM_DRIVERS_MAX)
		drv = swtim_drivers_by_index[adapter->drv_index];
	if (drv == NULL || strcmp(drv->name, adapter->drv_name) != 0) {
		SWTIM_LOG(ERR, "lookup: adapter %u's driver \"%s\" is driver "
			  "%u in the primary, \"%s\" here: the processes run "
			  "different swtim builds", adapter->id,
			  adapter->drv_name, adapter->drv_index,
			  drv == NULL ? "none" : drv->name);
		rte_errno = ENOTSUP;
		return -1;
	}
	if (drv->ops->attach != NULL) {
		ret = drv->ops->attach(swtim_adapter_base(adapter));
		if (ret != 0) {
			SWTIM_LOG(ERR, "lookup: driver %s cannot attach adapter"
				  " %u in this process: %s", drv->name,
				  adapter->id, strerror(-ret));
			rte_errno = -ret;
			return -1;
		}
	}
	swtim_secondary_ops_set(drv);
	return 0;
}
