/*
 * Leak signatures: components collected per section, then capped, ordered
 * and written as one canonical text whose hash is the id.
 */

#include "model/signature.h"

#include "util/sha256.h"
#include "util/size.h"
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

/* "gpu:" at p: the length of the section's name and colon, 0 when none starts there. */
static size_t
section_at(const char *p, enum signature_section *sec)
{
	for (int i = 0; i < SIGNATURE_SECTIONS; i++) {
		size_t n = strlen(section_names[i]);
		if (strncmp(p, section_names[i], n) == 0 && p[n] == ':') {
			*sec = (enum signature_section)i;
			return n + 1;
		}
	}
	return 0;
}

/* The part of `key` (len bytes) after its last '/' at or before `end`, or NULL. */
static const char *
last_slash(const char *key, size_t end)
{
	while (end > 0 && key[end - 1] != '/')
		end--;
	return end > 0 ? key + end - 1 : NULL;
}

/* A purge state's word: vmmap's letter is for the ones who know vmmap. */
static const char *
purge_word(const char *p, size_t n)
{
	static const struct { const char *code, *word; } words[] = {
		{ "N", "non-volatile" }, { "-", "unpurgeable" }, { "V", "volatile" },
		{ "E", "empty" },
	};
	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (n == strlen(words[i].code) && memcmp(p, words[i].code, n) == 0)
			return words[i].word;
	return NULL;
}

/* A size bucket of a key ("128M") in words ("128 MiB"); as it is when not that shape. */
static void
unit_words(const char *u, size_t n, struct strbuf *out)
{
	static const char prefixes[] = "KMGTPE";
	size_t d = 0;
	while (d < n && u[d] >= '0' && u[d] <= '9')
		d++;
	const char *p = d > 0 && d + 1 == n ? strchr(prefixes, u[d]) : NULL;
	if (d > 0 && d + 1 == n && u[d] == 'B')
		strbuf_addf(out, "%.*s B", (int)d, u);
	else if (p && *p)
		strbuf_addf(out, "%.*s %ciB", (int)d, u, *p);
	else
		strbuf_add(out, u, n);
}

/* "+394 instances" with a figure, "+instances" without. */
static void
count_words(const struct signature_figures *fig, const char *noun, struct strbuf *out)
{
	if (fig)
		strbuf_addf(out, "+%llu %s", (unsigned long long)fig->count, noun);
	else
		strbuf_addf(out, "+%s", noun);
}

void
signature_bytes_text(uint64_t bytes, char out[32])
{
	/* size_format_binary's "~" says the figure shown is rounded; a growth
	 * figure here always is, and says so once (docs/signatures.md). */
	size_format_binary(bytes, out);
	if (out[0] == '~')
		memmove(out, out + 1, strlen(out));
}

/* "+1 MiB" with a figure, "+bytes" without. */
static void
bytes_words(const struct signature_figures *fig, struct strbuf *out)
{
	char b[32];
	if (!fig) {
		strbuf_addstr(out, "+bytes");
		return;
	}
	signature_bytes_text(fig->bytes, b);
	strbuf_addf(out, "+%s", b);
}

/*
 * A component's words for people, from its section and key (and, when
 * `fig` is given, the growth it stands for: a signature of one component),
 * so that a key gives one label wherever it is read (a key not of its
 * section's shape, which the rule never writes, is its own label). This is
 * the one place labels are worded.
 */
