#include "ingest/ioreg_text.h"

#include "ingest/detect.h"
#include "ingest/line_input.h"

#include "util/size.h"
#include "util/strbuf.h"
#include "util/view.h"
#include "util/xalloc.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/*
 * The value grammar is ioreg's cfshow(): dictionaries {k=v,k=v}, strings
 * "..." with no escapes at all, numbers (decimal %qu, or 0x%qx with -x),
 * Yes/No, data <...>, arrays (a,b), sets [a,b]. IOKitDiagnostics itself only
 * holds numbers and the Classes dictionary, but unknown keys are skipped
 * with the general grammar so a future key does not break the scan.
 */

#define SKIP_DEPTH_MAX 64

struct scan {
	const char *start, *p, *end;
	const char *path;
	uint64_t line, col0;
	struct diag *err;
	bool truncated;
	/* What the scanner was doing, for a message when the line ends early. */
	bool in_classes;
	bool classes_done;
	size_t nclasses;
	const char *cut_name;     /* a name cut by the end of the line */
	size_t cut_len;
	const char *last_name;    /* the last complete class name */
	size_t last_len;
	struct classes_snapshot *snap;
};

static uint64_t
scan_col(const struct scan *s)
{
	return s->col0 + (uint64_t)(s->p - s->start);
}

static int
scan_error(struct scan *s, const char *fmt, const char *what, size_t len)
{
	struct strbuf q = STRBUF_INIT;
	diag_quote(&q, what ? what : "", what ? len : 0, 80);
	diag_set(s->err, DIAG_DATA, s->path, s->line, scan_col(s), fmt, q.buf);
	strbuf_release(&q);
	return -1;
}

static bool
at_end(const struct scan *s)
{
	return s->p >= s->end;
}

static void
list_missing(const struct scan *s, struct strbuf *sb)
{
	size_t missing = 0;
	if (!s->classes_done) {
		strbuf_addstr(sb, s->snap->has_classes ? "the rest of 'Classes'" : "'Classes'");
		missing++;
	}
	for (int k = 0; k < ALLOC_KINDS; k++) {
		/* 10.0-10.3 kernels never had Pageable: not knowing is not "missing". */
		if (s->snap->alloc_present[k] || k == ALLOC_PAGEABLE)
			continue;
		strbuf_addf(sb, "%s'%s'", missing ? ", " : "", alloc_kind_key((enum alloc_kind)k));
		missing++;
	}
	if (missing)
		strbuf_addstr(sb, " and ");
	strbuf_addstr(sb, "the closing '}'");
}

/* The line ended inside the value: say where, and what is missing. */
static int
scan_truncated(struct scan *s)
{
	struct strbuf sb = STRBUF_INIT;
	s->truncated = true;
	if (s->end > s->start && s->end[-1] == '$')
		strbuf_addstr(&sb, "the line was clipped at the terminal width (it ends in '$'; "
			      "capture with ioreg -w0): ");
	strbuf_addstr(&sb, "IOKitDiagnostics is cut off ");
	if (s->in_classes) {
		strbuf_addf(&sb, "inside 'Classes' after %zu complete classes", s->nclasses);
		if (s->cut_name) {
			strbuf_addstr(&sb, ", in the middle of the class name \"");
			diag_quote(&sb, s->cut_name, s->cut_len, 80);
			strbuf_addstr(&sb, "\"");
		} else if (s->last_name) {
			strbuf_addstr(&sb, " (the last is \"");
			diag_quote(&sb, s->last_name, s->last_len, 80);
			strbuf_addstr(&sb, "\")");
		}
	} else {
		strbuf_addstr(&sb, "before its closing '}'");
		if (s->classes_done)
			strbuf_addf(&sb, " (after 'Classes' with %zu classes)", s->nclasses);
	}
	strbuf_addstr(&sb, "; missing: ");
	list_missing(s, &sb);
	diag_set(s->err, DIAG_DATA, s->path, s->line, scan_col(s), "%s", sb.buf);
	strbuf_release(&sb);
	return -1;
}

static void
skip_blanks(struct scan *s)
{
	while (s->p < s->end && view_is_space(*s->p))
		s->p++;
}

