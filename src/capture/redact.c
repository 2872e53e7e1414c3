#include "capture/redact.h"

#include "util/array.h"
#include "util/xalloc.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* A value shorter than this is too common to replace everywhere ("a", "lp"). */
#define REDACT_MIN_VALUE 3

static const struct {
	const char *name;
	const char *description;
} rules[REDACT_NRULES] = {
	[REDACT_CONSOLE_USER] = { "console-user",
		"IOConsoleUsers user names (kCGSSessionUserNameKey, kCGSessionLongUserNameKey)" },
	[REDACT_SERIAL] = { "serial",
		"IOPlatformSerialNumber, IOPlatformUUID and serial-number values" },
	[REDACT_USER_PATH] = { "user-path", "/Users/<name>/ paths become /Users/USER/" },
	[REDACT_TEMP_PATH] = { "temp-path",
		"/var/folders/<xx>/<random>/ paths become /var/folders/REDACTED/" },
	[REDACT_BOOTARGS] = { "bootargs", "kern.bootargs reduced to its io= and debug= flags" },
	[REDACT_KNOWN_VALUE] = { "known-value",
		"other whole-word occurrences of a user name or serial number found by the "
		"rules above, or of a --word" },
};

static const struct {
	const char *key;
	enum redact_rule rule;
} keys[] = {
	{ "kCGSSessionUserNameKey", REDACT_CONSOLE_USER },
	{ "kCGSessionLongUserNameKey", REDACT_CONSOLE_USER },
	{ "IOPlatformSerialNumber", REDACT_SERIAL },
	{ "IOPlatformUUID", REDACT_SERIAL },
	{ "serial-number", REDACT_SERIAL },
};

const char *
redact_rule_name(enum redact_rule r)
{
	return rules[r].name;
}

const char *
redact_rule_description(enum redact_rule r)
{
	return rules[r].description;
}

void
redactor_init(struct redactor *rd)
{
	memset(rd, 0, sizeof(*rd));
}

void
redactor_release(struct redactor *rd)
{
	for (size_t i = 0; i < rd->nvalues; i++)
		free(rd->values[i]);
	free(rd->values);
	memset(rd, 0, sizeof(*rd));
}

void
redactor_add_value(struct redactor *rd, const char *v, size_t n)
{
	while (n && (v[0] == ' ' || v[0] == '\t' || v[0] == '\n')) {
		v++;
		n--;
	}
	while (n && (v[n - 1] == ' ' || v[n - 1] == '\t' || v[n - 1] == '\n'))
		n--;
	if (n < REDACT_MIN_VALUE || (n == strlen(REDACT_MARK) && memcmp(v, REDACT_MARK, n) == 0))
		return;
	for (size_t i = 0; i < rd->nvalues; i++)
		if (strlen(rd->values[i]) == n && memcmp(rd->values[i], v, n) == 0)
			return;
	rd->values = xgrow(rd->values, &rd->alloc, rd->nvalues + 1, sizeof(*rd->values));
	rd->values[rd->nvalues++] = xmemdup0(v, n);
}

static const char *
find(const char *p, const char *end, const char *needle, size_t nlen)
{
	if (nlen == 0 || (size_t)(end - p) < nlen)
		return NULL;
	for (const char *last = end - nlen; p <= last; p++) {
		p = memchr(p, needle[0], (size_t)(last - p) + 1);
		if (!p)
			return NULL;
		if (memcmp(p, needle, nlen) == 0)
			return p;
	}
	return NULL;
}

static bool
starts(const char *p, const char *end, const char *s)
{
	size_t n = strlen(s);
	return (size_t)(end - p) >= n && memcmp(p, s, n) == 0;
}

static const char *
skip_space(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
		p++;
	return p;
}

struct span {
	size_t start, end;
	enum redact_rule rule;
};

/*
 * After a key's text: `</key>`, blanks and newlines, then `<string>` or
 * `<data>`: the value's start and *close its closing tag, or NULL. *to_end
 * says whether only blanks came before `end` after `</key>`.
 */