static void
component_label(enum signature_section sec, const char *key, size_t len,
		const struct signature_figures *fig, struct strbuf *out)
{
	const char *unit = last_slash(key, len);
	const char *purge = unit ? last_slash(key, (size_t)(unit - key)) : NULL;
	const char *bang = memchr(key, '!', len);
	bool map = len >= 4 && strncmp(key, "map:", 4) == 0;
	if (sec == SIGNATURE_TREND) {
		strbuf_addf(out, "series %.*s", (int)len, key);
	} else if (sec == SIGNATURE_GPU && purge) {
		const char *word = purge_word(purge + 1, (size_t)(unit - purge - 1));
		strbuf_addf(out, "%.*s ", (int)(purge - key), key);
		if (word)
			strbuf_addstr(out, word);
		else
			strbuf_add(out, purge + 1, (size_t)(unit - purge - 1));
		strbuf_addstr(out, " +");
		unit_words(unit + 1, (size_t)(key + len - unit - 1), out);
		strbuf_addstr(out, " regions");
	} else if (sec == SIGNATURE_CLASS && len > 0 && key[0] == '+') {
		strbuf_addf(out, "%.*s ", (int)len - 1, key + 1);
		count_words(fig, "instances", out);
	} else if (sec == SIGNATURE_TRACK && bang) {
		const char *mod = map ? key + 4 : key;
		size_t sym = len - (size_t)(bang + 1 - key);
		strbuf_addf(out, "%s%.*s: %.*s ", map ? "mapping " : "", (int)(bang - mod), mod,
			    sym ? (int)sym : 1, sym ? bang + 1 : "?");
		bytes_words(fig, out);
	} else if (sec == SIGNATURE_FP) {
		strbuf_addf(out, "footprint %.*s dirty ", (int)len, key);
		bytes_words(fig, out);
	} else {
		strbuf_add(out, key, len);
	}
}

int
signature_parts_of(const char *canonical, struct signature_part **parts, size_t *n)
{
	size_t rl = strlen(SIGNATURE_RULE), alloc = 0;
	enum signature_section sec;
	*parts = NULL;
	*n = 0;
	if (strncmp(canonical, SIGNATURE_RULE, rl) != 0 || canonical[rl] != ' ')
		return -1;
	const char *p = canonical + rl + 1;
	size_t m = section_at(p, &sec);
	if (m == 0)
		return -1;
	while (m) {
		const char *key = p + m, *end = key;
		enum signature_section next;
		size_t k = 0;
		/* The key runs to the next "; " that a section's name follows. */
		while (*end && !(end[0] == ';' && end[1] == ' ' && (k = section_at(end + 2, &next))))
			end++;
		*parts = xgrow(*parts, &alloc, *n + 1, sizeof(**parts));
		(*parts)[(*n)++] = (struct signature_part){ sec, key, (size_t)(end - key) };
		p = *end ? end + 2 : end;
		m = k;
		sec = next;
	}
	return 0;
}

void
signature_part_label(const struct signature_part *part, struct strbuf *out)
{
	component_label(part->section, part->key, part->len, NULL, out);
}

int
signature_label_with(const char *canonical, const struct signature_figures *fig, char **label)
{
	struct signature_part *parts;
	size_t n, others = 0;
	*label = NULL;
	if (signature_parts_of(canonical, &parts, &n) < 0)
		return -1;
	for (size_t i = 0; i < n; i++)
		others += parts[i].section != SIGNATURE_TREND;
	struct strbuf sb = STRBUF_INIT;
	for (size_t i = 0; i < n; i++) {
		if (sb.len)
			strbuf_addstr(&sb, "; ");
		/* The figures are the signature's: one component's only when it is the one. */
		component_label(parts[i].section, parts[i].key, parts[i].len,
				others == 1 ? fig : NULL, &sb);
	}
	free(parts);
	*label = strbuf_detach(&sb, NULL);
	return 0;
}

int
signature_label_of(const char *canonical, char **label)
{
	return signature_label_with(canonical, NULL, label);
}

void
signature_add(struct signature *s, enum signature_section sec, const char *key,
	      uint64_t bytes, uint64_t count)
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
	struct strbuf label = STRBUF_INIT;
	component_label(sec, key, strlen(key), NULL, &label);
	s->c[s->n++] = (struct signature_component){
		.section = sec, .key = xstrdup(key), .label = strbuf_detach(&label, NULL),
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
	struct strbuf canon = STRBUF_INIT;
	strbuf_addstr(&canon, SIGNATURE_RULE);
	for (size_t i = 0; i < s->n; i++) {
		const struct signature_component *c = &s->c[i];
		strbuf_addf(&canon, "%s%s:%s", i ? "; " : " ", section_names[c->section], c->key);
		s->growth_bytes = sat_add(s->growth_bytes, c->bytes);
		s->growth_count = sat_add(s->growth_count, c->count);
	}
	s->canonical = strbuf_detach(&canon, NULL);
	/* From the text, as a row read back gets it: one label per text. */
	if (signature_label_of(s->canonical, &s->label) < 0)
		s->label = xstrdup(s->canonical);
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
