#ifndef IOTALLY_TEST_RNG_H
#define IOTALLY_TEST_RNG_H

/*
 * The unit tests' random numbers: xorshift64* (Vigna, "An experimental
 * exploration of Marsaglia's xorshift generators, scrambled"). A fixed
 * seed gives the same inputs on every run of one build, so a failing case
 * comes back when the test is run again.
 */

#include <stdint.h>

/* The next number of the sequence in *state (a nonzero seed). */
static inline uint64_t
test_rng_next(uint64_t *state)
{
	uint64_t x = *state;
	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*state = x;
	return x * UINT64_C(2685821657736338717);
}

/* A number below n (n > 0); the modulo's slight bias does not matter here. */
static inline uint64_t
test_rng_below(uint64_t *state, uint64_t n)
{
	return test_rng_next(state) % n;
}

/*
 * A test file's one sequence, when it defines TEST_RNG_SEED before
 * including this: rnd() and below(n).
 */
#ifdef TEST_RNG_SEED
static uint64_t test_rng_state = TEST_RNG_SEED;

static inline uint64_t
rnd(void)
{
	return test_rng_next(&test_rng_state);
}

/* Below n (n > 0): the tests' counts and lengths fit in unsigned. */
static inline unsigned
below(unsigned n)
{
	return (unsigned)test_rng_below(&test_rng_state, n);
}
#endif

#endif
