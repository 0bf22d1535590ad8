/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The swtim authors
 */

/*
 * DPDK's event timer adapter control calls, defined again at DPDK's
 * symbol version so that they take the place of librte_eventdev's when
 * this library comes first in the lookup order (LD_PRELOAD, or linked
 * ahead of librte_eventdev).
 *
 * Each adapter id is served by one implementation, recorded per id:
 * swtim (the handle is one of ours, below) or DPDK's own, reached through
 * the next definition of each symbol (dlvsym(RTLD_NEXT)). Calls on a
 * handle go to whoever made it: ours are recognised by their address,
 * every other handle is DPDK's.
 *
 * librte_eventdev calls some of these names itself through its PLT
 * (rte_event_timer_adapter_create() calls _create_ext(), its telemetry
 * calls _get_info() and _stats_get()), so those calls land here too and
 * must take the same road as the outer one: the choice of implementation
 * depends only on the device and the environment, and the lock is
 * recursive.
 */

#include <assert.h>
#include <dlfcn.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <link.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_common.h>
#include <rte_errno.h>
#include <rte_event_timer_adapter.h>
#include <rte_eventdev.h>

#include "adapter_impl.h"
#include "swtim.h"
#include "swtim_dpdk_compat.h"
#include "swtim_driver.h"
#include "swtim_dropin.h"
#include "swtim_log.h"

/*
 * DPDK's header declares the adapter data and the implementation's
 * function table but defines them only in a header for PMDs, which
 * distributions do not install; these definitions have the layout every
 * release from 22.11 to 25.11 gives them, so that the handle we return is
 * a whole struct rte_event_timer_adapter, whose every pointer leads
 * somewhere that works.
 */
struct rte_event_timer_adapter_data {
	uint8_t id;
	uint8_t event_dev_id;
	uint32_t socket_id;
	uint8_t event_port_id;
	const struct rte_memzone *mz;
	struct rte_event_timer_adapter_conf conf;
	uint32_t caps;
	void *adapter_priv;
	uint8_t service_inited;
	uint32_t service_id;
	SWTIM_STD_C11
	uint8_t started : 1;
} __rte_cache_aligned;

/*
 * struct event_timer_adapter_ops: what DPDK's own calls reach through
 * handle->ops. Ours never go there, but code that follows the handle's
 * pointers (DPDK's own definitions, when a program reaches them past
 * ours) finds each entry serving swtim or failing cleanly; 23.03 added
 * the last entry.
 */
struct dropin_ops {
	int (*init)(struct rte_event_timer_adapter *adapter);
	int (*uninit)(struct rte_event_timer_adapter *adapter);
	int (*start)(const struct rte_event_timer_adapter *adapter);
	int (*stop)(const struct rte_event_timer_adapter *adapter);
	void (*get_info)(const struct rte_event_timer_adapter *adapter,
			 struct rte_event_timer_adapter_info *adapter_info);
	int (*stats_get)(const struct rte_event_timer_adapter *adapter,
			 struct rte_event_timer_adapter_stats *stats);
	int (*stats_reset)(const struct rte_event_timer_adapter *adapter);
	rte_event_timer_arm_burst_t arm_burst;
	rte_event_timer_arm_tmo_tick_burst_t arm_tmo_tick_burst;
	rte_event_timer_cancel_burst_t cancel_burst;
#if SWTIM_DPDK_HAS_REMAINING_TICKS
	int (*remaining_ticks_get)(const struct rte_event_timer_adapter *adapter,
				   const struct rte_event_timer *evtim,
				   uint64_t *ticks_remaining);
#endif
};

/* An adapter served by swtim, as DPDK's API sees it. */
struct dropin_adapter {
	/* What the application holds; first, so a cast finds the rest. */
	struct rte_event_timer_adapter pub;
	/* The swtim adapter the fast path pointers call with. */
	struct swtim_adapter *sw;
	/* What pub.data points to. */
	struct rte_event_timer_adapter_data data;
};

/* The function table of our handles (below, after the calls it uses). */
static const struct dropin_ops dropin_ops;

/* Who serves an adapter id. */
enum dropin_owner {
	DROPIN_NONE = 0,
	DROPIN_SWTIM,
	DROPIN_DPDK,
};

