/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The swtim authors
 */

/*
 * A library that only takes address space, for test_mp_shifted, the copy
 * of test_mp that the calls case starts as its secondary. Linked ahead of
 * every other library of that program, it is mapped first, and its
 * zeroed array moves each library mapped after it, libswtim among them,
 * that far from where test_mp, the primary, has it. With address space
 * randomisation every process has addresses of its own anyway; without
 * it (setarch -R, a debugger, a kernel set so) both programs would map
 * libswtim at one address, and a pointer into the primary's copy, found
 * in shared memory, would work in the secondary by chance.
 */

#include <stdint.h>

/*
 * Many pages, but less than 2 MiB: the kernel puts a larger mapping on a
 * 2 MiB boundary below the others, and the small libraries that follow
 * fill the gap above it, where they would have been anyway. Smaller, it
 * takes the place the first libraries have in test_mp (and libswtim's
 * there with it: a pointer into the primary's libswtim finds zeroes).
 */
#define SWT_MP_SHIFT_BYTES (1u << 20)

/* Zeroed data: address space, no file space, never touched. */
uint8_t swt_mp_shift_pad[SWT_MP_SHIFT_BYTES];
