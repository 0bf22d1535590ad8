/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The swtim authors
 */

#include "swtim_log.h"

RTE_LOG_REGISTER(swtim_logtype, swtim, NOTICE);
