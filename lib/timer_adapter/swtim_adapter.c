/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The swtim authors
 */

/*
 * The generic adapter layer's control path: the adapter table, create and
 * its argument checks, start/stop, free, lookup, info and stats. Every
 * call here takes swtim_adapters_lock; the fast path (swtim_fastpath.c)
 * never does.
 *
 * Multi-process: the table is a memzone, so a secondary process finds
 * the primary's adapters at the addresses the primary has them at, and
 * the drivers keep their data in rte_malloc memory. Only the primary
 * changes what exists (create, port_add, start, stop, free): the service
 * is registered in the primary's librte_service, the event device is
 * configured there, and this process-local lock serialises them.
 */

#include <errno.h>
#include <limits.h>
#include <string.h>

#include <rte_branch_prediction.h>
#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_eventdev.h>
#include <rte_kvargs.h>
#include <rte_memzone.h>
#include <rte_service.h>
#include <rte_string_fns.h>

#include "swtim.h"
#include "swtim_adapter_pvt.h"
#include "swtim_base.h"
#include "swtim_log.h"
#include "swtim_proc.h"

struct swtim_adapter *swtim_adapters;

/*
 * Recursive because a port callback given to create may itself call into
 * swtim (lookup, say) while create holds the lock.
 */
pthread_mutex_t swtim_adapters_lock = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;

struct swtim_adapter *
swtim_adapters_attach(void)
{
	const size_t size = SWTIM_ADAPTER_NUM_MAX * sizeof(swtim_adapters[0]);
	const struct rte_memzone *mz;
	struct swtim_adapter *table;

	table = __atomic_load_n(&swtim_adapters, __ATOMIC_ACQUIRE);
	if (likely(table != NULL))
		return table;
	pthread_mutex_lock(&swtim_adapters_lock);
	mz = rte_memzone_lookup(SWTIM_ADAPTERS_MZ_NAME);
	if (mz == NULL && rte_eal_process_type() == RTE_PROC_SECONDARY) {
		/* Asking is how one finds out: not an error. */
		SWTIM_LOG(DEBUG, "the primary process has no adapter table");
		rte_errno = ENOENT;
		goto unlock;
	}
	if (mz == NULL) {
		mz = rte_memzone_reserve_aligned(SWTIM_ADAPTERS_MZ_NAME, size,
						 SOCKET_ID_ANY, 0,
						 RTE_CACHE_LINE_SIZE);
		if (mz == NULL) {
			SWTIM_LOG(ERR, "no memory for the adapter table: %s",
				  rte_strerror(rte_errno));
			rte_errno = ENOMEM;
			goto unlock;
		}
		memset(mz->addr, 0, size);
	}
	/* Before any adapter is handed out: their locks are tagged. */
	if (swtim_proc_attach() != 0)
		goto unlock;
	__atomic_store_n(&swtim_adapters, (struct swtim_adapter *)mz->addr,
			 __ATOMIC_RELEASE);
unlock:
	pthread_mutex_unlock(&swtim_adapters_lock);
	return swtim_adapters;
}

/*
 * Whether this process may make call, which changes what exists: only the
 * primary may. If not, log it and set rte_errno to E_RTE_SECONDARY.
 */
static bool
swtim_primary_only(const char *call)
{
	if (rte_eal_process_type() != RTE_PROC_SECONDARY)
		return true;
	SWTIM_LOG(ERR, "%s: refused in a secondary process (only the primary"
		  " creates, starts, stops and frees adapters)", call);
	rte_errno = E_RTE_SECONDARY;
	return false;
}

#define SWTIM_KNOWN_FLAGS (RTE_EVENT_TIMER_ADAPTER_F_ADJUST_RES | \
			   RTE_EVENT_TIMER_ADAPTER_F_SP_PUT | \
			   RTE_EVENT_TIMER_ADAPTER_F_PERIODIC)

