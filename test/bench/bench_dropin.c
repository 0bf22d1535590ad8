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

static struct adapter_impl bench_dropin;
static bool bench_dropin_loaded;

static void *
bench_dropin_sym(const char *name, const char *version, void *lib)
{
	void *sym = dlvsym(lib, name, version);

	if (sym == NULL)
		bench_error("%s: no %s@%s", bench_opts.dropin, name, version);
	return sym;
}

const struct adapter_impl *
bench_dropin_impl(void)
{
	void *lib;

	if (bench_dropin_loaded)
		return &bench_dropin;
	/*
	 * dlmopen() into the program's own namespace is dlopen(), but for
	 * one thing: AddressSanitizer intercepts dlopen(), and the loader
	 * then searches the run path of its runtime, not this program's,
	 * for a name without a slash (the default one).
	 */
	lib = dlmopen(LM_ID_BASE, bench_opts.dropin, RTLD_NOW | RTLD_LOCAL);
	if (lib == NULL) {
		bench_error("cannot load the drop-in library (--dropin): %s",
			    dlerror());
		return NULL;
	}
	/* DPDK's inline fast path, the library's control calls. */
	bench_dropin = adapter_impl_dpdk;
	bench_dropin.name = "dropin";
	if (!adapter_impl_fill_by_name(&bench_dropin, bench_dropin_sym, lib))
		return NULL;
	/* Kept loaded to the end: adapters it made may outlive a case. */
	bench_dropin_loaded = true;
	return &bench_dropin;
}
