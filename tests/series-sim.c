/*
 * The simulators' generator and operands (tests/series-sim.h).
 */

#include "series-sim.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rng_state;

void
sim_seed(uint64_t seed)
{
	rng_state = seed;
}

static uint64_t
next_u64(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

double
sim_uniform(void)
{
	return ((double)(next_u64() >> 11) + 0.5) / 9007199254740992.0;
}

double
sim_gauss(void)
{
	double u = sim_uniform(), v = sim_uniform();
	return sqrt(-2 * log(u)) * cos(2 * 3.14159265358979323846 * v);
}

double
sim_ar1_next(double e, double rho)
{
	return rho * e + sqrt(1 - rho * rho) * sim_gauss();
}

int
sim_shape_split(const char *spec, char *shape, size_t size, double *arg)
{
	const char *colon = strchr(spec, ':');
	size_t len = colon ? (size_t)(colon - spec) : strlen(spec);
	if (len >= size)
		return -1;
	memcpy(shape, spec, len);
	shape[len] = '\0';
	*arg = colon ? strtod(colon + 1, NULL) : 0;
	return 0;
}

int
sim_operands_read(int argc, char **argv, bool with_missing, const char *usage,
		  struct sim_operands *o)
{
	int m = with_missing;
	if (argc != 6 + m) {
		fprintf(stderr, "%s\n", usage);
		return 64;
	}
	if (sim_shape_split(argv[1], o->shape, sizeof(o->shape), &o->arg) < 0)
		return 64;
	o->n = (size_t)strtoul(argv[2], NULL, 10);
	o->rho = strtod(argv[3], NULL);
	o->missing = m ? strtod(argv[4], NULL) : 0;
	o->reps = strtoul(argv[4 + m], NULL, 10);
	sim_seed(strtoull(argv[5 + m], NULL, 10));
	return 0;
}
