/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The swtim authors
 */

#ifndef SWTIM_DPDK_COMPAT_H
#define SWTIM_DPDK_COMPAT_H

/**
 * @file
 * What differs between the DPDK releases swtim builds against, 22.11 to
 * 25.11, said once and keyed on RTE_VERSION, so that no other file asks
 * which DPDK it has. Not installed.
 *
 * The ABI side (the symbol version and soname of librte_eventdev that
 * libswtim_dropin speaks) is worked out by meson from the release's
 * version, in lib/dropin/meson.build, since the linker's version script
 * needs it too.
 *
 * What did not change, and so needs nothing here: the layout of the
 * public structs (struct rte_event, rte_event_timer, the adapter's conf,
 * info and stats); rte_event_timer's state became RTE_ATOMIC() in 23.11,
 * which is the plain enum unless DPDK is built with enable_stdatomic
 * (no distribution does), and swtim reaches it with the __atomic
 * builtins, which take either.
 */

#include <rte_version.h>

/**
 * Whether the release has rte_event_timer_remaining_ticks_get() (and its
 * entry in an adapter's ops): 23.03 added both, as EXPERIMENTAL.
 */
#define SWTIM_DPDK_HAS_REMAINING_TICKS \
	(RTE_VERSION >= RTE_VERSION_NUM(23, 3, 0, 0))

/**
 * Telemetry's unsigned dictionary value: rte_tel_data_add_dict_uint()
 * took over from rte_tel_data_add_dict_u64() in 23.03; the old name was
 * deprecated then and is gone in 25.11.
 */
#if RTE_VERSION >= RTE_VERSION_NUM(23, 3, 0, 0)
#define swtim_tel_dict_add_uint rte_tel_data_add_dict_uint
#else
#define swtim_tel_dict_add_uint rte_tel_data_add_dict_u64
#endif

/**
 * Marks an anonymous union or a bit-field as C11 for -std=c99 users:
 * RTE_STD_C11 until 23.11 removed it (DPDK needs C11 since).
 */
#ifdef RTE_STD_C11
#define SWTIM_STD_C11 RTE_STD_C11
#else
#define SWTIM_STD_C11
#endif

#endif /* SWTIM_DPDK_COMPAT_H */