#define DROPIN_NUM_MAX RTE_EVENT_TIMER_ADAPTER_NUM_MAX

static_assert(SWTIM_ADAPTER_NUM_MAX >= DROPIN_NUM_MAX,
	      "swtim has fewer adapter ids than DPDK");

static struct dropin_adapter dropin_adapters[DROPIN_NUM_MAX];
static enum dropin_owner dropin_owner[DROPIN_NUM_MAX];
/* The handle DPDK returned for each id it serves. */
static struct rte_event_timer_adapter *dropin_dpdk_handle[DROPIN_NUM_MAX];

/* Recursive: librte_eventdev calls back into us (see above). */
static pthread_mutex_t dropin_lock = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;
/* Creates in progress, under dropin_lock: 2 when DPDK's calls us back. */
static unsigned int dropin_create_depth;

/*
 * DPDK's own definitions, found once: the calls of ADAPTER_IMPL_DPDK_CALLS()
 * (the ones this library defines again); the rest of the table is unused.
 */
static struct adapter_impl dropin_next;
static pthread_once_t dropin_next_once = PTHREAD_ONCE_INIT;
static bool dropin_next_ok;

static void *
dropin_next_sym(const char *name, const char *version, void *arg __rte_unused)
{
	void *sym = dlvsym(RTLD_NEXT, name, version);

	if (sym == NULL && strcmp(version, ADAPTER_IMPL_DPDK_VERSION) == 0)
		sym = dlsym(RTLD_NEXT, name);
	if (sym == NULL)
		SWTIM_LOG(ERR, "no next definition of %s@%s (is librte_eventdev"
			  " loaded after libswtim_dropin?)", name, version);
	return sym;
}

static void
dropin_next_resolve(void)
{
	dropin_next.name = "dpdk";
	dropin_next_ok = adapter_impl_fill_by_name(&dropin_next,
						   dropin_next_sym, NULL);
}

/* DPDK's definitions, or NULL (logged) if they cannot be found. */
static const struct adapter_impl *
dropin_dpdk(void)
{
	pthread_once(&dropin_next_once, dropin_next_resolve);
	return dropin_next_ok ? &dropin_next : NULL;
}

/* Whether a handle is one of ours (whatever its state). */
static bool
dropin_is_ours(const struct rte_event_timer_adapter *adapter)
{
	uintptr_t p = (uintptr_t)adapter;
	uintptr_t first = (uintptr_t)&dropin_adapters[0];
	uintptr_t last = (uintptr_t)&dropin_adapters[DROPIN_NUM_MAX - 1];

	return p >= first && p <= last &&
		(p - first) % sizeof(dropin_adapters[0]) == 0;
}

static struct dropin_adapter *
dropin_of(const struct rte_event_timer_adapter *adapter)
{
	return (struct dropin_adapter *)(uintptr_t)adapter;
}

/*
 * The fast path: DPDK's inline rte_event_timer_arm_burst() and friends
 * call these through the handle; each is one load and a jump into swtim.
 */
static uint16_t
dropin_arm_burst(const struct rte_event_timer_adapter *adapter,
		 struct rte_event_timer **evtims, uint16_t nb_evtims)
{
	return swtim_arm_burst(dropin_of(adapter)->sw, evtims, nb_evtims);
}

static uint16_t
dropin_arm_tmo_tick_burst(const struct rte_event_timer_adapter *adapter,
			  struct rte_event_timer **evtims,
			  uint64_t timeout_ticks, uint16_t nb_evtims)
{
	return swtim_arm_tmo_tick_burst(dropin_of(adapter)->sw, evtims,
					timeout_ticks, nb_evtims);
}

static uint16_t
dropin_cancel_burst(const struct rte_event_timer_adapter *adapter,
		    struct rte_event_timer **evtims, uint16_t nb_evtims)
{
	return swtim_cancel_burst(dropin_of(adapter)->sw, evtims, nb_evtims);
}

/* Environment, read at each create and caps_get. */
static const char *
dropin_env(const char *name)
{
	const char *v = getenv(name);

	return v != NULL && v[0] != '\0' ? v : NULL;
}