static const char *
xml_value_start(const char *p, const char *end, const char **close, bool *to_end)
{
	*to_end = false;
	if (!starts(p, end, "</key>"))
		return NULL;
	p = skip_space(p + 6, end);
	*to_end = p == end;
	if (starts(p, end, "<string>")) {
		*close = "</string>";
		return p + 8;
	}
	if (starts(p, end, "<data>")) {
		*close = "</data>";
		return p + 6;
	}
	return NULL;
}

/*
 * The value after a key occurrence `k` (pointing at the key's text):
 * XML `<key>K</key> <string>V</string>` / `<data>V</data>`, or ioreg text
 * `"K" = "V"`, `"K" = <"V">` or `"K" = <hex>`. 0 with the value's bounds, or -1.
 */
static int
value_after(const char *text, const char *end, const char *k, size_t klen, const char **vs,
	    const char **ve)
{
	const char *p = k + klen;
	(void)text;
	if (starts(p, end, "</key>")) {
		const char *close;
		bool to_end;
		p = xml_value_start(p, end, &close, &to_end);
		if (!p)
			return -1;
		const char *e = find(p, end, close, strlen(close));
		if (!e)
			return -1;
		*vs = p;
		*ve = e;
		return 0;
	}
	if (p < end && *p == '"') {
		p++;
		while (p < end && (*p == ' ' || *p == '\t'))
			p++;
		if (p >= end || *p != '=')
			return -1;
		p++;
		while (p < end && (*p == ' ' || *p == '\t'))
			p++;
		char close = 0;
		if (p < end && *p == '"')
			close = '"';
		else if (p < end && *p == '<')
			close = '>';
		else
			return -1;
		p++;
		const char *e = p;
		while (e < end && *e != close && *e != '\n')
			e++;
		if (e >= end || *e != close)
			return -1;
		if (close == '>' && e > p && *p == '"' && e[-1] == '"') {
			p++;
			e--;
		}
		*vs = p;
		*ve = e;
		return 0;
	}
	return -1;
}

static int
span_cmp(const void *a, const void *b)
{
	const struct span *x = a, *y = b;
	return x->start < y->start ? -1 : x->start > y->start;
}

/* Every keyed value in text, sorted, without overlaps. */
static struct span *
keyed_spans(const char *text, size_t n, size_t *count)
{
	struct span *v = NULL;
	size_t len = 0, alloc = 0;
	const char *end = text + n;
	for (size_t i = 0; i < ARRAY_SIZE(keys); i++) {
		size_t klen = strlen(keys[i].key);
		const char *p = text;
		const char *k;
		while ((k = find(p, end, keys[i].key, klen)) != NULL) {
			const char *vs, *ve;
			p = k + klen;
			if (value_after(text, end, k, klen, &vs, &ve) < 0 || ve == vs)
				continue;
			v = xgrow(v, &alloc, len + 1, sizeof(*v));
			v[len++] = (struct span){ (size_t)(vs - text), (size_t)(ve - text), keys[i].rule };
		}
	}
	if (len)
		qsort(v, len, sizeof(*v), span_cmp);
	size_t kept = 0;
	for (size_t i = 0; i < len; i++)
		if (kept == 0 || v[i].start >= v[kept - 1].end)
			v[kept++] = v[i];
	*count = kept;
	return v;
}


static void
pass_keyed(const char *text, size_t n, struct strbuf *out, uint64_t *hits)
{
	size_t count, at = 0;
	struct span *v = keyed_spans(text, n, &count);
	for (size_t i = 0; i < count; i++) {
		size_t len = v[i].end - v[i].start;
		strbuf_add(out, text + at, v[i].start - at);
		strbuf_addstr(out, REDACT_MARK);
		/* A value redacted before is no new hit: redacting again changes nothing. */
		if (len != strlen(REDACT_MARK) || memcmp(text + v[i].start, REDACT_MARK, len) != 0)
			hits[v[i].rule]++;
		at = v[i].end;
	}
	strbuf_add(out, text + at, n - at);
	free(v);
}

static bool
path_end(char c)
{
	return c == '/' || c == ' ' || c == '\t' || c == '\n' || c == '"' || c == '\'' ||
	       c == '<' || c == '>' || c == ')' || c == ',' || c == ';' || c == '\\';
}

