/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The swtim authors
 */

/*
 * The adapter's event ports: the ones swtim_adapter_create() adds to an
 * event device, setting up the service's side of each, and the enqueue
 * through them (swtim_port.h).
 *
 * Like DPDK's default port callback, create stops the device, configures
 * it again with one more port, sets that port up and restarts the device.
 * Unlike it, a port added this way is remembered and handed to the next
 * create on the same device once its adapter is freed, so that create/free
 * cycles do not use up the device's ports; as long as the device keeps
 * the configuration swtim left it with: a freed port is forgotten once
 * the device has another number of ports or the port has been linked to
 * a queue. (An application that configures the device again with the
 * same number of ports and uses a freed one without linking it cannot be
 * told apart: it frees its adapters and then owns those ports, see
 * swtim_adapter_free().)
 *
 * DPDK 22.11 does not let a library read back the device configuration
 * the application chose, so the new configuration is rebuilt from what the
 * public API does tell: the queue and port counts, the existing ports'
 * depths, the single-link queues and the dequeue timeout. The event limit
 * (nb_events_limit) cannot be read back and is set to the device's
 * maximum; an application that needs its own limit kept passes its own
 * port with swtim_adapter_create_ext().
 *
 * The table is only touched with swtim_adapters_lock held.
 */

#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_eventdev.h>

#include "swtim_adapter_pvt.h"
#include "swtim_base.h"
#include "swtim_log.h"
#include "swtim_port.h"

enum swtim_port_state {
	SWTIM_PORT_NONE = 0,	/* not added by swtim */
	SWTIM_PORT_FREE,	/* added by swtim, no adapter uses it */
	SWTIM_PORT_IN_USE,	/* added by swtim, an adapter uses it */
	/*
	 * Added by swtim, whose set-up failed. It cannot be taken off the
	 * device again: configuring the device with one port fewer would
	 * release it, and event_dsw's release does not expect a port never
	 * set up. The next create on the device sets it up instead of
	 * adding another, so failed creates leave at most this one port.
	 */
	SWTIM_PORT_UNSET,
};

static uint8_t
swtim_port_table[RTE_EVENT_MAX_DEVS][RTE_EVENT_MAX_PORTS_PER_DEV];

/*
 * The device's port count when swtim last added a port to it (0: never).
 * A device found with another count has been configured since by someone
 * else (the application closing it and setting it up again, another
 * library adding a port): the ports swtim had left free may now be
 * anybody's, and are forgotten.
 */
static uint32_t swtim_port_count_left[RTE_EVENT_MAX_DEVS];

/* Whether port p of the device is linked to a queue: never one of ours. */
static bool
swtim_port_linked(uint8_t dev_id, uint8_t port)
{
	uint8_t queues[RTE_EVENT_MAX_QUEUES_PER_DEV];
	uint8_t prios[RTE_EVENT_MAX_QUEUES_PER_DEV];

	return rte_event_port_links_get(dev_id, port, queues, prios) != 0;
}

/* Forget the free ports of a device that was configured anew. */
static void
swtim_ports_forget_free(uint8_t dev_id)
{
	uint32_t p;

	for (p = 0; p < RTE_EVENT_MAX_PORTS_PER_DEV; p++)
		if (swtim_port_table[dev_id][p] == SWTIM_PORT_FREE ||
		    swtim_port_table[dev_id][p] == SWTIM_PORT_UNSET)
			swtim_port_table[dev_id][p] = SWTIM_PORT_NONE;
}

static uint32_t
swtim_dev_attr(uint8_t dev_id, uint32_t attr)
{
	uint32_t v = 0;

	if (rte_event_dev_attr_get(dev_id, attr, &v) != 0)
		v = 0;
	return v;
}

/*
 * Rebuild the device's configuration, with extra ports more; fails if
 * the device has not that many left.
 */
static int
swtim_dev_conf_rebuild(uint8_t dev_id, uint32_t extra,
		       struct rte_event_dev_config *conf)
{
	struct rte_event_dev_info info;
	uint32_t nb_ports, nb_queues, q, cfg, depth;

	if (rte_event_dev_info_get(dev_id, &info) != 0)
		return -EINVAL;
	nb_ports = swtim_dev_attr(dev_id, RTE_EVENT_DEV_ATTR_PORT_COUNT);
	nb_queues = swtim_dev_attr(dev_id, RTE_EVENT_DEV_ATTR_QUEUE_COUNT);
	if (nb_ports + extra > info.max_event_ports) {
		SWTIM_LOG(ERR, "event device %u has no port left (max %u)",
			  dev_id, info.max_event_ports);
		return -EINVAL;
	}

