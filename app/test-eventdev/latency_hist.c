/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The swtim authors
 */

#include <string.h>

#include "latency_hist.h"

void
latency_hist_init(struct latency_hist *h)
{
	memset(h, 0, sizeof(*h));
	h->min = UINT64_MAX;
}

void
latency_hist_merge(struct latency_hist *dst, const struct latency_hist *src)
{
	unsigned int i;

	if (src->count == 0)
		return;
	for (i = 0; i < LATENCY_HIST_BUCKETS; i++)
		dst->bucket[i] += src->bucket[i];
	dst->count += src->count;
	dst->sum += src->sum;
	dst->min = RTE_MIN(dst->min, src->min);
	dst->max = RTE_MAX(dst->max, src->max);
}

void
latency_hist_bucket_range(unsigned int i, uint64_t *low, uint64_t *width)
{
	unsigned int octave, sub;

	if (i < LATENCY_HIST_LINEAR) {
		*low = i;
		*width = 1;
		return;
	}
	octave = (i - LATENCY_HIST_LINEAR) / LATENCY_HIST_SUB;
	sub = (i - LATENCY_HIST_LINEAR) % LATENCY_HIST_SUB;
	/* Values with their top bit at LATENCY_HIST_SUB_BITS + 1 + octave. */
	*width = UINT64_C(1) << (octave + 1);
	*low = (uint64_t)(LATENCY_HIST_SUB + sub) * *width;
}

uint64_t
latency_hist_quantile(const struct latency_hist *h, double q)
{
	uint64_t rank, seen = 0, low, width, v;
	unsigned int i;

	if (h->count == 0)
		return 0;
	if (q <= 0)
		return h->min;
	if (q >= 1)
		return h->max;
	/* The sample of this rank (1-based) is the answer. */
	rank = (uint64_t)(q * (double)h->count);
	if ((double)rank < q * (double)h->count)
		rank++;
	if (rank == 0)
		rank = 1;
	for (i = 0; i < LATENCY_HIST_BUCKETS; i++) {
		seen += h->bucket[i];
		if (seen >= rank)
			break;
	}
	latency_hist_bucket_range(i, &low, &width);
	v = low + width / 2;
	return RTE_MAX(RTE_MIN(v, h->max), h->min);
}

double
latency_hist_mean(const struct latency_hist *h)
{
	return h->count ? (double)h->sum / (double)h->count : 0.0;
}