/*
 * Who serves adapters of event device dev_id: 0 and *owner, or -EINVAL
 * (logged, naming the variable) for a bad SWTIM_DPDK_ADAPTER.
 */
static int
dropin_route(uint8_t dev_id, enum dropin_owner *owner)
{
	const char *mode = dropin_env(SWTIM_DROPIN_ENV_DPDK);
	const struct adapter_impl *next;
	uint32_t caps = 0;

	if (mode != NULL && strcmp(mode, "all") == 0) {
		*owner = DROPIN_DPDK;
		return 0;
	}
	if (mode != NULL && strcmp(mode, "none") == 0) {
		*owner = DROPIN_SWTIM;
		return 0;
	}
	if (mode != NULL && strcmp(mode, "hw") != 0) {
		SWTIM_LOG(ERR, "%s=\"%s\": not one of hw, all, none",
			  SWTIM_DROPIN_ENV_DPDK, mode);
		return -EINVAL;
	}
	/*
	 * hw: ask DPDK whether the device's PMD has a timer adapter of its
	 * own. A device it does not know is swtim's, which refuses it.
	 */
	*owner = DROPIN_SWTIM;
	next = dropin_dpdk();
	if (next != NULL && next->caps_get(dev_id, &caps) == 0 &&
	    (caps & RTE_EVENT_TIMER_ADAPTER_CAP_INTERNAL_PORT))
		*owner = DROPIN_DPDK;
	return 0;
}

/*
 * The swtim driver the environment names, or NULL (logged, naming the
 * variable and its value) for one that does not exist.
 */
static const struct swtim_driver *
dropin_driver(void)
{
	const char *name = dropin_env(SWTIM_DROPIN_ENV_DRIVER);
	const struct swtim_driver *drv;

	drv = swtim_driver_find(name != NULL ? name : SWTIM_DEFAULT_DRIVER);
	if (drv == NULL)
		SWTIM_LOG(ERR, "%s=\"%s\": no such swtim driver",
			  SWTIM_DROPIN_ENV_DRIVER, name);
	return drv;
}

/* Fill our handle for id from the swtim adapter sw. */
static struct rte_event_timer_adapter *
dropin_wrap(uint16_t id, struct swtim_adapter *sw)
{
	struct dropin_adapter *d = &dropin_adapters[id];
	struct rte_event_timer_adapter_data *data = &d->data;
	struct rte_event_timer_adapter_info info;
	uint32_t service_id;

	if (swtim_adapter_get_info(sw, &info) != 0)
		return NULL;
	memset(d, 0, sizeof(*d));
	d->sw = sw;
	data->id = id;
	data->event_dev_id = info.conf.event_dev_id;
	data->socket_id = info.conf.socket_id;
	data->event_port_id = info.event_dev_port_id;
	data->conf = info.conf;
	data->caps = info.caps;
	data->adapter_priv = sw;
	if (swtim_adapter_service_id_get(sw, &service_id) == 0) {
		data->service_inited = 1;
		data->service_id = service_id;
	}
	d->pub.arm_burst = dropin_arm_burst;
	d->pub.arm_tmo_tick_burst = dropin_arm_tmo_tick_burst;
	d->pub.cancel_burst = dropin_cancel_burst;
	d->pub.data = data;
	d->pub.ops = (const struct event_timer_adapter_ops *)&dropin_ops;
	d->pub.allocated = 1;
	dropin_owner[id] = DROPIN_SWTIM;
	return &d->pub;
}

/*
 * Forget our record of id if swtim no longer has the adapter (freed
 * through swtim_adapter_free()). Called with dropin_lock held.
 */
static void
dropin_sync(uint16_t id)
{
	struct dropin_adapter *d = &dropin_adapters[id];

	if (dropin_owner[id] == DROPIN_SWTIM &&
	    swtim_adapter_lookup(id) != d->sw) {
		d->pub.allocated = 0;
		dropin_owner[id] = DROPIN_NONE;
	}
}