static int
swtim_conf_check(const struct rte_event_timer_adapter_conf *conf)
{
	struct rte_event_dev_info dev_info;

	if (conf == NULL) {
		SWTIM_LOG(ERR, "NULL configuration");
		return -EINVAL;
	}
	if (conf->timer_adapter_id >= SWTIM_ADAPTER_NUM_MAX) {
		SWTIM_LOG(ERR, "adapter id %u out of range (max %u)",
			  conf->timer_adapter_id, SWTIM_ADAPTER_NUM_MAX - 1);
		return -EINVAL;
	}
	if (rte_event_dev_info_get(conf->event_dev_id, &dev_info) != 0) {
		SWTIM_LOG(ERR, "invalid event device %u", conf->event_dev_id);
		return -EINVAL;
	}
	if (conf->timer_tick_ns == 0 || conf->nb_timers == 0) {
		SWTIM_LOG(ERR, "timer_tick_ns and nb_timers must not be 0");
		return -EINVAL;
	}
	if (conf->max_tmo_ns < conf->timer_tick_ns) {
		SWTIM_LOG(ERR, "max_tmo_ns %" PRIu64 " below timer_tick_ns %"
			  PRIu64, conf->max_tmo_ns, conf->timer_tick_ns);
		return -EINVAL;
	}
	if (conf->flags & ~SWTIM_KNOWN_FLAGS) {
		SWTIM_LOG(ERR, "unknown flags 0x%" PRIx64,
			  (uint64_t)(conf->flags & ~SWTIM_KNOWN_FLAGS));
		return -EINVAL;
	}
	return 0;
}

/*
 * Whether a key=value piece of devargs holds a second '=' outside a
 * [list]: rte_kvargs takes each '=' for the end of a key, so
 * "no_such_key=max_sleep_us=5" would reach the driver as max_sleep_us=5,
 * the unknown key gone without a word. Logs the piece.
 */
static bool
swtim_devargs_two_equals(const char *devargs)
{
	const char *piece = devargs, *p;
	unsigned int nb_eq = 0, depth = 0;

	for (p = devargs; ; p++) {
		if (*p == '[')
			depth++;
		else if (*p == ']' && depth > 0)
			depth--;
		else if (*p == '=' && depth == 0)
			nb_eq++;
		if (!(*p == '\0' || (*p == ',' && depth == 0)))
			continue;
		if (nb_eq > 1) {
			SWTIM_LOG(ERR, "driver option \"%.*s\" has more than"
				  " one '='", (int)(p - piece), piece);
			return true;
		}
		if (*p == '\0')
			return false;
		piece = p + 1;
		nb_eq = 0;
	}
}

/* The options every driver takes: the generic layer's. */
static const char *const swtim_generic_args[] = { SWTIM_IDLE_ARG, NULL };

/* Whether key is in the NULL-terminated list keys (NULL: none). */
static bool
swtim_arg_listed(const char *const *keys, const char *key)
{
	unsigned int k;

	for (k = 0; keys != NULL && keys[k] != NULL; k++)
		if (strcmp(key, keys[k]) == 0)
			return true;
	return false;
}

/* Parse devargs, naming the first key the driver does not know. */
static int
swtim_devargs_parse(const struct swtim_driver *drv, const char *devargs,
		    struct rte_kvargs **kvlist)
{
	struct rte_kvargs *kv;
	unsigned int i;

	*kvlist = NULL;
	if (devargs == NULL || devargs[0] == '\0')
		return 0;
	if (swtim_devargs_two_equals(devargs))
		return -EINVAL;
	kv = rte_kvargs_parse(devargs, NULL);
	if (kv == NULL) {
		SWTIM_LOG(ERR, "cannot parse driver options \"%s\"", devargs);
		return -EINVAL;
	}
	for (i = 0; i < kv->count; i++) {
		const char *key = kv->pairs[i].key;

		if (!swtim_arg_listed(swtim_generic_args, key) &&
		    !swtim_arg_listed(drv->valid_args, key)) {
			SWTIM_LOG(ERR, "driver %s has no option \"%s\"",
				  drv->name, key);
			goto bad;
		}
		/* A bare key: drivers parse values, never NULL. */
		if (kv->pairs[i].value == NULL) {
			SWTIM_LOG(ERR, "driver %s option \"%s\" needs a value"
				  " (%s=...)", drv->name, key, key);
			goto bad;
		}
		if (rte_kvargs_count(kv, key) > 1) {
			SWTIM_LOG(ERR, "driver %s option \"%s\" given more"
				  " than once", drv->name, key);
			goto bad;
		}
	}
	*kvlist = kv;
	return 0;
bad:
	rte_kvargs_free(kv);
	return -EINVAL;
}

