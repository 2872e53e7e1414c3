/*
 * Leak signatures: components collected per section, then capped, ordered
 * and written as one canonical text whose hash is the id.
 */

#include "model/signature.h"

#include "util/sha256.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const section_names[SIGNATURE_SECTIONS] = { "trend", "gpu", "class", "track", "fp" };

const char *
signature_section_name(enum signature_section s)
{
	return s < SIGNATURE_SECTIONS ? section_names[s] : "?";
}

void
signature_init(struct signature *s)
{
	memset(s, 0, sizeof(*s));
}

void
signature_release(struct signature *s)
{
	for (size_t i = 0; i < s->n; i++) {
		free(s->c[i].key);
		free(s->c[i].label);
	}
	free(s->c);
	free(s->canonical);
	free(s->label);
	free(s->os_version);
	free(s->machine);
	free(s->captured);
	memset(s, 0, sizeof(*s));
}

static uint64_t
sat_add(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

void
signature_add(struct signature *s, enum signature_section sec, const char *key,
	      const char *label, uint64_t bytes, uint64_t count)
{
	for (size_t i = 0; i < s->n; i++) {
		struct signature_component *c = &s->c[i];
		if (c->section == sec && strcmp(c->key, key) == 0) {
			c->bytes = sat_add(c->bytes, bytes);
			c->count = sat_add(c->count, count);
			return;
		}
	}
	s->c = xgrow(s->c, &s->alloc, s->n + 1, sizeof(*s->c));
	s->c[s->n++] = (struct signature_component){
		.section = sec, .key = xstrdup(key), .label = xstrdup(label),
		.bytes = bytes, .count = count,
	};
}

void
signature_set_meta(char **field, const char *value)
{
	if (!value || !*value)
		return;
	free(*field);
	*field = xstrdup(value);
}

/* Rank within a section: larger growth first; the key breaks ties. */
static int
by_rank(const void *pa, const void *pb)
{
	const struct signature_component *a = pa, *b = pb;
	if (a->section != b->section)
		return a->section < b->section ? -1 : 1;
	if (a->bytes != b->bytes)
		return a->bytes > b->bytes ? -1 : 1;
	if (a->count != b->count)
		return a->count > b->count ? -1 : 1;
	return strcmp(a->key, b->key);
}

/* Canonical order: section, then key, so rank changes never reorder it. */
static int
by_key(const void *pa, const void *pb)
{
	const struct signature_component *a = pa, *b = pb;
	if (a->section != b->section)
		return a->section < b->section ? -1 : 1;
	return strcmp(a->key, b->key);
}

/* Keep the SIGNATURE_PER_SECTION first of each section (already ranked). */
static void
cap_sections(struct signature *s)
{
	size_t kept = 0, run = 0;
	for (size_t i = 0; i < s->n; i++) {
		run = (i > 0 && s->c[i].section == s->c[i - 1].section) ? run + 1 : 0;
		if (run < SIGNATURE_PER_SECTION) {
			s->c[kept++] = s->c[i];
			continue;
		}
		free(s->c[i].key);
		free(s->c[i].label);
	}
	s->n = kept;
}

void
signature_id_of(const char *canonical, char id[SIGNATURE_ID_SIZE])
{
	struct sha256 h;
	char hex[SHA256_HEX_SIZE];
	sha256_begin(&h);
	sha256_add(&h, canonical, strlen(canonical));
	sha256_end_hex(&h, hex);
	memcpy(id, hex, SIGNATURE_ID_DIGITS);
	id[SIGNATURE_ID_DIGITS] = '\0';
}

void
signature_finish(struct signature *s)
{
	if (s->finished)
		return;
	s->finished = true;
	if (s->n == 0)
		return;
	qsort(s->c, s->n, sizeof(*s->c), by_rank);
	cap_sections(s);
	qsort(s->c, s->n, sizeof(*s->c), by_key);
	struct strbuf canon = STRBUF_INIT, label = STRBUF_INIT;
	strbuf_addstr(&canon, SIGNATURE_RULE);
	for (size_t i = 0; i < s->n; i++) {
		const struct signature_component *c = &s->c[i];
		strbuf_addf(&canon, "%s%s:%s", i ? "; " : " ", section_names[c->section], c->key);
		strbuf_addf(&label, "%s%s", i ? "; " : "", c->label);
		s->growth_bytes = sat_add(s->growth_bytes, c->bytes);
		s->growth_count = sat_add(s->growth_count, c->count);
	}
	s->canonical = strbuf_detach(&canon, NULL);
	s->label = strbuf_detach(&label, NULL);
	signature_id_of(s->canonical, s->id);
}

bool
signature_has(const struct signature *s)
{
	return s->canonical != NULL;
}

unsigned
signature_size_bucket(uint64_t vsize)
{
	if (vsize <= 1)
		return 0;
	unsigned e = 63 - (unsigned)__builtin_clzll(vsize);
	/* Up to the next power when past the geometric midpoint 2^e * sqrt(2):
	 * vsize^2 >= 2^(2e+1), compared without overflow as (vsize / 2^e)^2 >= 2
	 * in 32.32 fixed point. */
	uint64_t lo = vsize - (1ull << e);              /* < 2^e */
	/* frac = lo / 2^e in [0, 1): (1 + frac)^2 >= 2 <=> frac >= sqrt(2) - 1. */
	uint64_t frac32 = e >= 32 ? lo >> (e - 32) : lo << (32 - e);
	/* sqrt(2) - 1 = 0.41421356237... in 32.32: 1779033703.95 */
	if (frac32 >= 1779033704ull && e < 63)
		e++;
	return e;
}

void
signature_bucket_text(unsigned bucket, char *out, size_t size)
{
	static const char units[] = "BKMGTPE";
	unsigned u = bucket / 10;
	if (u >= sizeof(units) - 1)
		u = sizeof(units) - 2;
	unsigned long long v = 1ull << (bucket - 10 * u);
	if (u == 0)
		snprintf(out, size, "%lluB", v);
	else
		snprintf(out, size, "%llu%c", v, units[u]);
}

void
signature_symbol_text(const char *sym, size_t len, char *out, size_t size)
{
	size_t o = 0;
	int depth = 0;
	if (size == 0)
		return;
	for (size_t i = 0; i < len && o + 1 < size; i++) {
		char ch = sym[i];
		/* "operator<", "operator()" keep their characters. */
		bool op = i >= 8 && memcmp(sym + i - 8, "operator", 8) == 0;
		if (ch == '<' && !op) {
			if (depth++ == 0 && o + 3 < size) {
				memcpy(out + o, "<T>", 3);
				o += 3;
			}
			continue;
		}
		if (ch == '>' && depth > 0) {
			depth--;
			continue;
		}
		if (depth > 0)
			continue;
		if (ch == '(' && !op)
			break;
		out[o++] = ch;
	}
	/* A trailing " const" belongs to the argument list's side. */
	while (o > 0 && out[o - 1] == ' ')
		o--;
	out[o] = '\0';
}
