/*
 * Simulated series for the operating characteristics of `iotally trend`
 * (docs/trend.md §8, driven by tools/trend-rates): each series is built
 * from a known shape plus seeded AR(1) noise and given to the same
 * analysis the command runs (trend_analyse_values), and the verdicts are
 * counted. Deterministic: a fixed generator (splitmix64, Box-Muller)
 * seeded from the command line.
 *
 *   trend-sim SHAPE N RHO MISSING REPS SEED
 *
 * SHAPE: flat, leak:R (R sigma per sample), rise:R (R sigma over the
 * window, linear), plateau:F (6 sigma rising until the fraction F of the
 * window, then flat), step (6 sigma at the middle), stairs (6 sigma at a
 * third and again at two thirds), qflat, qleak and qstop:F (rounded to a
 * step of 5 sigma: flat at a random level, rising by 3 steps over the
 * window, or rising by 3 steps until the fraction F of the window, then
 * flat: vmmap's footprint line over a rise that stopped).
 * MISSING: the share of samples left out at random (rounded to whole
 * samples). Prints "VERDICT COUNT" lines.
 */

#include "model/trend.h"

#include "series-sim.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The shape at sample i of n, in units of the noise sigma. */
static double
shape_at(const char *shape, double arg, size_t i, size_t n, double level)
{
	double t = (double)i / (double)(n - 1);
	if (strcmp(shape, "flat") == 0 || strcmp(shape, "qflat") == 0)
		return level;
	if (strcmp(shape, "leak") == 0)
		return arg * (double)i;
	if (strcmp(shape, "rise") == 0)
		return arg * t;
	if (strcmp(shape, "plateau") == 0)
		return 6 * (t < arg ? t / arg : 1);
	if (strcmp(shape, "step") == 0)
		return i >= n / 2 ? 6 : 0;
	if (strcmp(shape, "stairs") == 0)
		return 6 * (double)((i >= n / 3) + (i >= 2 * n / 3));
	if (strcmp(shape, "qleak") == 0)
		return level + 3 * 5 * t;
	if (strcmp(shape, "qstop") == 0)
		return level + 3 * 5 * (t < arg ? t / arg : 1);
	return NAN;
}

int
main(int argc, char **argv)
{
	struct sim_operands o;
	if (sim_operands_read(argc, argv, true, "usage: trend-sim SHAPE N RHO MISSING REPS SEED",
			      &o) != 0)
		return 64;
	const char *shape = o.shape;
	double arg = o.arg, rho = o.rho, missing = o.missing;
	size_t n = o.n;
	unsigned long reps = o.reps;
	if (n < 3 || n > SIM_MAXN || isnan(shape_at(shape, arg, 0, n, 0)))
		return 64;
	bool quantised = shape[0] == 'q';
	double step = quantised ? 5 * SIM_MIB : 0;
	size_t drop = (size_t)floor(missing * (double)n + 0.5);
	size_t count[TREND_VERDICTS] = { 0 };
	struct trend_params p;
	trend_params_default(&p, n);
	double v[SIM_MAXN];
	for (unsigned long r = 0; r < reps; r++) {
		double e = sim_gauss(), level = quantised ? 5 * sim_uniform() : 0;
		for (size_t i = 0; i < n; i++) {
			if (i)
				e = sim_ar1_next(e, rho);
			double x = 64 * SIM_MIB + (shape_at(shape, arg, i, n, level) + e) * SIM_MIB;
			v[i] = quantised ? step * floor(x / step + 0.5) : x;
		}
		for (size_t k = 0; k < drop;) {
			size_t i = (size_t)(sim_uniform() * (double)n);
			if (i < n && !isnan(v[i])) {
				v[i] = NAN;
				k++;
			}
		}
		struct trend_result res;
		trend_analyse_values(v, NULL, n, TREND_BYTES, step, false, &p, &res);
		count[res.verdict]++;
	}
	for (int k = 0; k < TREND_VERDICTS; k++)
		printf("%s %zu\n", trend_verdict_name((enum trend_verdict)k), count[k]);
	return 0;
}