/* Cache each queue's schedule type for the arm path's check. */
static void
swtim_adapter_sched_types_cache(struct swtim_adapter *adapter)
{
	uint8_t dev_id = adapter->params.conf.event_dev_id;
	uint32_t nb_queues = 0, q, sched;

	if (rte_event_dev_attr_get(dev_id, RTE_EVENT_DEV_ATTR_QUEUE_COUNT,
				   &nb_queues) != 0)
		nb_queues = 0;
	adapter->nb_queues = RTE_MIN(nb_queues,
				     (uint32_t)RTE_EVENT_MAX_QUEUES_PER_DEV);
	for (q = 0; q < adapter->nb_queues; q++) {
		/* An all-types queue answers -EOVERFLOW. */
		if (rte_event_queue_attr_get(dev_id, q,
				RTE_EVENT_QUEUE_ATTR_SCHEDULE_TYPE, &sched) == 0)
			adapter->queue_sched_type[q] = sched;
		else
			adapter->queue_sched_type[q] = SWTIM_SCHED_TYPE_ANY;
	}
}

/*
 * Convert the tick to timer cycles, the unit librte_timer counts in,
 * rounded up so that no timer is early; UINT64_MAX if that does not fit
 * in 64 bits.
 */
static uint64_t
swtim_ns_to_cycles_ceil(uint64_t ns)
{
	unsigned __int128 c = (unsigned __int128)ns * rte_get_timer_hz();

	c = (c + NS_PER_S - 1) / NS_PER_S;
	return c > UINT64_MAX ? UINT64_MAX : (uint64_t)c;
}

static int
swtim_tick_apply(const struct swtim_driver *drv,
		 struct rte_event_timer_adapter_conf *conf)
{
	/*
	 * A tick of 2^64 timer cycles or more (centuries) cannot be counted
	 * in; wrapped, it would make timers fall due at once.
	 */
	if (swtim_ns_to_cycles_ceil(conf->timer_tick_ns) == UINT64_MAX) {
		SWTIM_LOG(ERR, "tick %" PRIu64 " ns too long for 64 bits of "
			  "timer cycles", conf->timer_tick_ns);
		return -ERANGE;
	}
	if (conf->timer_tick_ns >= drv->min_tick_ns)
		return 0;
	if (!(conf->flags & RTE_EVENT_TIMER_ADAPTER_F_ADJUST_RES)) {
		SWTIM_LOG(ERR, "tick %" PRIu64 " ns finer than driver %s's %"
			  PRIu64 " ns (see F_ADJUST_RES)", conf->timer_tick_ns,
			  drv->name, drv->min_tick_ns);
		return -ERANGE;
	}
	conf->timer_tick_ns = drv->min_tick_ns;
	if (conf->max_tmo_ns < conf->timer_tick_ns) {
		SWTIM_LOG(ERR, "max_tmo_ns below the adjusted tick");
		return -EINVAL;
	}
	return 0;
}

