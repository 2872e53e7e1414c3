#include "util/suggest.h"

#include <string.h>

static unsigned char
fold(unsigned char c)
{
	return c >= 'A' && c <= 'Z' ? (unsigned char)(c - 'A' + 'a') : c;
}

/* The most edits a candidate may be from a word of `len` bytes. */
static size_t
max_edits(size_t len)
{
	return len <= 4 ? 1 : len <= 8 ? 2 : 3;
}

static size_t
min3(size_t a, size_t b, size_t c)
{
	size_t m = a < b ? a : b;
	return m < c ? m : c;
}

/*
 * Optimal string alignment distance over three rows of at most
 * SUGGEST_MAX_LEN + 1 cells (the callers bound both lengths).
 */
static size_t
distance(const char *a, size_t na, const char *b, size_t nb)
{
	size_t rows[3][SUGGEST_MAX_LEN + 1];
	size_t *prev2 = rows[0], *prev = rows[1], *cur = rows[2];
	for (size_t j = 0; j <= nb; j++)
		prev[j] = j;
	for (size_t i = 1; i <= na; i++) {
		cur[0] = i;
		for (size_t j = 1; j <= nb; j++) {
			unsigned char ca = fold((unsigned char)a[i - 1]);
			unsigned char cb = fold((unsigned char)b[j - 1]);
			size_t d = min3(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb));
			if (i > 1 && j > 1 && ca == fold((unsigned char)b[j - 2]) &&
			    fold((unsigned char)a[i - 2]) == cb && prev2[j - 2] + 1 < d)
				d = prev2[j - 2] + 1;
			cur[j] = d;
		}
		size_t *t = prev2;
		prev2 = prev;
		prev = cur;
		cur = t;
	}
	return prev[nb];
}

void
suggest_init(struct suggest *s, const char *word, size_t len)
{
	memset(s, 0, sizeof(*s));
	s->word = word;
	s->len = len;
}

/* a before b in byte order (a shorter prefix first). */
static int
bytes_cmp(const char *a, size_t na, const char *b, size_t nb)
{
	int c = memcmp(a, b, na < nb ? na : nb);
	return c ? c : (na > nb) - (na < nb);
}

void
suggest_consider(struct suggest *s, const char *cand, size_t len)
{
	if (s->len == 0 || s->len > SUGGEST_MAX_LEN || len > SUGGEST_MAX_LEN)
		return;
	size_t limit = max_edits(s->len);
	size_t gap = len > s->len ? len - s->len : s->len - len;
	if (gap > limit || (len == s->len && memcmp(cand, s->word, len) == 0))
		return;
	size_t d = distance(s->word, s->len, cand, len);
	if (d > limit)
		return;
	if (!s->best || d < s->best_dist ||
	    (d == s->best_dist && bytes_cmp(cand, len, s->best, s->best_len) < 0)) {
		s->best = cand;
		s->best_len = len;
		s->best_dist = d;
	}
}
