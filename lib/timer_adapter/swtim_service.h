/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The swtim authors
 */

#ifndef SWTIM_SERVICE_H
#define SWTIM_SERVICE_H

/**
 * @file
 * The adapter's service: registering it, the gate between it and the
 * adapter's start/stop, and the one service loop every driver's adapter
 * runs, swtim_service_run().
 *
 * Stop must return only once no service run is inside the adapter, also
 * for runs made with rte_service_run_iter_on_app_lcore(), which the
 * service framework's own bookkeeping does not see. A run counts itself
 * in before it looks at the open flag and stop clears the flag before it
 * waits for the count to drop; with both sequentially consistent, either
 * stop sees the run or the run sees the closed gate.
 */

#include <stdbool.h>
#include <stdint.h>

#include <rte_pause.h>
#include <rte_service.h>
#include <rte_service_component.h>

/**
 * Register a driver's service, named "swtim_<driver>_<adapter id>".
 *
 * @param driver
 *   Short driver name for the service name.
 * @param adapter_id
 *   The adapter.
 * @param run
 *   The service function.
 * @param arg
 *   Its argument.
 * @param socket
 *   NUMA socket.
 * @param mt_safe
 *   Whether runs on several lcores at once are allowed.
 * @param[out] service_id
 *   The service id.
 * @return
 *   0 or the error of rte_service_component_register().
 */
int swtim_service_register(const char *driver, uint16_t adapter_id,
			   rte_service_func run, void *arg, int socket,
			   bool mt_safe, uint32_t *service_id);

/**
 * The service of every adapter: claims each lane that may have work,
 * offers what its buffer still holds to the device, lets the driver
 * expire what is due into the buffer and offers that (struct
 * swtim_driver_ops.expire), maintains the ports and idles. The argument
 * is the adapter's base.
 */
int32_t swtim_service_run(void *arg);

/** The gate. */
struct swtim_service_gate {
	bool open;
	uint32_t inside;
};

/**
 * Enter at the start of a service run.
 *
 * @param g
 *   The gate.
 * @return
 *   true if the adapter is started; either way call swtim_gate_leave().
 */
static inline bool
swtim_gate_enter(struct swtim_service_gate *g)
{
	__atomic_fetch_add(&g->inside, 1, __ATOMIC_SEQ_CST);
	return __atomic_load_n(&g->open, __ATOMIC_SEQ_CST);
}

/**
 * Leave at the end of a service run.
 *
 * @param g
 *   The gate.
 */
static inline void
swtim_gate_leave(struct swtim_service_gate *g)
{
	__atomic_fetch_sub(&g->inside, 1, __ATOMIC_RELEASE);
}

/**
 * Open the gate and let the service framework run the service.
 *
 * @param g
 *   The gate.
 * @param service_id
 *   The driver's service.
 * @return
 *   0 or the error of rte_service_component_runstate_set().
 */
static inline int
swtim_gate_open(struct swtim_service_gate *g, uint32_t service_id)
{
	__atomic_store_n(&g->open, true, __ATOMIC_SEQ_CST);
	return rte_service_component_runstate_set(service_id, 1);
}

/**
 * Close the gate and wait until no run is inside.
 *
 * @param g
 *   The gate.
 * @param service_id
 *   The driver's service.
 */
static inline void
swtim_gate_close(struct swtim_service_gate *g, uint32_t service_id)
{
	rte_service_component_runstate_set(service_id, 0);
	__atomic_store_n(&g->open, false, __ATOMIC_SEQ_CST);
	while (__atomic_load_n(&g->inside, __ATOMIC_SEQ_CST) != 0 ||
	       rte_service_may_be_active(service_id) == 1)
		rte_pause();
}

/**
 * Wait until no service lcore can still be about to call the service's
 * callback. DPDK's service runner reads a service's run state, then marks
 * the service active on its lcore and calls it: a runner that read the
 * state just before the service stopped may still make the call, unseen
 * by rte_service_may_be_active(). Harmless while the adapter exists (its
 * gate is closed), fatal once the callback's data is freed, so call after
 * the service stopped (component run state 0) and before unregistering it
 * or freeing what its callback uses. Each service lcore still running is
 * waited for until it has finished the loop it was in.
 *
 * @param service_id
 *   The service.
 */
void swtim_service_quiesce(uint32_t service_id);

#endif /* SWTIM_SERVICE_H */
