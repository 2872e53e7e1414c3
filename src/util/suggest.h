#ifndef IOTALLY_UTIL_SUGGEST_H
#define IOTALLY_UTIL_SUGGEST_H

/*
 * "Did you mean ...?": the candidate nearest to a word that named nothing
 * (a misspelt type, class or module in a gate), by edit distance
 * (insertions, deletions, substitutions and swaps of two neighbours,
 * ASCII case ignored). A candidate qualifies only when it is close for
 * its length: at most one edit for a word of up to 4 bytes, two up to 8,
 * three beyond, and never the word itself. Ties go to the candidate first
 * in byte order, so the answer does not depend on the order they come in.
 * Memory and time are bounded: words longer than SUGGEST_MAX_LEN are not
 * compared.
 */

#include <stddef.h>

#define SUGGEST_MAX_LEN 256

struct suggest {
	const char *word;
	size_t len;
	const char *best;        /* a pointer to the best candidate so far, or NULL */
	size_t best_len;
	size_t best_dist;
};

void suggest_init(struct suggest *s, const char *word, size_t len);
/* Consider one candidate; `cand` must outlive the use of s->best. */
void suggest_consider(struct suggest *s, const char *cand, size_t len);

#endif