/* A quoted string; (*v, *n) is its content. The line may end inside it. */
static int
scan_string(struct scan *s, const char **v, size_t *n)
{
	if (at_end(s))
		return scan_truncated(s);
	if (*s->p != '"')
		return scan_error(s, "expected a quoted key, found '%s'", s->p,
				  (size_t)(s->end - s->p));
	const char *b = ++s->p;
	const char *q = memchr(b, '"', (size_t)(s->end - b));
	if (!q) {
		s->p = s->end;
		s->cut_name = b;
		s->cut_len = (size_t)(s->end - b);
		if (s->cut_len && b[s->cut_len - 1] == '$')
			s->cut_len--;
		return scan_truncated(s);
	}
	if (memchr(b, '\0', (size_t)(q - b))) {
		s->p = b;
		return scan_error(s, "NUL byte in the name '%s'", b, (size_t)(q - b));
	}
	*v = b;
	*n = (size_t)(q - b);
	s->p = q + 1;
	return 0;
}

static int
expect(struct scan *s, char c)
{
	skip_blanks(s);
	if (at_end(s))
		return scan_truncated(s);
	if (*s->p != c) {
		char want[2] = { c, '\0' };
		struct strbuf q = STRBUF_INIT;
		diag_quote(&q, s->p, (size_t)(s->end - s->p), 40);
		diag_set(s->err, DIAG_DATA, s->path, s->line, scan_col(s),
			 "expected '%s', found '%s'", want, q.buf);
		strbuf_release(&q);
		return -1;
	}
	s->p++;
	return 0;
}

static bool
is_token_end(char c)
{
	return c == ',' || c == '}' || c == ')' || c == ']' || c == '=';
}

/*
 * A number: optional '-', decimal or 0x hex. Values past 2^63 are ioreg's
 * unsigned rendering of a negative (sign-extended) CFNumber and are read
 * back as that negative value; past 2^64 the input cannot be right.
 */
static int
scan_number(struct scan *s, int64_t *out, const char *what, size_t what_len)
{
	skip_blanks(s);
	const char *b = s->p;
	while (s->p < s->end && !is_token_end(*s->p))
		s->p++;
	if (at_end(s))
		return scan_truncated(s);
	size_t n = (size_t)(s->p - b);
	while (n && view_is_space(b[n - 1]))
		n--;
	bool hex = false;
	int rc = classes_parse_int(b, n, out, &hex);
	if (hex)
		s->snap->hex = true;
	if (rc == SIZE_OVERFLOW) {
		struct strbuf q = STRBUF_INIT, w = STRBUF_INIT;
		diag_quote(&q, b, n, 60);
		diag_quote(&w, what, what_len, 80);
		s->p = b;
		diag_set(s->err, DIAG_DATA, s->path, s->line, scan_col(s),
			 "the value '%s' of '%s' does not fit in 64 bits", q.buf, w.buf);
		strbuf_release(&q);
		strbuf_release(&w);
		return -1;
	}
	if (rc != SIZE_OK) {
		s->p = b;
		return scan_error(s, "expected a number, found '%s'", b, n);
	}
	return 0;
}

/* Skip one value of any type (a key this program does not know). */
static int
skip_value(struct scan *s)
{
	char closers[SKIP_DEPTH_MAX];
	size_t depth = 0;
	skip_blanks(s);
	do {
		if (at_end(s))
			return scan_truncated(s);
		char c = *s->p;
		if (c == '"') {
			const char *q = memchr(s->p + 1, '"', (size_t)(s->end - s->p - 1));
			if (!q) {
				s->p = s->end;
				return scan_truncated(s);
			}
			s->p = q + 1;
		} else if (c == '{' || c == '(' || c == '[' || c == '<') {
			if (depth == SKIP_DEPTH_MAX)
				return scan_error(s, "values nested too deeply at '%s'", s->p,
						  (size_t)(s->end - s->p));
			closers[depth++] = c == '{' ? '}' : c == '(' ? ')' : c == '[' ? ']' : '>';
			s->p++;
		} else if (depth && c == closers[depth - 1]) {
			depth--;
			s->p++;
		} else if (!depth && is_token_end(c)) {
			break;
		} else {
			s->p++;
		}
	} while (depth || (!at_end(s) && !is_token_end(*s->p)));
	return 0;
}

/* ',' then another entry, or the closing '}'. 1: more entries; 0: closed. */
static int
next_entry(struct scan *s)
{
	skip_blanks(s);
	if (at_end(s))
		return scan_truncated(s);
	if (*s->p == '}') {
		s->p++;
		return 0;
	}
	if (*s->p != ',')
		return scan_error(s, "expected ',' or '}', found '%s'", s->p,
				  (size_t)(s->end - s->p));
	s->p++;
	skip_blanks(s);
	/* The last entry of a dump clipped by ioreg can leave ",}"; CF never does. */
	return 1;
}

