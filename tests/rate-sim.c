/*
 * Simulated iterations for the operating characteristics of `iotally rate`
 * (docs/rate.md §5, driven by tools/rate-rates): each series is a known
 * growth per iteration plus seeded AR(1) noise, given to the analysis the
 * command runs (rate_analyse_values, one metric, the default parameters
 * for n iterations), and the verdicts and the interval's coverage of the
 * true rate are counted. Deterministic: splitmix64 and Box-Muller seeded
 * from the command line.
 *
 *   rate-sim SHAPE N RHO REPS SEED
 *
 * SHAPE (sigma = 1 MiB): none (noise only: the true rate is 0), leak:R
 * (R sigma per iteration), warm:K (rising 2 sigma per iteration for the
 * first K iterations, then flat: a cache that fills). Prints "VERDICT
 * COUNT" lines, then "covered C of T": the series whose 95 % interval
 * holds the true rate per iteration after the warm-up, of those with one.
 */

#include "model/rate.h"

#include "series-sim.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The growth at iteration i, in sigma; NAN for an unknown shape. */
static double
shape_at(const char *shape, double arg, size_t i)
{
	if (strcmp(shape, "none") == 0)
		return 0;
	if (strcmp(shape, "leak") == 0)
		return arg * (double)i;
	if (strcmp(shape, "warm") == 0)
		return 2 * fmin((double)i, arg);
	return NAN;
}

/* The true rate per iteration over the analysed window (after the warm-up). */
static double
true_rate(const char *shape, double arg, size_t warmup)
{
	if (strcmp(shape, "leak") == 0)
		return arg * SIM_MIB;
	if (strcmp(shape, "warm") == 0 && (double)warmup < arg)
		return NAN;   /* still rising in the window: no single rate */
	return 0;
}

int
main(int argc, char **argv)
{
	struct sim_operands o;
	if (sim_operands_read(argc, argv, false, "usage: rate-sim SHAPE N RHO REPS SEED", &o) != 0)
		return 64;
	const char *shape = o.shape;
	double arg = o.arg, rho = o.rho;
	size_t n = o.n;
	unsigned long reps = o.reps;
	if (n < 3 || n > SIM_MAXN || isnan(shape_at(shape, arg, 0)) || !(rho >= 0 && rho < 1))
		return 64;
	struct rate_params rp;
	struct trend_params p;
	rate_params_default(&rp);
	rate_trend_params(&rp, n, &p);
	double truth = true_rate(shape, arg, p.warmup);
	size_t count[RATE_VERDICTS] = { 0 }, covered = 0, with = 0;
	double v[SIM_MAXN];
	for (unsigned long r = 0; r < reps; r++) {
		double e = sim_gauss();
		for (size_t i = 0; i < n; i++) {
			if (i)
				e = sim_ar1_next(e, rho);
			v[i] = 64 * SIM_MIB + (shape_at(shape, arg, i) + e) * SIM_MIB;
		}
		struct trend_result res;
		struct rate_row row;
		rate_analyse_values(v, n, TREND_BYTES, 0, false, &p, &rp, &res, &row);
		count[row.verdict]++;
		if (row.has_rate && !isnan(truth)) {
			with++;
			covered += row.lo <= truth && truth <= row.hi;
		}
	}
	for (int k = 0; k < RATE_VERDICTS; k++)
		printf("%s %zu\n", rate_verdict_name((enum rate_verdict)k), count[k]);
	printf("covered %zu of %zu\n", covered, with);
	return 0;
}