struct swtim_adapter *
swtim_adapter_create_with_driver(
	const struct rte_event_timer_adapter_conf *conf,
	rte_event_timer_adapter_port_conf_cb_t conf_cb, void *conf_arg,
	const char *driver, const char *devargs)
{
	const struct swtim_driver *drv;
	struct swtim_adapter *adapter;
	struct rte_kvargs *kvlist = NULL;
	struct rte_event_timer_adapter_conf c;
	uint8_t port_id = 0;
	int ret;

	if (!swtim_primary_only("create"))
		return NULL;
	ret = swtim_conf_check(conf);
	if (ret != 0)
		goto fail;
	c = *conf;
	if (swtim_adapters_attach() == NULL) {
		ret = -rte_errno;
		goto fail;
	}

	if (driver == NULL)
		driver = SWTIM_DEFAULT_DRIVER;
	drv = swtim_driver_find(driver);
	if (drv == NULL) {
		SWTIM_LOG(ERR, "no timer driver named \"%s\"", driver);
		ret = -EINVAL;
		goto fail;
	}
	ret = swtim_tick_apply(drv, &c);
	if (ret != 0)
		goto fail;
	ret = swtim_devargs_parse(drv, devargs, &kvlist);
	if (ret != 0)
		goto fail;

	pthread_mutex_lock(&swtim_adapters_lock);
	adapter = &swtim_adapters[c.timer_adapter_id];
	if (adapter->magic == SWTIM_ADAPTER_MAGIC) {
		SWTIM_LOG(ERR, "adapter %u exists", c.timer_adapter_id);
		ret = -EEXIST;
		goto unlock;
	}

	memset(adapter, 0, sizeof(*adapter));
	adapter->id = c.timer_adapter_id;
	adapter->port_from_table = conf_cb == NULL;
	adapter->drv_index = drv->index;
	strlcpy(adapter->drv_name, drv->name, sizeof(adapter->drv_name));
	adapter->params.conf = c;
	adapter->params.tick_cycles = swtim_ns_to_cycles_ceil(c.timer_tick_ns);
	adapter->params.max_tmo_ticks = c.max_tmo_ns / c.timer_tick_ns;
	swtim_adapter_sched_types_cache(adapter);

	/*
	 * The driver first, the port after: a driver may still refuse the
	 * adapter (an option's value, nb_timers), and a port once added to
	 * the device cannot be taken off it again. Drivers read the ports
	 * only at start.
	 */
	ret = swtim_base_create(adapter, drv, kvlist);
	if (ret != 0) {
		SWTIM_LOG(ERR, "driver %s init failed: %s", drv->name,
			  strerror(-ret));
		memset(adapter, 0, sizeof(*adapter));
		goto unlock;
	}
	if (conf_cb != NULL) {
		ret = conf_cb(c.timer_adapter_id, c.event_dev_id, &port_id,
			      conf_arg);
		if (ret < 0)
			SWTIM_LOG(ERR, "port callback failed: %d", ret);
		/* No errno is INT_MIN's negation, which int cannot hold. */
		if (ret == INT_MIN)
			ret = -EINVAL;
	} else {
		ret = swtim_port_acquire(c.event_dev_id, &port_id);
	}
	if (ret < 0) {
		swtim_base_free(adapter);
		memset(adapter, 0, sizeof(*adapter));
		goto unlock;
	}
	adapter->params.event_port_id = port_id;
	adapter->params.event_port_ids[0] = port_id;
	adapter->params.nb_event_ports = 1;
	__atomic_store_n(&adapter->magic, SWTIM_ADAPTER_MAGIC,
			 __ATOMIC_RELEASE);
	pthread_mutex_unlock(&swtim_adapters_lock);
	rte_kvargs_free(kvlist);
	SWTIM_LOG(DEBUG, "adapter %u created: driver %s, dev %u port %u, "
		  "tick %" PRIu64 " ns", adapter->id, drv->name,
		  c.event_dev_id, port_id, c.timer_tick_ns);
	return adapter;

unlock:
	pthread_mutex_unlock(&swtim_adapters_lock);
fail:
	rte_kvargs_free(kvlist);
	rte_errno = -ret;
	return NULL;
}

struct swtim_adapter *
swtim_adapter_create_ext(const struct rte_event_timer_adapter_conf *conf,
			 rte_event_timer_adapter_port_conf_cb_t conf_cb,
			 void *conf_arg)
{
	if (conf_cb == NULL) {
		SWTIM_LOG(ERR, "NULL port callback");
		rte_errno = EINVAL;
		return NULL;
	}
	return swtim_adapter_create_with_driver(conf, conf_cb, conf_arg,
						NULL, NULL);
}

struct swtim_adapter *
swtim_adapter_create(const struct rte_event_timer_adapter_conf *conf)
{
	return swtim_adapter_create_with_driver(conf, NULL, NULL, NULL, NULL);
}

/* Whether adapter is one; if not, log it for call. */
static bool
swtim_adapter_check(const struct swtim_adapter *adapter, const char *call)
{
	if (swtim_adapter_is_valid(adapter))
		return true;
	SWTIM_LOG(ERR, "%s: no such adapter (%s)", call,
		  adapter == NULL ? "NULL" : "freed, or never created");
	return false;
}

/*
 * Take swtim_adapters_lock for a control call on adapter; false (lock not
 * held, logged) if the adapter is not valid, also when another thread
 * freed it while this one waited for the lock.
 */