static struct rte_event_timer_adapter *
dropin_create(const struct rte_event_timer_adapter_conf *conf,
	      rte_event_timer_adapter_port_conf_cb_t conf_cb, void *conf_arg,
	      bool ext)
{
	struct rte_event_timer_adapter *handle = NULL;
	const struct adapter_impl *next;
	const struct swtim_driver *drv;
	struct swtim_adapter *sw;
	enum dropin_owner owner;
	const char *args;
	uint16_t id;
	int err = 0;

	if (conf == NULL || (ext && conf_cb == NULL)) {
		SWTIM_LOG(ERR, "NULL %s", conf == NULL ? "configuration" :
			  "port callback");
		rte_errno = EINVAL;
		return NULL;
	}
	id = conf->timer_adapter_id;
	if (id >= DROPIN_NUM_MAX) {
		SWTIM_LOG(ERR, "adapter id %u out of range (max %u)", id,
			  DROPIN_NUM_MAX - 1);
		rte_errno = EINVAL;
		return NULL;
	}
	if (dropin_route(conf->event_dev_id, &owner) != 0) {
		rte_errno = EINVAL;
		return NULL;
	}

	pthread_mutex_lock(&dropin_lock);
	dropin_create_depth++;
	dropin_sync(id);
	if (dropin_owner[id] != DROPIN_NONE ||
	    (owner == DROPIN_DPDK && swtim_adapter_lookup(id) != NULL)) {
		SWTIM_LOG(ERR, "adapter %u exists", id);
		err = EEXIST;
		goto out;
	}
	if (owner == DROPIN_DPDK) {
		next = dropin_dpdk();
		if (next == NULL) {
			err = ENOTSUP;
			goto out;
		}
		handle = ext ? next->create_ext(conf, conf_cb, conf_arg) :
			next->create(conf);
		if (handle == NULL) {
			err = rte_errno;
			goto out;
		}
		dropin_owner[id] = DROPIN_DPDK;
		dropin_dpdk_handle[id] = handle;
		/* Once per application call, not again for DPDK's own. */
		if (dropin_create_depth == 1)
			SWTIM_LOG(DEBUG, "adapter %u on event device %u: DPDK's"
				  " own", id, conf->event_dev_id);
		goto out;
	}

	drv = dropin_driver();
	if (drv == NULL) {
		err = EINVAL;
		goto out;
	}
	args = dropin_env(SWTIM_DROPIN_ENV_DRIVER_ARGS);
	sw = swtim_adapter_create_with_driver(conf, ext ? conf_cb : NULL,
					      conf_arg, drv->name, args);
	if (sw == NULL) {
		err = rte_errno;
		if (err == EINVAL && args != NULL)
			SWTIM_LOG(ERR, "adapter %u refused with %s=\"%s\" (driver"
				  " %s)", id, SWTIM_DROPIN_ENV_DRIVER_ARGS,
				  args, drv->name);
		goto out;
	}
	handle = dropin_wrap(id, sw);
	if (handle == NULL) {
		/* Cannot happen: the adapter was just made. */
		swtim_adapter_free(sw);
		err = EINVAL;
		goto out;
	}
	SWTIM_LOG(DEBUG, "adapter %u on event device %u: swtim driver %s",
		  id, conf->event_dev_id, drv->name);
out:
	dropin_create_depth--;
	pthread_mutex_unlock(&dropin_lock);
	if (handle == NULL)
		rte_errno = err;
	return handle;
}

struct rte_event_timer_adapter *
rte_event_timer_adapter_create(const struct rte_event_timer_adapter_conf *conf)
{
	return dropin_create(conf, NULL, NULL, false);
}

struct rte_event_timer_adapter *
rte_event_timer_adapter_create_ext(
		const struct rte_event_timer_adapter_conf *conf,
		rte_event_timer_adapter_port_conf_cb_t conf_cb,
		void *conf_arg)
{
	return dropin_create(conf, conf_cb, conf_arg, true);
}

/*
 * Our adapter behind a handle of ours, or NULL if it has been freed; for
 * the calls that take a handle.
 */
static struct swtim_adapter *
dropin_sw(const struct rte_event_timer_adapter *adapter)
{
	const struct dropin_adapter *d = dropin_of(adapter);

	return d->pub.allocated ? d->sw : NULL;
}

int
rte_event_timer_adapter_get_info(const struct rte_event_timer_adapter *adapter,
		struct rte_event_timer_adapter_info *adapter_info)
{
	const struct adapter_impl *next;