static int
scan_classes(struct scan *s)
{
	if (expect(s, '{') < 0)
		return -1;
	s->in_classes = true;
	s->snap->has_classes = true;
	skip_blanks(s);
	if (at_end(s))
		return scan_truncated(s);
	if (*s->p == '}') {
		s->p++;
		s->in_classes = false;
		s->classes_done = true;
		return 0;
	}
	for (;;) {
		const char *name;
		size_t len;
		int64_t v;
		if (scan_string(s, &name, &len) < 0 || expect(s, '=') < 0 ||
		    scan_number(s, &v, name, len) < 0)
			return -1;
		/* A duplicate is counted in the snapshot; the caller warns once. */
		classes_snapshot_add(s->snap, name, len, v, CLASS_COUNT_OK, s->line);
		s->nclasses++;
		s->last_name = name;
		s->last_len = len;
		int more = next_entry(s);
		if (more < 0)
			return -1;
		if (!more)
			break;
	}
	s->in_classes = false;
	s->classes_done = true;
	return 0;
}

static int
scan_entry(struct scan *s)
{
	const char *key;
	size_t klen;
	if (scan_string(s, &key, &klen) < 0 || expect(s, '=') < 0)
		return -1;
	if (klen == 7 && memcmp(key, "Classes", 7) == 0) {
		if (s->snap->has_classes)
			return scan_error(s, "a second 'Classes' entry%s", "", 0);
		return scan_classes(s);
	}
	int kind = alloc_kind_from_key(key, klen);
	if (kind < 0)
		return skip_value(s);
	int64_t v;
	if (scan_number(s, &v, key, klen) < 0)
		return -1;
	s->snap->alloc[kind] = v;
	s->snap->alloc_present[kind] = true;
	return 0;
}

int
ioreg_text_scan_diagnostics(const char *p, size_t n, struct classes_snapshot *snap,
			    const char *path, uint64_t line, uint64_t col,
			    bool *truncated, struct diag *err)
{
	struct scan s = {
		.start = p, .p = p, .end = p + n, .path = path, .line = line,
		.col0 = col, .err = err, .snap = snap,
	};
	int rc = expect(&s, '{');
	if (rc == 0) {
		skip_blanks(&s);
		if (!at_end(&s) && *s.p == '}') {
			s.p++;
		} else {
			for (;;) {
				if ((rc = scan_entry(&s)) < 0)
					break;
				int more = next_entry(&s);
				if (more <= 0) {
					rc = more;
					break;
				}
			}
		}
	}
	if (rc == 0) {
		skip_blanks(&s);
		if (!at_end(&s))
			rc = scan_error(&s, "unexpected text after the IOKitDiagnostics value: '%s'",
					s.p, (size_t)(s.end - s.p));
	}
	*truncated = s.truncated;
	return rc;
}

/* ---- the line loop ---- */

/* `"IOKitDiagnostics" = ` after an indent of ' ', '|' and tabs: the value's offset, or 0. */
static size_t
diagnostics_property(const char *p, size_t n)
{
	static const char key[] = "\"IOKitDiagnostics\" = ";
	size_t i = 0;
	while (i < n && (p[i] == ' ' || p[i] == '|' || p[i] == '\t'))
		i++;
	if (n - i < sizeof(key) - 1 || memcmp(p + i, key, sizeof(key) - 1) != 0)
		return 0;
	return i + sizeof(key) - 1;
}

/*
 * Split an `ioreg -i` class chain ("IORegistryEntry:IOService:IOPCIDevice")
 * at ':' outside template brackets (OSValueObject<A::B> stays whole) and
 * record each link. The first class's superclass is OSObject, which ioreg
 * leaves out.
 */
static void
add_chain(struct hierarchy *h, const char *p, size_t n)
{
	size_t prev = hierarchy_intern(h, "OSObject", 8);
	size_t b = 0, angle = 0;
	for (size_t i = 0; i <= n; i++) {
		if (i < n && p[i] == '<')
			angle++;
		else if (i < n && p[i] == '>' && angle)
			angle--;
		if (i < n && !(p[i] == ':' && angle == 0 &&
			       !(i + 1 < n && p[i + 1] == ':') && !(i > 0 && p[i - 1] == ':')))
			continue;
		if (i > b) {
			size_t cls = hierarchy_intern(h, p + b, i - b);
			hierarchy_set_super(h, cls, prev);
			prev = cls;
		}
		b = i + 1;
	}
	h->sources |= HIER_FROM_IOREG_TEXT;
}

struct chain_state {
	bool inheritance;          /* a header with a ':' chain was seen: this is ioreg -i */
	char **single;             /* one-class headers seen before that was known */
	size_t nsingle, single_alloc;
};

