/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The swtim authors
 */

#ifndef ADAPTER_IMPL_H
#define ADAPTER_IMPL_H

/**
 * @file
 * An event timer adapter implementation as one table of its calls:
 * swtim's API (adapter_impl_swtim) or DPDK's rte_event_timer_adapter
 * (adapter_impl_dpdk), or DPDK's API found by name in a library
 * (adapter_impl_fill_by_name()). Not installed: it is how the code in
 * this tree that drives either adapter reaches it, written once:
 * - libswtim_dropin reaches DPDK's own definitions, behind its own, by
 *   name (lib/dropin);
 * - swtim-test-eventdev runs its producers on either (app/test-eventdev);
 * - swtim-bench creates and drives each adapter it measures (test/bench);
 * - the sequence harness runs a fuzzed sequence on either, and the
 *   differential test on both (test/fuzz).
 *
 * Every call takes and returns DPDK's types (conf, info, stats,
 * rte_event_timer); only the adapter handle differs, a struct
 * swtim_adapter * or a struct rte_event_timer_adapter *, hence void *.
 * Each entry has the signature of DPDK's function of the same name,
 * const where it is, with that one difference: a table filled by name
 * holds DPDK's functions themselves, which take the handle as a struct
 * pointer where the table passes a void pointer, both the same pointer on
 * every ABI DPDK runs on.
 *
 * The fast path (arm_burst, arm_tmo_tick_burst, cancel_burst) is one
 * indirect call into the implementation for both, so that a program
 * comparing them through the table favours neither; one that wants no
 * indirect call at all switches on the implementation itself (as
 * swtim-bench's ta_arm_burst() does).
 *
 * The calls DPDK's API has by name, and their symbol versions, are listed
 * once, in dpdk_calls.txt, which the build turns into
 * ADAPTER_IMPL_DPDK_CALLS() and into libswtim_dropin's version map.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <rte_common.h>
#include <rte_event_timer_adapter.h>

#include "adapter_impl_calls.h"

/**
 * The symbol version of the timer adapter's stable names in the DPDK
 * built against: DPDK_<ABI> (SWTIM_DPDK_ABI, from meson.build).
 */
#define ADAPTER_IMPL_DPDK_VERSION "DPDK_" RTE_STR(SWTIM_DPDK_ABI)

/** The symbol version of DPDK's experimental names. */
#define ADAPTER_IMPL_DPDK_EXPERIMENTAL "EXPERIMENTAL"

/** The soname of the librte_eventdev built against. */
#define ADAPTER_IMPL_EVENTDEV_SONAME \
	"librte_eventdev.so." RTE_STR(SWTIM_DPDK_ABI)

/**
 * One event timer adapter implementation's calls. A NULL entry is a call
 * the implementation does not have (each entry says which may be).
 * Thread safety, return values and rte_errno are the implementation's:
 * swtim.h, or DPDK's rte_event_timer_adapter.h.
 */
struct adapter_impl {
	/** Who serves it ("swtim", "dpdk"): for messages and reports. */
	const char *name;

	/* Control path: DPDK's rte_event_timer_adapter_*() calls. */

	/** Create an adapter that adds its own event port. */
	void *(*create)(const struct rte_event_timer_adapter_conf *conf);
	/** Create an adapter on the port conf_cb gives. */
	void *(*create_ext)(const struct rte_event_timer_adapter_conf *conf,
			    rte_event_timer_adapter_port_conf_cb_t conf_cb,
			    void *conf_arg);
	/**
	 * create_ext() (create() for a NULL conf_cb) with one of swtim's
	 * drivers by name (NULL: the default one) and its options
	 * ("key=value,..."; NULL or "": none). NULL where the implementation
	 * has no drivers (DPDK's).
	 */
	void *(*create_with_driver)(
		const struct rte_event_timer_adapter_conf *conf,
		rte_event_timer_adapter_port_conf_cb_t conf_cb, void *conf_arg,
		const char *driver, const char *devargs);
	int (*get_info)(const void *adapter,
			struct rte_event_timer_adapter_info *adapter_info);
	int (*start)(const void *adapter);
	int (*stop)(const void *adapter);
	void *(*lookup)(uint16_t adapter_id);
	int (*free)(void *adapter);
	int (*service_id_get)(void *adapter, uint32_t *service_id);
	int (*stats_get)(void *adapter,
			 struct rte_event_timer_adapter_stats *stats);
	int (*stats_reset)(void *adapter);
	/**
	 * The capabilities of an adapter on event device dev_id. NULL in
	 * swtim's, whose adapters' capabilities depend on the driver and
	 * are in get_info().
	 */
	int (*caps_get)(uint8_t dev_id, uint32_t *caps);
	/**
	 * Another event port for expiry events, before start. NULL where an
	 * adapter has one port only (DPDK's).
	 */
	int (*port_add)(void *adapter, uint8_t event_port_id);