static bool
swtim_adapter_lock(const struct swtim_adapter *adapter, const char *call)
{
	if (!swtim_adapter_check(adapter, call))
		return false;
	pthread_mutex_lock(&swtim_adapters_lock);
	if (swtim_adapter_check(adapter, call))
		return true;
	pthread_mutex_unlock(&swtim_adapters_lock);
	return false;
}

int
swtim_adapter_port_add(struct swtim_adapter *adapter, uint8_t event_port_id)
{
	struct swtim_adapter_params *p;
	uint32_t nb_ports = 0;
	unsigned int i;
	int ret = 0;

	if (!swtim_primary_only("port_add"))
		return -E_RTE_SECONDARY;
	if (!swtim_adapter_lock(adapter, "port_add"))
		return -EINVAL;
	p = &adapter->params;
	if (adapter->ever_started) {
		SWTIM_LOG(ERR, "adapter %u: ports are added before the first "
			  "start", adapter->id);
		ret = -EBUSY;
		goto unlock;
	}
	if (rte_event_dev_attr_get(p->conf.event_dev_id,
				   RTE_EVENT_DEV_ATTR_PORT_COUNT,
				   &nb_ports) != 0 ||
	    event_port_id >= nb_ports) {
		SWTIM_LOG(ERR, "adapter %u: event device %u has no port %u",
			  adapter->id, p->conf.event_dev_id, event_port_id);
		ret = -EINVAL;
		goto unlock;
	}
	for (i = 0; i < p->nb_event_ports; i++)
		if (p->event_port_ids[i] == event_port_id) {
			SWTIM_LOG(ERR, "adapter %u uses port %u already",
				  adapter->id, event_port_id);
			ret = -EEXIST;
			goto unlock;
		}
	if (p->nb_event_ports == SWTIM_ADAPTER_PORTS_MAX) {
		SWTIM_LOG(ERR, "adapter %u has %u ports, the most it takes",
			  adapter->id, SWTIM_ADAPTER_PORTS_MAX);
		ret = -ENOSPC;
		goto unlock;
	}
	p->event_port_ids[p->nb_event_ports++] = event_port_id;
	SWTIM_LOG(DEBUG, "adapter %u: port %u added, %u ports", adapter->id,
		  event_port_id, p->nb_event_ports);
unlock:
	pthread_mutex_unlock(&swtim_adapters_lock);
	return ret;
}

int
swtim_adapter_get_info(const struct swtim_adapter *adapter,
		       struct rte_event_timer_adapter_info *adapter_info)
{
	if (!swtim_adapter_check(adapter, "get_info"))
		return -EINVAL;
	if (adapter_info == NULL) {
		SWTIM_LOG(ERR, "get_info: NULL adapter_info");
		return -EINVAL;
	}
	memset(adapter_info, 0, sizeof(*adapter_info));
	adapter_info->min_resolution_ns = adapter->params.conf.timer_tick_ns;
	adapter_info->max_tmo_ns = adapter->params.conf.max_tmo_ns;
	adapter_info->conf = adapter->params.conf;
	adapter_info->caps = swtim_adapter_driver(adapter)->caps;
	adapter_info->event_dev_port_id = adapter->params.event_port_id;
	return 0;
}

/* Number of running-or-not service lcores the service is mapped to. */
static unsigned int
swtim_service_mapped_lcores(uint32_t service_id)
{
	uint32_t lcores[RTE_MAX_LCORE];
	int32_t n, i;
	unsigned int mapped = 0;

	n = rte_service_lcore_list(lcores, RTE_DIM(lcores));
	for (i = 0; i < n; i++)
		if (rte_service_map_lcore_get(service_id, lcores[i]) == 1)
			mapped++;
	return mapped;
}

int
swtim_adapter_start(const struct swtim_adapter *cadapter)
{
	struct swtim_adapter *adapter = (struct swtim_adapter *)(uintptr_t)cadapter;
	uint32_t service_id;
	int ret;

	if (!swtim_primary_only("start"))
		return -E_RTE_SECONDARY;
	if (!swtim_adapter_lock(adapter, "start"))
		return -EINVAL;
	if (adapter->started) {
		SWTIM_LOG(ERR, "adapter %u already started", adapter->id);
		ret = -EALREADY;
		goto out;
	}
	service_id = swtim_adapter_base(adapter)->service_id;
	if (swtim_service_mapped_lcores(service_id) == 0) {
		SWTIM_LOG(ERR, "adapter %u: service %u is mapped to no "
			  "service lcore", adapter->id, service_id);
		ret = -ENOENT;
		goto out;
	}
	swtim_adapter_sched_types_cache(adapter);
	ret = swtim_base_start(adapter);
	if (ret == 0) {
		adapter->started = true;
		adapter->ever_started = true;
	}
out:
	pthread_mutex_unlock(&swtim_adapters_lock);
	return ret;
}

