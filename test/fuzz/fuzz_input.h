/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The swtim authors
 */

#ifndef FUZZ_INPUT_H
#define FUZZ_INPUT_H

/**
 * @file
 * Reading a fuzzer's input as a stream of numbers. Past the end every
 * read gives 0, so any input, even an empty one, is a whole program and
 * a short input is a prefix of longer ones (which libFuzzer's mutations
 * of a seed keep meaningful).
 */

#include <stddef.h>
#include <stdint.h>

struct fuzz_input {
	const uint8_t *data;
	size_t size;
	size_t pos;
};

static inline struct fuzz_input
fuzz_input_of(const uint8_t *data, size_t size)
{
	struct fuzz_input in = { data, size, 0 };

	return in;
}

static inline int
fuzz_input_done(const struct fuzz_input *in)
{
	return in->pos >= in->size;
}

static inline uint8_t
fuzz_u8(struct fuzz_input *in)
{
	return in->pos < in->size ? in->data[in->pos++] : 0;
}

/** nbytes (at most 8) bytes, little endian. */
static inline uint64_t
fuzz_uint(struct fuzz_input *in, unsigned int nbytes)
{
	uint64_t v = 0;
	unsigned int i;

	for (i = 0; i < nbytes; i++)
		v |= (uint64_t)fuzz_u8(in) << (8 * i);
	return v;
}

static inline uint16_t
fuzz_u16(struct fuzz_input *in)
{
	return (uint16_t)fuzz_uint(in, 2);
}

static inline uint32_t
fuzz_u32(struct fuzz_input *in)
{
	return (uint32_t)fuzz_uint(in, 4);
}

static inline uint64_t
fuzz_u64(struct fuzz_input *in)
{
	return fuzz_uint(in, 8);
}

/** A number in [0, n) (n > 0), from one byte when n fits in one. */
static inline uint32_t
fuzz_below(struct fuzz_input *in, uint32_t n)
{
	return (n <= 256 ? fuzz_u8(in) : fuzz_u32(in)) % n;
}

#endif /* FUZZ_INPUT_H */
