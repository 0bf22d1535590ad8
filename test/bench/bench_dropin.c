/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The swtim authors
 */

/*
 * libswtim_dropin's control calls for the BENCH_DPDK_API_PREFIX cases:
 * swtim's drivers behind DPDK's API, the way an unchanged DPDK
 * application reaches them (doc/migration.md). The library is loaded
 * with RTLD_LOCAL, so that this program's own calls to DPDK's names
 * (the "dpdk" cases) still reach librte_eventdev, and its definitions
 * are taken at DPDK's symbol version, as an application linked against
 * librte_eventdev binds them.
 */

#include <dlfcn.h>
#include <stdbool.h>

#include "bench_adapter.h"

/* DPDK 22.11's version of the timer adapter's names. */
#define BENCH_DPDK_VERSION "DPDK_23"

static struct ta_dpdk_api bench_dropin;
static bool bench_dropin_loaded;

static void *
bench_dropin_sym(void *lib, const char *name)
{
	void *sym = dlvsym(lib, name, BENCH_DPDK_VERSION);

	if (sym == NULL)
		bench_error("%s: no %s@%s", bench_opts.dropin, name,
			    BENCH_DPDK_VERSION);
	return sym;
}

const struct ta_dpdk_api *
bench_dropin_api(void)
{
	struct ta_dpdk_api *api = &bench_dropin;
	void *lib;

	if (bench_dropin_loaded)
		return api;
	lib = dlopen(bench_opts.dropin, RTLD_NOW | RTLD_LOCAL);
	if (lib == NULL) {
		bench_error("cannot load the drop-in library (--dropin): %s",
			    dlerror());
		return NULL;
	}
#define BENCH_DROPIN_SYM(field, name) do { \
		*(void **)&api->field = bench_dropin_sym(lib, name); \
		if (api->field == NULL) \
			return NULL; \
	} while (0)
	BENCH_DROPIN_SYM(create_ext, "rte_event_timer_adapter_create_ext");
	BENCH_DROPIN_SYM(get_info, "rte_event_timer_adapter_get_info");
	BENCH_DROPIN_SYM(start, "rte_event_timer_adapter_start");
	BENCH_DROPIN_SYM(stop, "rte_event_timer_adapter_stop");
	BENCH_DROPIN_SYM(free, "rte_event_timer_adapter_free");
	BENCH_DROPIN_SYM(service_id_get,
			 "rte_event_timer_adapter_service_id_get");
	BENCH_DROPIN_SYM(stats_get, "rte_event_timer_adapter_stats_get");
#undef BENCH_DROPIN_SYM
	/* Kept loaded to the end: adapters it made may outlive a case. */
	bench_dropin_loaded = true;
	return api;
}
