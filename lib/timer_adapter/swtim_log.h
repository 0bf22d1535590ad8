/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The swtim authors
 */

#ifndef SWTIM_LOG_H
#define SWTIM_LOG_H

/**
 * @file
 * Logging for the library and its drivers: one "swtim" log type,
 * registered with RTE_LOG_REGISTER, so --log-level=swtim:debug works.
 */

#include <rte_log.h>

/** The swtim log type. */
extern int swtim_logtype;

/** Log a line at the given RTE_LOG_* level, prefixed with the function. */
#define SWTIM_LOG(level, fmt, ...) \
	rte_log(RTE_LOG_ ## level, swtim_logtype, "swtim: %s(): " fmt "\n", \
		__func__, ##__VA_ARGS__)

#endif /* SWTIM_LOG_H */