	/* Fast path: DPDK's rte_event_timer_*() calls. */

	uint16_t (*arm_burst)(const void *adapter,
			      struct rte_event_timer **evtims,
			      uint16_t nb_evtims);
	uint16_t (*arm_tmo_tick_burst)(const void *adapter,
				       struct rte_event_timer **evtims,
				       uint64_t timeout_ticks,
				       uint16_t nb_evtims);
	uint16_t (*cancel_burst)(const void *adapter,
				 struct rte_event_timer **evtims,
				 uint16_t nb_evtims);
	/**
	 * NULL where DPDK's release has no
	 * rte_event_timer_remaining_ticks_get() (before 23.03).
	 */
	int (*remaining_ticks_get)(const void *adapter,
				   const struct rte_event_timer *evtim,
				   uint64_t *ticks_remaining);
};

/** swtim's API (swtim.h), every entry but caps_get. */
extern const struct adapter_impl adapter_impl_swtim;

/**
 * DPDK's API as this program links it: librte_eventdev's adapter (or,
 * where libswtim_dropin comes first, the drop-in's). Its fast path is
 * DPDK's inline rte_event_timer_arm_burst() and friends, which call
 * through the handle; create_with_driver and port_add are NULL.
 */
extern const struct adapter_impl adapter_impl_dpdk;

/**
 * Finds one of DPDK's functions by name and symbol version
 * (ADAPTER_IMPL_DPDK_VERSION or ADAPTER_IMPL_DPDK_EXPERIMENTAL): its
 * address, or NULL (having said why).
 */
typedef void *(*adapter_impl_sym_t)(const char *name, const char *version,
				    void *arg);

/**
 * Fill impl's entries that DPDK's API has by name
 * (ADAPTER_IMPL_DPDK_CALLS(), from dpdk_calls.txt) with what
 * sym(name, version, arg) finds; the other entries are left as they are
 * (a copy of adapter_impl_dpdk gives DPDK's inline fast path, which
 * calls through the handle and so serves any library's adapters).
 *
 * @return
 *   true, or false at the first name sym() finds nothing for (impl is
 *   then partly filled).
 */
static inline bool
adapter_impl_fill_by_name(struct adapter_impl *impl, adapter_impl_sym_t sym,
			  void *arg)
{
	/*
	 * Through a void pointer: the entry's type differs from the
	 * function's in the handle only (see above).
	 */
#define ADAPTER_IMPL_FILL(field, function, version) \
	*(void **)&impl->field = sym(#function, version, arg); \
	if (impl->field == NULL) \
		return false;
	ADAPTER_IMPL_DPDK_CALLS(ADAPTER_IMPL_FILL)
#undef ADAPTER_IMPL_FILL
	return true;
}

/**
 * Create an adapter of impl on the port conf_cb gives (NULL: a port of
 * its own), with a swtim driver and its options where impl has drivers
 * (ignored where it has not).
 *
 * @return
 *   The adapter, or NULL with rte_errno set.
 */
static inline void *
adapter_impl_create(const struct adapter_impl *impl,
		    const struct rte_event_timer_adapter_conf *conf,
		    rte_event_timer_adapter_port_conf_cb_t conf_cb,
		    void *conf_arg, const char *driver, const char *devargs)
{
	if (impl->create_with_driver != NULL)
		return impl->create_with_driver(conf, conf_cb, conf_arg,
						driver, devargs);
	if (conf_cb == NULL)
		return impl->create(conf);
	return impl->create_ext(conf, conf_cb, conf_arg);
}

#endif /* ADAPTER_IMPL_H */