	if (adapter == NULL)
		return -EINVAL;
	if (dropin_is_ours(adapter))
		return swtim_adapter_get_info(dropin_sw(adapter), adapter_info);
	next = dropin_dpdk();
	return next != NULL ? next->get_info(adapter, adapter_info) : -ENOTSUP;
}

/*
 * Start (run) or stop an adapter: DPDK's own calls for one DPDK serves,
 * swtim's otherwise, keeping the handle's data.started in step.
 */
static int
dropin_run_set(const struct rte_event_timer_adapter *adapter, bool run)
{
	const struct adapter_impl *next;
	int ret;

	if (adapter == NULL)
		return -EINVAL;
	if (!dropin_is_ours(adapter)) {
		next = dropin_dpdk();
		if (next == NULL)
			return -ENOTSUP;
		return run ? next->start(adapter) : next->stop(adapter);
	}
	ret = run ? swtim_adapter_start(dropin_sw(adapter)) :
		swtim_adapter_stop(dropin_sw(adapter));
	if (ret == 0)
		dropin_of(adapter)->data.started = run;
	return ret;
}

int
rte_event_timer_adapter_start(const struct rte_event_timer_adapter *adapter)
{
	return dropin_run_set(adapter, true);
}

int
rte_event_timer_adapter_stop(const struct rte_event_timer_adapter *adapter)
{
	return dropin_run_set(adapter, false);
}

/*
 * The rest of our handles' function table (struct dropin_ops): what
 * DPDK's own definitions call through handle->ops, were a program to
 * reach them with one of our handles. Set-up and teardown belong to
 * our create and free, so DPDK's cannot do them: they fail cleanly.
 */
static int
dropin_op_init(struct rte_event_timer_adapter *adapter __rte_unused)
{
	return -ENOTSUP;
}

static int
dropin_op_uninit(struct rte_event_timer_adapter *adapter)
{
	SWTIM_LOG(ERR, "adapter %u is swtim's: free it with"
		  " rte_event_timer_adapter_free() of libswtim_dropin",
		  adapter->data->id);
	return -ENOTSUP;
}

static int
dropin_op_start(const struct rte_event_timer_adapter *adapter)
{
	return dropin_run_set(adapter, true);
}

static int
dropin_op_stop(const struct rte_event_timer_adapter *adapter)
{
	return dropin_run_set(adapter, false);
}

static void
dropin_op_get_info(const struct rte_event_timer_adapter *adapter,
		   struct rte_event_timer_adapter_info *adapter_info)
{
	swtim_adapter_get_info(dropin_sw(adapter), adapter_info);
}

static int
dropin_op_stats_get(const struct rte_event_timer_adapter *adapter,
		    struct rte_event_timer_adapter_stats *stats)
{
	return swtim_adapter_stats_get(dropin_sw(adapter), stats);
}

static int
dropin_op_stats_reset(const struct rte_event_timer_adapter *adapter)
{
	return swtim_adapter_stats_reset(dropin_sw(adapter));
}

#if SWTIM_DPDK_HAS_REMAINING_TICKS
static int
dropin_op_remaining_ticks_get(const struct rte_event_timer_adapter *adapter,
			      const struct rte_event_timer *evtim,
			      uint64_t *ticks_remaining)
{
	return swtim_remaining_ticks_get(dropin_sw(adapter), evtim,
					 ticks_remaining);
}
#endif

static const struct dropin_ops dropin_ops = {
	.init = dropin_op_init,
	.uninit = dropin_op_uninit,
	.start = dropin_op_start,
	.stop = dropin_op_stop,
	.get_info = dropin_op_get_info,
	.stats_get = dropin_op_stats_get,
	.stats_reset = dropin_op_stats_reset,
	.arm_burst = dropin_arm_burst,
	.arm_tmo_tick_burst = dropin_arm_tmo_tick_burst,
	.cancel_burst = dropin_cancel_burst,
#if SWTIM_DPDK_HAS_REMAINING_TICKS
	.remaining_ticks_get = dropin_op_remaining_ticks_get,
#endif
};