/* The NAME of "/Users/NAME" (not Shared or USER), or NULL; *len its length. */
static const char *
user_path_name(const char *k, const char *end, size_t *len)
{
	const char *ns = k + 7, *ne = ns;
	while (ne < end && !path_end(*ne))
		ne++;
	*len = (size_t)(ne - ns);
	if (*len == 0 || (*len == 6 && memcmp(ns, "Shared", 6) == 0) ||
	    (*len == 4 && memcmp(ns, "USER", 4) == 0))
		return NULL;
	return ns;
}

/* "/Users/NAME" -> "/Users/USER" (NAME not Shared or USER). */
static void
pass_user_paths(const char *text, size_t n, struct strbuf *out, uint64_t *hits)
{
	const char *p = text, *end = text + n, *k;
	while ((k = find(p, end, "/Users/", 7)) != NULL) {
		size_t len;
		const char *name = user_path_name(k, end, &len);
		strbuf_add(out, p, (size_t)(k + 7 - p));
		if (name) {
			strbuf_addstr(out, "USER");
			hits[REDACT_USER_PATH]++;
		} else {
			strbuf_add(out, k + 7, len);
		}
		p = k + 7 + len;
	}
	strbuf_add(out, p, (size_t)(end - p));
}

void
redact_found_init(struct redact_found *f)
{
	memset(f, 0, sizeof(*f));   /* two empty redactors, as redactor_init() makes */
}

void
redact_found_collect(struct redact_found *f, const char *text, size_t n)
{
	size_t count, len;
	struct span *v = keyed_spans(text, n, &count);
	for (size_t i = 0; i < count; i++)
		redactor_add_value(&f->keyed, text + v[i].start, v[i].end - v[i].start);
	free(v);
	/* A home folder's name is a user name: removed wherever else it appears. */
	const char *p = text, *end = text + n, *k;
	while ((k = find(p, end, "/Users/", 7)) != NULL) {
		const char *name = user_path_name(k, end, &len);
		if (name)
			redactor_add_value(&f->names, name, len);
		p = k + 7 + len;
	}
}

static void
add_values(struct redactor *rd, const struct redactor *from)
{
	for (size_t i = 0; i < from->nvalues; i++)
		redactor_add_value(rd, from->values[i], strlen(from->values[i]));
}

void
redact_found_add_to(const struct redact_found *f, struct redactor *rd)
{
	add_values(rd, &f->keyed);
	add_values(rd, &f->names);
}

void
redact_found_release(struct redact_found *f)
{
	redactor_release(&f->keyed);
	redactor_release(&f->names);
}

void
redactor_collect(struct redactor *rd, const char *text, size_t n)
{
	struct redact_found f;
	redact_found_init(&f);
	redact_found_collect(&f, text, n);
	redact_found_add_to(&f, rd);
	redact_found_release(&f);
}

/* Is the XML value after the key at k still open at `end` (no close before it)? */
static bool
value_open(const char *k, size_t klen, const char *end)
{
	const char *close;
	bool to_end;
	const char *p = xml_value_start(k + klen, end, &close, &to_end);
	return to_end || (p && find(p, end, close, strlen(close)) == NULL);
}

static size_t
line_start(const char *text, size_t at)
{
	while (at && text[at - 1] != '\n')
		at--;
	return at;
}

size_t
redactor_safe_cut(const char *text, size_t n)
{
	size_t end = line_start(text, n);
	bool moved = end > 0;
	while (moved) {
		moved = false;
		for (size_t i = 0; i < ARRAY_SIZE(keys) && end; i++) {
			size_t klen = strlen(keys[i].key);
			const char *p = text, *k;
			while (end && (k = find(p, text + end, keys[i].key, klen)) != NULL) {
				p = k + klen;
				if (value_open(k, klen, text + end)) {
					end = line_start(text, (size_t)(k - text));
					moved = true;
					p = text;
				}
			}
		}
	}
	return end;
}

bool
redactor_line_local(const struct redactor *rd)
{
	for (size_t i = 0; i < rd->nvalues; i++)
		if (strchr(rd->values[i], '\n'))
			return false;
	return true;
}