	memset(conf, 0, sizeof(*conf));
	conf->dequeue_timeout_ns = info.dequeue_timeout_ns;
	conf->nb_events_limit = info.max_num_events;
	conf->nb_event_queues = nb_queues;
	conf->nb_event_ports = nb_ports + extra;
	conf->nb_event_queue_flows = info.max_event_queue_flows;
	conf->nb_event_port_dequeue_depth = info.max_event_port_dequeue_depth;
	conf->nb_event_port_enqueue_depth = info.max_event_port_enqueue_depth;
	if (nb_ports > 0) {
		/* Keep the depths the application gave its ports. */
		if (rte_event_port_attr_get(dev_id, 0,
				RTE_EVENT_PORT_ATTR_DEQ_DEPTH, &depth) == 0)
			conf->nb_event_port_dequeue_depth = depth;
		if (rte_event_port_attr_get(dev_id, 0,
				RTE_EVENT_PORT_ATTR_ENQ_DEPTH, &depth) == 0)
			conf->nb_event_port_enqueue_depth = depth;
	}
	for (q = 0; q < nb_queues; q++)
		if (rte_event_queue_attr_get(dev_id, q,
				RTE_EVENT_QUEUE_ATTR_EVENT_QUEUE_CFG, &cfg) == 0 &&
		    (cfg & RTE_EVENT_QUEUE_CFG_SINGLE_LINK))
			conf->nb_single_link_event_port_queues++;
	return 0;
}

/* Set up port of a stopped device configured as conf says. */
static int
swtim_port_setup(uint8_t dev_id, uint8_t port,
		 const struct rte_event_dev_config *conf)
{
	struct rte_event_port_conf port_conf;
	int ret;

	ret = rte_event_port_default_conf_get(dev_id, port, &port_conf);
	if (ret == 0) {
		/* The device's defaults may exceed what it was configured
		 * with (event_dsw: dequeue depth 32 against 16, say). */
		port_conf.dequeue_depth = RTE_MIN(port_conf.dequeue_depth,
				conf->nb_event_port_dequeue_depth);
		port_conf.enqueue_depth = RTE_MIN(port_conf.enqueue_depth,
				conf->nb_event_port_enqueue_depth);
		port_conf.new_event_threshold = RTE_MIN(
				port_conf.new_event_threshold,
				(int32_t)conf->nb_events_limit);
		ret = rte_event_port_setup(dev_id, port, &port_conf);
	}
	if (ret < 0)
		SWTIM_LOG(ERR, "setting up port %u of event device %u failed: "
			  "%d", port, dev_id, ret);
	return ret;
}

/*
 * Stop the started adapters on the device, as DPDK wants adapters
 * stopped before their device is: their services would enqueue into it
 * while it drains, or call its dummy functions once it has stopped.
 * Returns the ids of those stopped, as a mask, for
 * swtim_dev_adapters_resume().
 */
static uint64_t
swtim_dev_adapters_pause(uint8_t dev_id)
{
	uint64_t paused = 0;
	unsigned int i;

	RTE_BUILD_BUG_ON(SWTIM_ADAPTER_NUM_MAX > 64);
	for (i = 0; swtim_adapters != NULL && i < SWTIM_ADAPTER_NUM_MAX; i++) {
		struct swtim_adapter *a = &swtim_adapters[i];

		if (swtim_adapter_is_valid(a) && a->started &&
		    a->params.conf.event_dev_id == dev_id) {
			swtim_base_stop(a);
			paused |= UINT64_C(1) << i;
		}
	}
	return paused;
}

static void
swtim_dev_adapters_resume(uint64_t paused)
{
	unsigned int i;

	for (i = 0; i < SWTIM_ADAPTER_NUM_MAX; i++)
		if ((paused >> i & 1) &&
		    swtim_base_start(&swtim_adapters[i]) != 0) {
			SWTIM_LOG(ERR, "adapter %u could not be started again "
				  "after its event device was", i);
			swtim_adapters[i].started = false;
		}
}

/*
 * Give the device a port, restarting it if it ran: one more (grow), or
 * port (an SWTIM_PORT_UNSET one), set up again. *added: whether the
 * device has a port more now; *set_up: whether the port was set up (a
 * restart may still have failed).
 */
