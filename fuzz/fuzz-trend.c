/*
 * libFuzzer harness: the trend statistics and verdicts over any series of
 * values, and the slope-gate parser and check on the same result.
 *
 * Input: one byte N (the number of samples, 3..66), then up to N values of
 * 8 bytes each (big-endian, capped at 2^63 - 1 like every model figure; a
 * value of all ones is a missing sample), then the gate expression.
 */

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "model/trend.h"
#include "model/trend_gate.h"
#include "util/xalloc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static double
value(const uint8_t *p)
{
	uint64_t v = 0;
	for (int i = 0; i < 8; i++)
		v = v << 8 | p[i];
	if (v == UINT64_MAX)
		return NAN;
	return (double)(v & (uint64_t)INT64_MAX);
}

static void
check_slope(const struct trend_ts *ts)
{
	if (!(ts->lo <= ts->hi) || isnan(ts->slope))
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	size_t n = 3 + data[0] % 64, k = 0;
	data++;
	size--;
	double v[66], hours[66];
	for (; k < n && size >= 8; k++, data += 8, size -= 8) {
		v[k] = value(data);
		hours[k] = (double)(data[7] % 4) * 0.25 * (double)k;   /* ties included */
	}
	struct trend_params p;
	struct trend_result r;
	trend_params_default(&p, k);
	trend_analyse_values(v, k % 2 ? hours : NULL, k, k % 3 ? TREND_BYTES : TREND_COUNT,
			     k % 7 == 0 ? 1024.0 * 1024.0 : 0, k % 5 == 0, &p, &r);
	if (r.verdict >= TREND_VERDICTS || !r.why)
		abort();
	if (r.has_slope)
		check_slope(&r.per_sample);
	if (r.has_hour)
		check_slope(&r.per_hour);
	if (r.has_mk && !(r.mk.p >= 0 && r.mk.p <= 1))
		abort();
	char *text = xmemdup0(data, size);
	struct trend_gate g;
	struct diag err;
	if (trend_gate_parse(text, &g, &err) == 0) {
		if (!g.name || !g.g.metric[0])
			abort();
		trend_gate_check(&g, &r, TREND_BYTES, &err);
	}
	trend_gate_release(&g);
	free(text);
	return 0;
}
