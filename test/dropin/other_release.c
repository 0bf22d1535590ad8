/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The swtim authors
 */

/*
 * Nothing but a name: built as librte_eventdev.so.<ABI + 1>, another DPDK
 * release's librte_eventdev as far as the loader can tell. Preloaded
 * beside libswtim_dropin (test "refuses-other-release"), it makes a
 * process that runs two DPDK releases at once, which the drop-in must
 * refuse, saying so, rather than stand at a symbol version nobody binds.
 */

int swtim_test_other_release;