int
swtim_adapter_stop(const struct swtim_adapter *cadapter)
{
	struct swtim_adapter *adapter = (struct swtim_adapter *)(uintptr_t)cadapter;
	int ret = 0;

	if (!swtim_primary_only("stop"))
		return -E_RTE_SECONDARY;
	if (!swtim_adapter_lock(adapter, "stop"))
		return -EINVAL;
	if (adapter->started) {
		swtim_base_stop(adapter);
		adapter->started = false;
	}
	pthread_mutex_unlock(&swtim_adapters_lock);
	return ret;
}

struct swtim_adapter *
swtim_adapter_lookup(uint16_t adapter_id)
{
	struct swtim_adapter *adapter;

	if (adapter_id >= SWTIM_ADAPTER_NUM_MAX) {
		SWTIM_LOG(ERR, "lookup: adapter id %u out of range (%u)",
			  adapter_id, SWTIM_ADAPTER_NUM_MAX);
		rte_errno = EINVAL;
		return NULL;
	}
	if (swtim_adapters_attach() == NULL)
		return NULL;
	adapter = &swtim_adapters[adapter_id];
	if (!swtim_adapter_is_valid(adapter)) {
		/* Asking is how one finds out: not an error. */
		SWTIM_LOG(DEBUG, "lookup: no adapter %u", adapter_id);
		rte_errno = ENOENT;
		return NULL;
	}
	if (rte_eal_process_type() == RTE_PROC_SECONDARY &&
	    swtim_adapter_secondary_attach(adapter) != 0)
		return NULL;
	return adapter;
}

int
swtim_adapter_free(struct swtim_adapter *adapter)
{
	uint8_t dev_id, port_id;
	bool port_from_table;

	if (!swtim_primary_only("free"))
		return -E_RTE_SECONDARY;
	if (!swtim_adapter_lock(adapter, "free"))
		return -EINVAL;
	if (adapter->started) {
		SWTIM_LOG(ERR, "adapter %u must be stopped before it is freed",
			  adapter->id);
		pthread_mutex_unlock(&swtim_adapters_lock);
		return -EBUSY;
	}
	/* From here on the fast path refuses the adapter. */
	__atomic_store_n(&adapter->magic, 0, __ATOMIC_RELEASE);
	swtim_base_free(adapter);
	dev_id = adapter->params.conf.event_dev_id;
	port_id = adapter->params.event_port_id;
	port_from_table = adapter->port_from_table;
	memset(adapter, 0, sizeof(*adapter));
	if (port_from_table)
		swtim_port_release(dev_id, port_id);
	pthread_mutex_unlock(&swtim_adapters_lock);
	return 0;
}

int
swtim_adapter_service_id_get(struct swtim_adapter *adapter,
			     uint32_t *service_id)
{
	if (!swtim_adapter_check(adapter, "service_id_get"))
		return -EINVAL;
	if (service_id == NULL) {
		SWTIM_LOG(ERR, "service_id_get: NULL service_id");
		return -EINVAL;
	}
	*service_id = swtim_adapter_base(adapter)->service_id;
	return 0;
}

int
swtim_adapter_stats_get(struct swtim_adapter *adapter,
			struct rte_event_timer_adapter_stats *stats)
{
	if (!swtim_adapter_check(adapter, "stats_get"))
		return -EINVAL;
	if (stats == NULL) {
		SWTIM_LOG(ERR, "stats_get: NULL stats");
		return -EINVAL;
	}
	memset(stats, 0, sizeof(*stats));
	swtim_base_stats_get(swtim_adapter_base(adapter), stats);
	return 0;
}

int
swtim_adapter_stats_reset(struct swtim_adapter *adapter)
{
	if (!swtim_adapter_check(adapter, "stats_reset"))
		return -EINVAL;
	swtim_base_stats_reset(swtim_adapter_base(adapter));
	return 0;
}