struct rte_event_timer_adapter *
rte_event_timer_adapter_lookup(uint16_t adapter_id)
{
	struct rte_event_timer_adapter *handle = NULL;
	const struct adapter_impl *next;
	struct swtim_adapter *sw;

	if (adapter_id >= DROPIN_NUM_MAX) {
		SWTIM_LOG(ERR, "lookup: adapter id %u out of range (%u)",
			  adapter_id, DROPIN_NUM_MAX);
		rte_errno = EINVAL;
		return NULL;
	}
	pthread_mutex_lock(&dropin_lock);
	dropin_sync(adapter_id);
	switch (dropin_owner[adapter_id]) {
	case DROPIN_SWTIM:
		handle = &dropin_adapters[adapter_id].pub;
		break;
	case DROPIN_DPDK:
		next = dropin_dpdk();
		handle = next != NULL ? next->lookup(adapter_id) : NULL;
		break;
	case DROPIN_NONE:
		/* One made through swtim_adapter_create*(): show it too. */
		sw = swtim_adapter_lookup(adapter_id);
		if (sw != NULL) {
			handle = dropin_wrap(adapter_id, sw);
			break;
		}
		/*
		 * None here; DPDK's lookup also finds the adapters of a
		 * primary process from a secondary one.
		 */
		next = dropin_dpdk();
		if (next != NULL)
			handle = next->lookup(adapter_id);
		else
			rte_errno = ENOENT;
		break;
	}
	pthread_mutex_unlock(&dropin_lock);
	return handle;
}

/*
 * At debug level, what an adapter delivered in its life, whoever served
 * it: what DPDK's autotest counts, for telling a late expiry from an
 * early or an extra one when a case fails. Called with dropin_lock held.
 */
static void
dropin_log_totals(struct rte_event_timer_adapter *adapter)
{
	struct rte_event_timer_adapter_stats stats;

	if (!rte_log_can_log(swtim_logtype, RTE_LOG_DEBUG) ||
	    rte_event_timer_adapter_stats_get(adapter, &stats) != 0)
		return;
	SWTIM_LOG(DEBUG, "adapter %u freed: %" PRIu64 " expiries, %" PRIu64
		  " events enqueued, %" PRIu64 " ticks",
		  adapter->data->id, stats.evtim_exp_count,
		  stats.ev_enq_count, stats.adapter_tick_count);
}

int
rte_event_timer_adapter_free(struct rte_event_timer_adapter *adapter)
{
	const struct adapter_impl *next;
	unsigned int id;
	int ret;

	if (adapter == NULL)
		return -EINVAL;
	pthread_mutex_lock(&dropin_lock);
	dropin_log_totals(adapter);
	if (dropin_is_ours(adapter)) {
		ret = swtim_adapter_free(dropin_sw(adapter));
		if (ret == 0) {
			id = dropin_of(adapter)->data.id;
			adapter->allocated = 0;
			dropin_of(adapter)->data.started = 0;
			dropin_owner[id] = DROPIN_NONE;
		}
		goto out;
	}
	next = dropin_dpdk();
	if (next == NULL) {
		ret = -ENOTSUP;
		goto out;
	}
	ret = next->free(adapter);
	if (ret != 0)
		goto out;
	for (id = 0; id < DROPIN_NUM_MAX; id++)
		if (dropin_owner[id] == DROPIN_DPDK &&
		    dropin_dpdk_handle[id] == adapter) {
			dropin_owner[id] = DROPIN_NONE;
			dropin_dpdk_handle[id] = NULL;
		}
out:
	pthread_mutex_unlock(&dropin_lock);
	return ret;
}

int
rte_event_timer_adapter_service_id_get(struct rte_event_timer_adapter *adapter,
		uint32_t *service_id)
{
	const struct adapter_impl *next;

	if (adapter == NULL)
		return -EINVAL;
	if (dropin_is_ours(adapter))
		return swtim_adapter_service_id_get(dropin_sw(adapter),
						    service_id);
	next = dropin_dpdk();
	return next != NULL ? next->service_id_get(adapter, service_id) :
		-ENOTSUP;
}

int
rte_event_timer_adapter_stats_get(struct rte_event_timer_adapter *adapter,
		struct rte_event_timer_adapter_stats *stats)
{
	const struct adapter_impl *next;

