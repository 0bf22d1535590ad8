/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The swtim authors
 */

#ifndef LATENCY_HIST_H
#define LATENCY_HIST_H

/**
 * @file
 * A log-linear histogram of unsigned values (nanoseconds here): values
 * below 64 have a bucket each; above, every power of two is cut into 32
 * buckets, so a percentile read from it is within about 3 % of the true
 * value. Exact count, sum, minimum and maximum are kept beside it. One
 * histogram belongs to one lcore; merge them when the run is over.
 */

#include <stdint.h>

#include <rte_common.h>

#define LATENCY_HIST_SUB_BITS 5
#define LATENCY_HIST_SUB (1u << LATENCY_HIST_SUB_BITS)
#define LATENCY_HIST_LINEAR (2u * LATENCY_HIST_SUB)
#define LATENCY_HIST_BUCKETS \
	(LATENCY_HIST_LINEAR + (64 - LATENCY_HIST_SUB_BITS - 1) * LATENCY_HIST_SUB)

struct latency_hist {
	uint64_t count;
	uint64_t sum;
	uint64_t min;
	uint64_t max;
	uint64_t bucket[LATENCY_HIST_BUCKETS];
};

static inline unsigned int
latency_hist_index(uint64_t v)
{
	unsigned int msb, shift;

	if (v < LATENCY_HIST_LINEAR)
		return (unsigned int)v;
	msb = 63 - (unsigned int)__builtin_clzll(v);
	shift = msb - LATENCY_HIST_SUB_BITS;
	return LATENCY_HIST_LINEAR + (msb - LATENCY_HIST_SUB_BITS - 1) *
		LATENCY_HIST_SUB + (unsigned int)((v >> shift) - LATENCY_HIST_SUB);
}

/* Add n samples of value v. */
static inline void
latency_hist_add_n(struct latency_hist *h, uint64_t v, uint64_t n)
{
	h->bucket[latency_hist_index(v)] += n;
	h->count += n;
	h->sum += v * n;
	if (v < h->min)
		h->min = v;
	if (v > h->max)
		h->max = v;
}

static inline void
latency_hist_add(struct latency_hist *h, uint64_t v)
{
	latency_hist_add_n(h, v, 1);
}

void latency_hist_init(struct latency_hist *h);
void latency_hist_merge(struct latency_hist *dst, const struct latency_hist *src);
/* Value at quantile q (0..1): the middle of its bucket, within min..max. */
uint64_t latency_hist_quantile(const struct latency_hist *h, double q);
double latency_hist_mean(const struct latency_hist *h);
/* Smallest value of bucket i (0 .. LATENCY_HIST_BUCKETS - 1), and how
 * many values it holds. */
void latency_hist_bucket_range(unsigned int i, uint64_t *low, uint64_t *width);

#endif /* LATENCY_HIST_H */
