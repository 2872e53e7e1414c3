#ifndef IOTALLY_TESTS_SERIES_SIM_H
#define IOTALLY_TESTS_SERIES_SIM_H

/*
 * What the simulators of a series' operating characteristics share
 * (tests/trend-sim.c for docs/trend.md §8, tests/rate-sim.c for
 * docs/rate.md §5): one seeded generator (splitmix64, Box-Muller), the
 * AR(1) noise it draws, and the SHAPE[:ARG] operand. Deterministic: the
 * same seed draws the same series in the same order.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SIM_MIB (1024.0 * 1024.0)
#define SIM_MAXN 1000            /* samples of a series at the most */

void sim_seed(uint64_t seed);
/* Uniform in (0, 1). */
double sim_uniform(void);
/* Standard normal. */
double sim_gauss(void);
/* The next AR(1) noise value after `e`, lag-1 correlation `rho`, unit variance. */
double sim_ar1_next(double e, double rho);

/* A simulator's operands: SHAPE N RHO [MISSING] REPS SEED. */
struct sim_operands {
	char shape[32];              /* SHAPE before ':' */
	double arg;                  /* after ':'; 0 none */
	size_t n;                    /* samples of a series */
	double rho;
	double missing;              /* with MISSING: the share left out */
	unsigned long reps;          /* series to draw */
};

/*
 * argv read into *o (with MISSING or not), the generator seeded with SEED.
 * 0; 64 when the count is wrong (`usage` said) or SHAPE is too long.
 */
int sim_operands_read(int argc, char **argv, bool with_missing, const char *usage,
		      struct sim_operands *o);

/*
 * "plateau:0.4" into shape "plateau" (at most size - 1 bytes) and *arg 0.4;
 * no ':' leaves *arg 0. -1 when the name does not fit.
 */
int sim_shape_split(const char *spec, char *shape, size_t size, double *arg);

#endif