	if (adapter == NULL)
		return -EINVAL;
	if (dropin_is_ours(adapter))
		return swtim_adapter_stats_get(dropin_sw(adapter), stats);
	next = dropin_dpdk();
	return next != NULL ? next->stats_get(adapter, stats) : -ENOTSUP;
}

int
rte_event_timer_adapter_stats_reset(struct rte_event_timer_adapter *adapter)
{
	const struct adapter_impl *next;

	if (adapter == NULL)
		return -EINVAL;
	if (dropin_is_ours(adapter))
		return swtim_adapter_stats_reset(dropin_sw(adapter));
	next = dropin_dpdk();
	return next != NULL ? next->stats_reset(adapter) : -ENOTSUP;
}

int
rte_event_timer_adapter_caps_get(uint8_t dev_id, uint32_t *caps)
{
	const struct swtim_driver *drv;
	const struct adapter_impl *next;
	enum dropin_owner owner;
	uint32_t dpdk_caps = 0;
	int ret;

	next = dropin_dpdk();
	if (next == NULL)
		return -ENOTSUP;
	/* DPDK's answer first: it validates dev_id and caps. */
	ret = next->caps_get(dev_id, caps != NULL ? caps : &dpdk_caps);
	if (ret != 0 || caps == NULL)
		return ret != 0 ? ret : -EINVAL;
	if (dropin_route(dev_id, &owner) != 0)
		return -EINVAL;
	if (owner == DROPIN_DPDK)
		return 0;
	drv = dropin_driver();
	if (drv == NULL)
		return -EINVAL;
	/* swtim needs the application to map its service: no INTERNAL_PORT. */
	*caps = drv->caps;
	return 0;
}

#if SWTIM_DPDK_HAS_REMAINING_TICKS
int
rte_event_timer_remaining_ticks_get(
		const struct rte_event_timer_adapter *adapter,
		const struct rte_event_timer *evtim,
		uint64_t *ticks_remaining)
{
	const struct adapter_impl *next;

	if (adapter == NULL)
		return -EINVAL;
	if (dropin_is_ours(adapter))
		return swtim_remaining_ticks_get(dropin_sw(adapter), evtim,
						 ticks_remaining);
	next = dropin_dpdk();
	return next != NULL ? next->remaining_ticks_get(adapter, evtim,
							ticks_remaining) :
		-ENOTSUP;
}
#endif

/*
 * The librte_eventdev majors loaded in this process other than ours, as
 * the first one found: a library built for another DPDK release
 * (librte_eventdev.so.N, N its ABI) than the process runs.
 */
static int
dropin_other_eventdev(struct dl_phdr_info *info, size_t size __rte_unused,
		      void *found)
{
	static const char prefix[] = "librte_eventdev.so.";
	const char *name = strrchr(info->dlpi_name, '/');
	char *end;
	long abi;

	name = name != NULL ? name + 1 : info->dlpi_name;
	if (strncmp(name, prefix, sizeof(prefix) - 1) != 0)
		return 0;
	abi = strtol(name + sizeof(prefix) - 1, &end, 10);
	if (end == name + sizeof(prefix) - 1 || abi == SWTIM_DPDK_ABI)
		return 0;
	snprintf(found, PATH_MAX, "%s", info->dlpi_name);
	return 1;
}

/*
 * Refuse a process that runs another DPDK release than the one this
 * library was built for: its definitions would stand at a symbol version
 * the program does not bind (doing nothing, silently), while libswtim
 * brought a second DPDK into the process. Said on stderr, since EAL's
 * log is not set up yet, and the process ends before main().
 */
RTE_INIT(dropin_abi_check)
{
	char other[PATH_MAX];

	if (dl_iterate_phdr(dropin_other_eventdev, other) == 0)
		return;
	fprintf(stderr, "libswtim_dropin: built for DPDK's %s (%s), but this"
		" process also loads %s: rebuild swtim against the DPDK the"
		" program uses; exiting\n", ADAPTER_IMPL_EVENTDEV_SONAME,
		ADAPTER_IMPL_DPDK_VERSION, other);
	_exit(EXIT_FAILURE);
}