/* "/var/folders/xx/RANDOM" -> "/var/folders/REDACTED". */
static void
pass_temp_paths(const char *text, size_t n, struct strbuf *out, uint64_t *hits)
{
	const char *p = text, *end = text + n, *k;
	while ((k = find(p, end, "/var/folders/", 13)) != NULL) {
		const char *s = k + 13, *e = s;
		while (e < end && !path_end(*e))
			e++;
		strbuf_add(out, p, (size_t)(s - p));
		if (e < end && *e == '/' && !starts(s, end, REDACT_MARK)) {
			const char *e2 = e + 1;
			while (e2 < end && !path_end(*e2))
				e2++;
			strbuf_addstr(out, REDACT_MARK);
			hits[REDACT_TEMP_PATH]++;
			p = e2;
		} else {
			p = s;
		}
	}
	strbuf_add(out, p, (size_t)(end - p));
}

/* "kern.bootargs: a io=0x400000 b debug=0x8" -> "kern.bootargs: io=0x400000 debug=0x8". */
static void
pass_bootargs(const char *text, size_t n, struct strbuf *out, uint64_t *hits)
{
	const char *p = text, *end = text + n;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;
		size_t key = starts(p, le, "kern.bootargs:") ? 14 : starts(p, le, "kern.bootargs =") ? 15 : 0;
		if (!key) {
			strbuf_add(out, p, (size_t)(le - p));
		} else {
			const char *v = p + key;
			strbuf_add(out, p, (size_t)(v - p));
			bool dropped = false;
			while (v < le) {
				v = skip_space(v, le);
				const char *te = v;
				while (te < le && *te != ' ' && *te != '\t')
					te++;
				if (te > v) {
					if (starts(v, te, "io=") || starts(v, te, "debug=")) {
						strbuf_addch(out, ' ');
						strbuf_add(out, v, (size_t)(te - v));
					} else {
						dropped = true;
					}
				}
				v = te;
			}
			if (dropped)
				hits[REDACT_BOOTARGS]++;
		}
		if (nl)
			strbuf_addch(out, '\n');
		p = nl ? nl + 1 : end;
	}
}

static bool
word_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_';
}

static void
pass_known_values(const struct redactor *rd, const char *text, size_t n, struct strbuf *out,
		  uint64_t *hits)
{
	struct strbuf cur = STRBUF_INIT, next = STRBUF_INIT;
	strbuf_add(&cur, text, n);
	for (size_t i = 0; i < rd->nvalues; i++) {
		const char *v = rd->values[i];
		size_t vlen = strlen(v);
		const char *p = cur.buf, *end = cur.buf + cur.len, *k;
		strbuf_reset(&next);
		while ((k = find(p, end, v, vlen)) != NULL) {
			/* Whole words only: the user "mac" leaves "machdep" alone. */
			bool word = (k == cur.buf || !word_char(k[-1])) &&
				    (k + vlen == end || !word_char(k[vlen]));
			strbuf_add(&next, p, (size_t)(k - p));
			if (word) {
				strbuf_addstr(&next, REDACT_MARK);
				hits[REDACT_KNOWN_VALUE]++;
			} else {
				strbuf_add(&next, k, vlen);
			}
			p = k + vlen;
		}
		strbuf_add(&next, p, (size_t)(end - p));
		struct strbuf t = cur;
		cur = next;
		next = t;
	}
	strbuf_add(out, cur.buf, cur.len);
	strbuf_release(&cur);
	strbuf_release(&next);
}

void
redactor_apply(const struct redactor *rd, const char *text, size_t n, struct strbuf *out,
	       uint64_t hits[REDACT_NRULES])
{
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;
	pass_keyed(text, n, &a, hits);
	pass_user_paths(a.buf, a.len, &b, hits);
	strbuf_reset(&a);
	pass_temp_paths(b.buf, b.len, &a, hits);
	strbuf_reset(&b);
	pass_bootargs(a.buf, a.len, &b, hits);
	pass_known_values(rd, b.buf, b.len, out, hits);
	strbuf_release(&a);
	strbuf_release(&b);
}