/* "+-o Name  <class A:B:C, id 0x..., ...>": the chain, or false. */
static bool
header_chain(const char *p, size_t n, const char **chain, size_t *len)
{
	const char *o = view_find(p, n, "+-o ");
	if (!o)
		return false;
	const char *c = view_find(o, (size_t)(p + n - o), "<class ");
	if (!c)
		return false;
	c += 7;
	const char *e = c;
	size_t angle = 0;
	while (e < p + n) {
		if (*e == '<')
			angle++;
		else if (*e == '>' && angle)
			angle--;
		else if ((*e == ',' || *e == '>') && angle == 0)
			break;
		e++;
	}
	if (e == p + n || e == c)
		return false;
	*chain = c;
	*len = (size_t)(e - c);
	return true;
}

static void
note_header(struct hierarchy *h, struct chain_state *cs, const char *p, size_t n)
{
	const char *chain;
	size_t len;
	if (!header_chain(p, n, &chain, &len))
		return;
	bool linked = memchr(chain, ':', len) != NULL;
	if (!linked && !cs->inheritance) {
		/* Whether this is a -i capture is not known yet: keep the name. */
		if (cs->nsingle < 100000) {
			cs->single = xgrow(cs->single, &cs->single_alloc, cs->nsingle + 1,
					   sizeof(*cs->single));
			cs->single[cs->nsingle++] = xmemdup0(chain, len);
		}
		return;
	}
	cs->inheritance = true;
	add_chain(h, chain, len);
}

static void
finish_chains(struct hierarchy *h, struct chain_state *cs)
{
	for (size_t i = 0; i < cs->nsingle; i++) {
		if (cs->inheritance)
			add_chain(h, cs->single[i], strlen(cs->single[i]));
		free(cs->single[i]);
	}
	free(cs->single);
}

static int
read_diagnostics_line(const struct line *ln, size_t off, struct classes_capture *cap,
		      const struct classes_read_opts *opts, const char *path,
		      struct diag_list *warnings, struct diag *err)
{
	const char *v = ln->p + off;
	size_t n = ln->len - off;
	if (!n || *v != '{') {
		diag_list_add(warnings, DIAG_WARNING, path, ln->no,
			      "an \"IOKitDiagnostics\" property that is not a dictionary; skipped");
		return 0;
	}
	if (ln->overlong)
		return diag_set(err, DIAG_DATA, path, ln->no, 0,
				"the IOKitDiagnostics line is longer than %u MiB; it was not read",
				CLASSES_MAX_LINE >> 20);
	if (ln->has_nul)
		return diag_set(err, DIAG_DATA, path, ln->no, 0,
				"the IOKitDiagnostics line holds a NUL byte");
	struct classes_snapshot *s = classes_capture_add(cap, CLASSES_SRC_IOREG_TEXT, ln->no);
	bool truncated = false;
	if (ioreg_text_scan_diagnostics(v, n, s, path, ln->no, off + 1, &truncated, err) < 0) {
		s->truncated = truncated;
		if (!truncated || !opts->partial)
			return -1;
		diag_list_add(warnings, DIAG_WARNING, diag_path(err), err->line, "%s", err->msg);
		diag_clear(err);
	}
	if (s->duplicates)
		diag_list_add(warnings, DIAG_WARNING, path, ln->no,
			      "%" PRIu64 " class names appear twice in 'Classes'; the first "
			      "value of each is used", s->duplicates);
	return 0;
}

int
ioreg_text_read(struct line_reader *r, struct classes_capture *cap,
		struct hierarchy *h, const struct classes_read_opts *opts,
		struct diag_list *warnings, struct diag *err)
{
	struct chain_state cs = { 0 };
	struct line_input in;
	struct line ln;
	int rc;
	if (line_input_begin(&in, r, err) < 0)
		return -1;
	while ((rc = line_input_next(&in, &ln, err)) > 0) {
		size_t off = diagnostics_property(ln.p, ln.len);
		if (off) {
			if (read_diagnostics_line(&ln, off, cap, opts, in.path, warnings, err) < 0) {
				rc = -1;
				break;
			}
		} else if (h && opts->want_hierarchy) {
			note_header(h, &cs, ln.p, ln.len);
		}
	}
	finish_chains(h, &cs);
	return rc < 0 ? -1 : 0;
}

enum input_kind
ioreg_text_input_kind(const char *p, size_t n)
{
	if (view_find(p, n, "+-o ") || view_find(p, n, "\"IOKitDiagnostics\""))
		return INPUT_IOREG_TEXT;
	return INPUT_TEXT;
}
