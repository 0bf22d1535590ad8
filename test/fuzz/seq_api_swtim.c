/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The swtim authors
 */

/*
 * The sequence harness (seq_exec.h) on swtim's API: its calls as they
 * are, nothing kept from it.
 */

#include "swtim.h"
#include "seq_exec.h"

const char *seq_swtim_driver = SWTIM_DEFAULT_DRIVER;

struct seq_api seq_swtim_api = {
	.name = "swtim",
	.impl = &adapter_impl_swtim,
};
