/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The swtim authors
 */

#ifndef SWTIM_DROPIN_H
#define SWTIM_DROPIN_H

/**
 * @file
 * libswtim_dropin: swtim behind DPDK's own event timer adapter API.
 *
 * The library defines the control calls of DPDK's
 * rte_event_timer_adapter.h (every rte_event_timer_adapter_*() function,
 * as swtim's lib/adapter_impl/dpdk_calls.txt lists them) at the symbol
 * version of the DPDK release it was built against (DPDK_23 on
 * 22.11, DPDK_25 on 24.11, DPDK_26 on 25.11), and, from 23.03 on,
 * rte_event_timer_remaining_ticks_get() at EXPERIMENTAL. A process that
 * loads another release's librte_eventdev is refused: a line on stderr,
 * and exit status 1 before main(). An unchanged application that is linked
 * against librte_eventdev uses swtim when the library is preloaded
 * (LD_PRELOAD) or linked ahead of librte_eventdev: the handle it gets is a
 * struct rte_event_timer_adapter whose arm_burst, arm_tmo_tick_burst and
 * cancel_burst pointers, called by DPDK's inline rte_event_timer_arm_burst()
 * and friends, lead into swtim_arm_burst() and friends.
 *
 * Applications need not include this header: it only names the
 * environment variables the library reads at each create (and at
 * rte_event_timer_adapter_caps_get()), for programs that set them
 * themselves.
 */

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Environment variable naming the swtim driver that serves adapters
 * created through DPDK's names ("wheel" or "skiplist"; unset or empty:
 * SWTIM_DEFAULT_DRIVER). An unknown name refuses the create with
 * rte_errno EINVAL.
 */
#define SWTIM_DROPIN_ENV_DRIVER "SWTIM_DRIVER"

/**
 * Environment variable holding the driver's options, "key=value,..." as
 * swtim_adapter_create_with_driver() takes them (for example
 * "max_sleep_us=100"). An option the driver refuses refuses the create
 * with rte_errno EINVAL.
 */
#define SWTIM_DROPIN_ENV_DRIVER_ARGS "SWTIM_DRIVER_ARGS"

/**
 * Environment variable saying which event devices DPDK's own adapter
 * implementation keeps serving:
 * - "hw" (also when unset or empty): devices whose PMD brings its own
 *   timer adapter (RTE_EVENT_TIMER_ADAPTER_CAP_INTERNAL_PORT); swtim
 *   serves the others;
 * - "all": every device (swtim serves none);
 * - "none": no device (swtim serves every one, hardware too).
 * Any other value refuses create (rte_errno EINVAL) and caps_get (-EINVAL).
 */
#define SWTIM_DROPIN_ENV_DPDK "SWTIM_DPDK_ADAPTER"

#ifdef __cplusplus
}
#endif

#endif /* SWTIM_DROPIN_H */
