/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The swtim authors
 */

/*
 * The adapter's service (swtim_service.h): registering it, quiescing it
 * before free, and the one loop every driver's adapter runs. A run goes
 * one way: the gate, the device's readiness, the clock; then for each
 * lane that may have work, claimed, its buffer offered to the device, the
 * driver's expire, that burst offered (swtim_service_lane_work()), the
 * driver called back only to put periodic timers back; then the ports'
 * maintenance and the idle sleep.
 */

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>

#include <rte_branch_prediction.h>
#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_lcore.h>

#include "swtim_base.h"
#include "swtim_log.h"
#include "swtim_tunables.h"

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

/*
 * Offer a claimed lane's buffered events to the device through port, and
 * for a periodic adapter give the timers of those it took back to the
 * driver for their next period. Returns the events the device took.
 */
static uint32_t
swtim_service_flush(struct swtim_base *base,
		    const struct swtim_driver_ops *ops, struct swtim_lane *lane,
		    struct swtim_port *port)
{
	uint32_t first = lane->evbuf.head, accepted;

	/* A one-shot timer stops counting once the device has its event. */
	accepted = swtim_evbuf_flush(&lane->evbuf, port,
				     base->periodic ? NULL : &base->budget,
				     &lane->stats.evtim_retry_count);
	lane->stats.ev_enq_count += accepted;
	if (base->periodic && accepted != 0)
		ops->periodic_resume(base, lane, first, accepted);
	return accepted;
}

/*
 * Work on a claimed lane: what its buffer holds goes first, for while
 * the device refuses it, expiring more would only grow the buffer (the
 * due timers stay in their store, still counted, until the device takes
 * events); then the driver expires what is due, SWTIM_EXPIRE_BURST at a
 * time, each burst offered at once, for as long as the device takes them
 * all. Return whether anything expired or went to the device.
 */
static bool
swtim_service_lane_work(struct swtim_base *base,
			const struct swtim_driver_ops *ops,
			struct swtim_lane *lane, struct swtim_port *port,
			uint64_t now)
{
	uint32_t sent = 0, n, expired = 0;

	if (unlikely(lane->evbuf.evs == NULL) &&
	    swtim_evbuf_init(&lane->evbuf, 0, base->socket,
			     base->periodic) != 0)
		return false;	/* no memory: the timers wait for a later run */
	if (swtim_evbuf_count(&lane->evbuf) != 0) {
		sent = swtim_service_flush(base, ops, lane, port);
		if (swtim_evbuf_count(&lane->evbuf) != 0)
			return sent != 0;
	}
	do {
		n = ops->expire(base, lane, now, SWTIM_EXPIRE_BURST);
		if (n == 0)
			break;
		expired += n;
		sent += swtim_service_flush(base, ops, lane, port);
	} while (n >= SWTIM_EXPIRE_BURST &&
		 swtim_evbuf_count(&lane->evbuf) == 0);
	return expired != 0 || sent != 0;
}

int32_t
swtim_service_run(void *arg)
{
	struct swtim_base *base = arg;
	const struct swtim_driver_ops *ops = swtim_base_ops(base);
	uint32_t i, nb_polled;
	uint64_t now;
	int32_t ret = -EAGAIN;
	bool worked = false;

	if (!swtim_gate_enter(&base->gate) ||
	    (ops->run_begin != NULL && !ops->run_begin(base)))
		goto out;
	/*
	 * The device stopped under a started adapter (by the application,
	 * or left stopped by a create whose restart of it failed):
	 * everything waits where it is, as if the adapter were stopped,
	 * until the device runs again.
	 */
	if (unlikely(!swtim_ports_device_ready(&base->ports)))
		goto out;

	now = rte_get_timer_cycles();
	swtim_base_ticks_account(base, swtim_base_tick_of(base, now));
	nb_polled = swtim_poll_set_count(&base->polled);
	for (i = 0; i < nb_polled; i++) {
		struct swtim_lane *lane =
			swtim_base_lane(base, base->polled.ids[i]);

		/*
		 * Unlocked hints: events the device has just refused, which
		 * hold back what is due anyway; or nothing to flush and
		 * nothing due.
		 */
		if (swtim_evbuf_count(&lane->evbuf) != 0 ?
		    swtim_evbuf_backing_off(&lane->evbuf, now) :
		    !ops->due(base, lane, now))
			continue;
		/* Dead, or another service lcore has it. */
		if (swtim_lane_dead(lane) || !swtim_lane_claim(lane))
			continue;
		worked |= swtim_service_lane_work(base, ops, lane,
				swtim_ports_of(&base->ports, i), now);
		swtim_lane_release(lane);
		ret = 0;
	}
	swtim_ports_maintain(&base->ports, now);
	if (base->idle.max_sleep_us != 0)
		swtim_idle_after_run(&base->idle, worked, worked ? 0 :
				     swtim_base_deadline(base));
out:
	swtim_gate_leave(&base->gate);
	return ret;
}