static int
swtim_port_add(uint8_t dev_id, bool grow, uint8_t *port_id, bool *added,
	       bool *set_up)
{
	struct rte_event_dev_config conf;
	uint64_t paused = 0;
	uint32_t started;
	uint8_t port;
	int ret;

	*added = false;
	*set_up = false;
	ret = swtim_dev_conf_rebuild(dev_id, grow ? 1 : 0, &conf);
	if (ret != 0)
		return ret;
	port = grow ? conf.nb_event_ports - 1 : *port_id;
	started = swtim_dev_attr(dev_id, RTE_EVENT_DEV_ATTR_STARTED);
	if (started) {
		paused = swtim_dev_adapters_pause(dev_id);
		rte_event_dev_stop(dev_id);
	}

	if (grow) {
		ret = rte_event_dev_configure(dev_id, &conf);
		if (ret < 0) {
			SWTIM_LOG(ERR, "reconfiguring event device %u failed: "
				  "%d", dev_id, ret);
			goto restart;
		}
		*added = true;
	}
	ret = swtim_port_setup(dev_id, port, &conf);
	*set_up = ret == 0;
	if (ret == 0)
		SWTIM_LOG(DEBUG, "%s port %u of event device %u",
			  grow ? "added" : "set up", port, dev_id);
	*port_id = port;
restart:
	if (started && rte_event_dev_start(dev_id) < 0) {
		SWTIM_LOG(ERR, "restarting event device %u failed: its "
			  "adapters wait until the application starts it",
			  dev_id);
		if (ret == 0)
			ret = -EIO;
	}
	/*
	 * Started again even on a device that stays stopped: their services
	 * leave such a device alone (swtim_ports_device_ready()) and their
	 * expiries wait in them, to go once the application has started it.
	 */
	if (started)
		swtim_dev_adapters_resume(paused);
	return ret;
}

int
swtim_port_acquire(uint8_t dev_id, uint8_t *port_id)
{
	uint32_t nb_ports = swtim_dev_attr(dev_id, RTE_EVENT_DEV_ATTR_PORT_COUNT);
	uint8_t *state;
	bool added, set_up;
	uint32_t p;
	int ret;

	if (dev_id >= RTE_EVENT_MAX_DEVS)
		return -EINVAL;
	if (nb_ports != swtim_port_count_left[dev_id])
		swtim_ports_forget_free(dev_id);
	for (p = 0; p < nb_ports && p < RTE_EVENT_MAX_PORTS_PER_DEV; p++) {
		state = &swtim_port_table[dev_id][p];
		if (*state != SWTIM_PORT_FREE && *state != SWTIM_PORT_UNSET)
			continue;
		if (swtim_port_linked(dev_id, p)) {
			/* Set up again by the application. */
			*state = SWTIM_PORT_NONE;
			continue;
		}
		if (*state == SWTIM_PORT_UNSET) {
			*port_id = p;
			ret = swtim_port_add(dev_id, false, port_id, &added,
					     &set_up);
			if (ret != 0) {
				/* Set up, the device not restarted: a port
				 * like any other free one now. */
				if (set_up)
					*state = SWTIM_PORT_FREE;
				return ret;
			}
		}
		*state = SWTIM_PORT_IN_USE;
		*port_id = p;
		return 0;
	}
	ret = swtim_port_add(dev_id, true, port_id, &added, &set_up);
	if (added) {
		swtim_port_table[dev_id][*port_id] = ret == 0 ?
			SWTIM_PORT_IN_USE : set_up ? SWTIM_PORT_FREE :
			SWTIM_PORT_UNSET;
		swtim_port_count_left[dev_id] = *port_id + 1u;
	}
	return ret;
}

void
swtim_port_release(uint8_t dev_id, uint8_t port_id)
{
	if (dev_id < RTE_EVENT_MAX_DEVS &&
	    swtim_port_table[dev_id][port_id] == SWTIM_PORT_IN_USE)
		swtim_port_table[dev_id][port_id] = SWTIM_PORT_FREE;
}

uint16_t
swtim_port_enqueue(struct swtim_port *port, const struct rte_event *ev,
		   uint16_t nb)
{
	return rte_event_enqueue_new_burst(port->dev_id, port->port_id, ev, nb);
}

void
swtim_port_init(struct swtim_port *port, uint8_t dev_id, uint8_t port_id)
{
	struct rte_event_dev_info info;
	uint32_t depth = SWTIM_PORT_ENQ_BURST_MAX;

	rte_spinlock_init(&port->lock);
	port->dev_id = dev_id;
	port->port_id = port_id;
	if (rte_event_port_attr_get(dev_id, port_id,
				    RTE_EVENT_PORT_ATTR_ENQ_DEPTH, &depth) != 0 ||
	    depth == 0)
		depth = 1;
	port->enq_burst = RTE_MIN(depth, (uint32_t)SWTIM_PORT_ENQ_BURST_MAX);
	port->needs_maintenance = rte_event_dev_info_get(dev_id, &info) != 0 ||
		!(info.event_dev_cap & RTE_EVENT_DEV_CAP_MAINTENANCE_FREE);
	port->maintain_cycles = rte_get_timer_hz() * SWTIM_PORT_MAINTAIN_US /
				US_PER_S;
	port->next_maintain = 0;
}

void
swtim_ports_init(struct swtim_ports *ports,
		 const struct swtim_adapter_params *params)
{
	unsigned int i;

	ports->nb = params->nb_event_ports;
	for (i = 0; i < ports->nb; i++)
		swtim_port_init(&ports->port[i], params->conf.event_dev_id,
				params->event_port_ids[i]);
}
