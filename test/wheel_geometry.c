/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The swtim authors
 */

/*
 * The wheel driver's geometry as its code computes it, for
 * check_wheel_geometry.py to hold doc/design.md's figures against: the
 * constants and sizes of whl_private.h at the WHL_LEVEL_BITS this is
 * built with, and each level's slots, slot span and range, the last two
 * as powers of two of grains.
 *
 * The level table is not only derived from the constants: each level's
 * span and range are checked against where whl_slot_of(), the function
 * that places every timer, puts a timer due at the first and last grain
 * of that level's range, so a table that agrees with this program agrees
 * with the wheel. Exits 1, saying why, if they disagree.
 *
 * Output: "name value" lines, then one "level L slots S span_log2 A
 * range_log2 B" line per level.
 */

#include <inttypes.h>
#include <stdio.h>

#include "swtim_tunables.h"
#include "whl_slot.h"

/* Bits of a grain count level l resolves above the lower levels'. */
static unsigned int
level_range_log2(unsigned int level)
{
	unsigned int top = (level + 1) * WHL_LEVEL_BITS;

	return top < 64 ? top : 64;
}

/* Whether whl_slot_of(), from a clock at 0, puts expiry at level, slot. */
static int
placed_at(uint64_t expiry, unsigned int level, unsigned int slot)
{
	unsigned int where = whl_slot_of(0, expiry);

	if (where == level * WHL_SLOTS + slot)
		return 1;
	fprintf(stderr, "whl_slot_of(0, %#" PRIx64 ") = level %u slot %u, "
		"the table says level %u slot %u\n", expiry,
		where / WHL_SLOTS, where % WHL_SLOTS, level, slot);
	return 0;
}

int
main(void)
{
	const struct whl_wheel *w = NULL;
	unsigned int level, span, range, slots;
	int ok = 1;

	printf("level_bits %u\n", WHL_LEVEL_BITS);
	printf("levels %u\n", WHL_LEVELS);
	printf("slots %u\n", WHL_SLOTS);
	printf("wheel_bytes %zu\n", sizeof(*w));
	printf("stack_bytes %zu\n", sizeof(w->stack));
	printf("wheels %u\n", (unsigned int)SWTIM_LANES_MAX);
	printf("block_entries %u\n", WHL_BLOCK_ENTRIES);
	printf("block_bytes %zu\n",
	       sizeof(struct whl_block) + sizeof(struct whl_block_head));
	printf("grain_shift_max %u\n", SWTIM_GRAIN_SHIFT_MAX);
	printf("grain_min_bits %u\n", SWTIM_GRAIN_MIN_BITS);
	for (level = 0; level < WHL_LEVELS; level++) {
		span = level * WHL_LEVEL_BITS;
		range = level_range_log2(level);
		slots = 1u << (range - span);
		/* The first grain of the range beyond the lower levels', the
		 * last grain of the range, and the next level's first. */
		if (level > 0)
			ok &= placed_at(UINT64_C(1) << span, level, 1);
		ok &= placed_at(range == 64 ? UINT64_MAX :
				(UINT64_C(1) << range) - 1, level, slots - 1);
		if (range < 64)
			ok &= placed_at(UINT64_C(1) << range, level + 1, 1);
		printf("level %u slots %u span_log2 %u range_log2 %u\n",
		       level, slots, span, range);
	}
	return ok ? 0 : 1;
}
