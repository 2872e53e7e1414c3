#include "model/report_track.h"

#include "util/bytes.h"
#include "util/hashmap.h"
#include "util/size.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Icicle nodes narrower than 1/ICICLE_MIN_SHARE of the root are left out. */
#define ICICLE_MIN_SHARE 500
#define ICICLE_MAX_DEPTH 48
/* Backtraces are kept for this many rows of the sites table (what the HTML shows). */
#define REPORT_DETAIL_ROWS 200

static void
capture_text(const struct track_capture *c, struct strbuf *sb)
{
	const char *kind = track_kind_name(c->kind);
	strbuf_addf(sb, "ioclasscount %s, %s layout, %" PRIu64 " records",
		    kind ? kind : "(command not recorded)", track_layout_name(c->layout),
		    c->nrecords);
	if (c->partial)
		strbuf_addstr(sb, " (partial)");
}

static void
add_provenance(struct report *r, const struct track_capture *b, const struct track_capture *a)
{
	struct strbuf sb = STRBUF_INIT, sa = STRBUF_INIT;
	if (b)
		capture_text(b, &sb);
	capture_text(a, &sa);
	report_add_provenance_pair(r, "Capture", b ? sb.buf : NULL, sa.buf);
	strbuf_release(&sb);
	strbuf_release(&sa);
	if (a->command)
		report_add_provenance(r, "Command", "%s", a->command);
}

/* ---- the icicle graph ----------------------------------------------------- */

/*
 * A node of the graph is a run of sites that share their first `depth`
 * folded frames (tokens). Rather than a tree of every path (a node per
 * frame of every distinct site: hundreds of megabytes for a capture whose
 * sites all differ), the sites are sorted by their token sequences and each
 * node is a range of that order, expanded only when it is drawn.
 *
 * A site's tokens are read from its frame ids in the diff (a frame's token
 * is looked up once, by frame id): a stack is not copied. Only a site whose
 * left-out frames (gMetaClass markers) are not all at its outer end, or
 * that has no token left, gets its tokens spelled out in `toks`.
 */
struct icicle_site {
	union {
		size_t at;     /* while the sites are added: index in toks or the frames */
		const uint32_t *p;   /* then: the spelled tokens, or the outermost frame read */
		const uint16_t *p16; /* the same of a site with 16-bit frame ids */
	} u;
	uint32_t site;         /* index in diff_track.sites */
	uint16_t ntok;         /* <= ICICLE_MAX_DEPTH */
	bool spelled;          /* tokens p[0, 1, ...]; else frame_tok of frames p[0, -1, ...] */
	bool narrow;           /* not spelled, and the frames are p16[0, -1, ...] */
};

struct icicle {
	const struct diff_track *d;
	bool pair;
	struct icicle_site *sites;   /* by token sequence once sorted */
	size_t nsites;
	uint32_t *frame_tok;   /* frame id -> token */
	uint32_t *toks;        /* tokens of the spelled sites */
	size_t ntoks, toks_alloc;
	char **names;          /* token id -> its text */
	size_t nnames, names_alloc;
	struct strmap index;   /* text -> token id */
};

/* frame id -> token: not looked up yet, or a frame folded stacks leave out. */
#define ICICLE_UNSEEN UINT32_MAX
#define ICICLE_LEFT_OUT (UINT32_MAX - 1)

/* One node's children: consecutive ranges of the order. */
struct icicle_child {
	size_t lo, hi;
	uint32_t tok;
	uint64_t width, before, after;
};

static uint32_t
icicle_token(struct icicle *ic, const char *name, size_t len)
{
	bool created;
	size_t *slot = strmap_put(&ic->index, name, len, &created);
	if (created) {
		ic->names = xgrow(ic->names, &ic->names_alloc, ic->nnames + 1,
				  sizeof(*ic->names));
		ic->names[ic->nnames] = xmemdup0(name, len);
		*slot = ic->nnames++;
	}
	return (uint32_t)*slot;
}

/* Token `k` of a site, outermost first. */
static inline uint32_t
icicle_tok(const struct icicle *ic, const struct icicle_site *s, size_t k)
{
	if (s->spelled)
		return s->u.p[k];
	return ic->frame_tok[s->narrow ? *(s->u.p16 - k) : *(s->u.p - k)];
}

static uint32_t
frame_token(struct icicle *ic, uint32_t f, struct strbuf *sb)
{
	if (ic->frame_tok[f] == ICICLE_UNSEEN) {
		strbuf_reset(sb);
		ic->frame_tok[f] = diff_track_frame_folded(ic->d, f, sb) ?
				   icicle_token(ic, sb->buf, sb->len) : ICICLE_LEFT_OUT;
	}
	return ic->frame_tok[f];
}

static void
spell_token(struct icicle *ic, struct icicle_site *s, uint32_t tok)
{
	ic->toks = xgrow(ic->toks, &ic->toks_alloc, ic->ntoks + 1, sizeof(*ic->toks));
	ic->toks[ic->ntoks++] = tok;
	s->ntok++;
}

/*
 * Add one site: the folded names of its frames, outermost first (gMetaClass
 * frames left out), cut at the depth limit; "[no frames]" when none is left.
 */
static void
icicle_add_site(struct icicle *ic, struct icicle_site *s, uint32_t index, struct strbuf *sb)
{
	const struct diff_track_site *site = &ic->d->sites[index];
	size_t i = site->nframes;
	*s = (struct icicle_site){ .site = index };
	/* Left-out frames at the outer end, then kept ones up to the depth limit. */
	while (i > 0 && frame_token(ic, diff_track_site_frame(site, i - 1), sb) == ICICLE_LEFT_OUT)
		i--;
	s->u.at = i - 1;
	while (i > 0 && s->ntok < ICICLE_MAX_DEPTH &&
	       frame_token(ic, diff_track_site_frame(site, i - 1), sb) != ICICLE_LEFT_OUT) {
		i--;
		s->ntok++;
	}
	if (s->ntok == ICICLE_MAX_DEPTH || (s->ntok > 0 && i == 0))
		return;   /* read from the frames */
	if (s->ntok > 0) {
		/* Stopped at a left-out frame: read from the frames if no kept one follows. */
		while (i > 0 && frame_token(ic, diff_track_site_frame(site, i - 1), sb) ==
				ICICLE_LEFT_OUT)
			i--;
		if (i == 0)
			return;
	}
	/* Spelled out: every kept frame, outermost first. */
	s->spelled = true;
	s->u.at = ic->ntoks;
	s->ntok = 0;
	for (size_t k = site->nframes; k-- > 0 && s->ntok < ICICLE_MAX_DEPTH;) {
		uint32_t t = frame_token(ic, diff_track_site_frame(site, k), sb);
		if (t != ICICLE_LEFT_OUT)
			spell_token(ic, s, t);
	}
	if (s->ntok == 0) {
		static const char none[] = "[no frames]";
		spell_token(ic, s, icicle_token(ic, none, sizeof(none) - 1));
	}
}

static const struct icicle *sort_icicle;

/* Token sequences in lexicographic order of their ids, a prefix first. */
static int
cmp_icicle_site(const struct icicle *ic, const struct icicle_site *a,
		const struct icicle_site *b)
{
	uint32_t n = a->ntok < b->ntok ? a->ntok : b->ntok;
	for (uint32_t i = 0; i < n; i++) {
		uint32_t ta = icicle_tok(ic, a, i), tb = icicle_tok(ic, b, i);
		if (ta != tb)
			return ta < tb ? -1 : 1;
	}
	if (a->ntok != b->ntok)
		return a->ntok < b->ntok ? -1 : 1;
	return (a->site > b->site) - (a->site < b->site);
}

/*
 * The sites are sorted in place (an introsort: quicksort, heapsort past
 * 2 log2 n levels, insertion sort for short runs) rather than by qsort(),
 * whose merge sort takes a second array as large as the sites. The order is
 * total (the site index breaks ties), so it is the same whatever the sort.
 */
static void
icicle_swap(struct icicle_site *v, size_t i, size_t j)
{
	struct icicle_site t = v[i];
	v[i] = v[j];
	v[j] = t;
}

static void
icicle_sift(const struct icicle *ic, struct icicle_site *v, size_t n, size_t i)
{
	for (size_t c; (c = 2 * i + 1) < n; i = c) {
		if (c + 1 < n && cmp_icicle_site(ic, &v[c + 1], &v[c]) > 0)
			c++;
		if (cmp_icicle_site(ic, &v[c], &v[i]) <= 0)
			return;
		icicle_swap(v, c, i);
	}
}

static void
icicle_heapsort(const struct icicle *ic, struct icicle_site *v, size_t n)
{
	for (size_t i = n / 2; i-- > 0;)
		icicle_sift(ic, v, n, i);
	for (size_t k = n; k-- > 1;) {
		icicle_swap(v, 0, k);
		icicle_sift(ic, v, k, 0);
	}
}

/* Hoare's partition around the middle element: [0, j] and [j + 1, n), both non-empty. */
static size_t
icicle_partition(const struct icicle *ic, struct icicle_site *v, size_t n)
{
	struct icicle_site pivot = v[(n - 1) / 2];
	size_t i = 0, j = n - 1;
	for (;;) {
		while (cmp_icicle_site(ic, &v[i], &pivot) < 0)
			i++;
		while (cmp_icicle_site(ic, &v[j], &pivot) > 0)
			j--;
		if (i >= j)
			return j;
		icicle_swap(v, i++, j--);
	}
}

static void
icicle_sort(const struct icicle *ic, struct icicle_site *v, size_t n, unsigned depth)
{
	while (n > 16) {
		if (depth-- == 0) {
			icicle_heapsort(ic, v, n);
			return;
		}
		size_t j = icicle_partition(ic, v, n) + 1;
		/* The shorter part first, by recursion; the longer one by the loop. */
		if (j < n - j) {
			icicle_sort(ic, v, j, depth);
			v += j;
			n -= j;
		} else {
			icicle_sort(ic, v + j, n - j, depth);
			n = j;
		}
	}
	for (size_t i = 1; i < n; i++)
		for (size_t k = i; k > 0 && cmp_icicle_site(ic, &v[k - 1], &v[k]) > 0; k--)
			icicle_swap(v, k - 1, k);
}

static void
icicle_sort_sites(struct icicle *ic)
{
	unsigned depth = 0;
	for (size_t n = ic->nsites; n > 1; n >>= 1)
		depth += 2;
	icicle_sort(ic, ic->sites, ic->nsites, depth);
}

static int
cmp_icicle_child(const void *x, const void *y)
{
	const struct icicle_child *a = x, *b = y;
	if (a->width != b->width)
		return a->width > b->width ? -1 : 1;
	return strcmp(sort_icicle->names[a->tok], sort_icicle->names[b->tok]);
}

/* A site's bytes: before, after, and its width (the larger of the two in a pair). */
static void
child_add(struct icicle_child *ch, const struct icicle *ic, const struct icicle_site *s)
{
	const struct diff_track_site *site = &ic->d->sites[s->site];
	uint64_t before = diff_track_site_side(ic->d, site, 0)->bytes;
	uint64_t after = diff_track_site_side(ic->d, site, 1)->bytes;
	uint64_t width = ic->pair && before > after ? before : after;
	/* Only drawn: a sum past BYTES_MAX (corrupt input) is drawn capped. */
	bool capped = false;
	bytes_add_capped(&ch->width, width, &capped);
	bytes_add_capped(&ch->before, before, &capped);
	bytes_add_capped(&ch->after, after, &capped);
}

/*
 * The children of the node made of sites[lo, hi) at `depth` (the sites of
 * the range share their first `depth` tokens): one per distinct next token,
 * widest first, then by name. Returns how many; *out is owned by the caller.
 */
static size_t
icicle_children(const struct icicle *ic, size_t lo, size_t hi, uint32_t depth,
		struct icicle_child **out)
{
	struct icicle_child *ch = NULL;
	size_t n = 0, alloc = 0;
	size_t i = lo;
	while (i < hi && ic->sites[i].ntok == depth)
		i++;      /* sites that end at this node come first */
	while (i < hi) {
		uint32_t tok = icicle_tok(ic, &ic->sites[i], depth);
		ch = xgrow(ch, &alloc, n + 1, sizeof(*ch));
		ch[n] = (struct icicle_child){ .lo = i, .tok = tok };
		while (i < hi && icicle_tok(ic, &ic->sites[i], depth) == tok)
			child_add(&ch[n], ic, &ic->sites[i++]);
		ch[n].hi = i;
		n++;
	}
	sort_icicle = ic;
	if (n > 1)
		qsort(ch, n, sizeof(*ch), cmp_icicle_child);
	*out = ch;
	return n;
}

/* Depth first, widest child first, from `start` bytes; narrow nodes dropped. */
static void
icicle_emit(const struct icicle *ic, struct report_chart *c, size_t lo, size_t hi,
	    uint32_t depth, uint64_t start, uint64_t min)
{
	struct icicle_child *ch;
	size_t n = icicle_children(ic, lo, hi, depth, &ch);
	for (size_t i = 0; i < n; i++) {
		if (ch[i].width < min || ch[i].width == 0) {
			c->omitted++;
			continue;
		}
		struct report_chart_item *it = report_chart_add(c, ic->names[ch[i].tok]);
		if (it) {
			it->depth = depth;
			it->start = report_i64(start);
			it->v[0] = report_i64(ch[i].width);
			it->v[1] = report_delta(ch[i].before, ch[i].after);
			it->v[2] = report_i64(ch[i].after);
			it->v[3] = report_i64(ch[i].before);
			icicle_emit(ic, c, ch[i].lo, ch[i].hi, depth + 1, start, min);
		}
		start += ch[i].width;
	}
	free(ch);
}

static void
icicle_release(struct icicle *ic)
{
	for (size_t i = 0; i < ic->nnames; i++)
		free(ic->names[i]);
	free(ic->names);
	free(ic->sites);
	free(ic->frame_tok);
	free(ic->toks);
	strmap_release(&ic->index);
}

/* Every site of the diff (the order of the graph is its own). */
static void
add_icicle(struct report_section *s, const struct diff_track *d, bool pair)
{
	size_t n = d->nsites;
	struct icicle ic = { .d = d, .pair = pair, .nsites = n };
	strmap_init(&ic.index);
	ic.sites = xcalloc(n ? n : 1, sizeof(*ic.sites));
	struct icicle_child root = { 0 };
	struct strbuf folded = STRBUF_INIT;
	ic.frame_tok = xmalloc((d->nframes ? d->nframes : 1) * sizeof(*ic.frame_tok));
	for (size_t i = 0; i < d->nframes; i++)
		ic.frame_tok[i] = ICICLE_UNSEEN;
	for (size_t i = 0; i < n; i++) {
		icicle_add_site(&ic, &ic.sites[i], (uint32_t)i, &folded);
		child_add(&root, &ic, &ic.sites[i]);
	}
	/* The tokens read straight from memory by the sort (toks no longer moves). */
	for (size_t i = 0; i < n; i++) {
		struct icicle_site *is = &ic.sites[i];
		const struct diff_track_site *site = &d->sites[i];
		if (is->spelled)
			is->u.p = ic.toks + is->u.at;
		else if ((is->narrow = site->narrow))
			is->u.p16 = site->frames.narrow + is->u.at;
		else
			is->u.p = site->frames.wide + is->u.at;
	}
	strbuf_release(&folded);
	icicle_sort_sites(&ic);
	if (root.width) {
		struct report_chart *c = report_section_add_chart(s, REPORT_CHART_ICICLE,
			pair ? "Call stacks, outermost caller on top (red grew, blue shrank, "
			       "new sites outlined)"
			     : "Call stacks, outermost caller on top", "sites", true);
		c->differential = pair;
		c->total = report_i64(root.width);
		report_chart_series(c, "bytes");
		icicle_emit(&ic, c, 0, n, 0, 0, root.width / ICICLE_MIN_SHARE);
	}
	icicle_release(&ic);
}

/* ---- tables ------------------------------------------------------------- */

static void
site_label(const struct diff_track *d, const struct diff_track_site *s, struct strbuf *sb)
{
	if (s->mapping)
		strbuf_addstr(sb, "[map] ");
	diff_track_site_label(d, s, sb);
}

/* The site's frames, innermost first, as detail lines of the last row. */
static void
add_backtrace(struct report_table *t, const struct diff_track *d,
	      const struct diff_track_site *s)
{
	const char **lines = xcalloc(s->nframes + 1, sizeof(*lines));
	struct strbuf *texts = xcalloc(s->nframes + 1, sizeof(*texts));
	for (size_t i = 0; i < s->nframes; i++) {
		texts[i] = (struct strbuf)STRBUF_INIT;
		diff_track_frame_text(d, diff_track_site_frame(s, i), &texts[i]);
		lines[i] = texts[i].buf;
	}
	report_table_detail(t, lines, s->nframes);
	for (size_t i = 0; i < s->nframes; i++)
		strbuf_release(&texts[i]);
	free(texts);
	free(lines);
}

static void
add_single_sites(struct report_section *s, const struct diff_track *d,
		 const struct diff_track_site **sites, size_t n, size_t rest)
{
	static const char *const cols[] = { "call site", "module", "bytes", "count", "records" };
	struct report_table *t = report_section_add_table(s, "sites", "Call sites", 5, cols);
	for (size_t i = 0; i < n; i++) {
		const struct diff_track_figures *f = diff_track_site_side(d, sites[i], 1);
		if (!f->records || !report_table_row(t))
			continue;
		struct strbuf sb = STRBUF_INIT;
		site_label(d, sites[i], &sb);
		report_table_code(t, sb.buf);
		strbuf_release(&sb);
		report_table_code(t, d->modules[sites[i]->module].name);
		report_table_figure(t, REPORT_CELL_BYTES, report_i64(f->bytes));
		report_table_figure(t, REPORT_CELL_COUNT, f->count);
		report_table_figure(t, REPORT_CELL_COUNT, report_i64(f->records));
	}
	while (rest-- > 0)
		report_table_row(t);   /* counted as left out */
}

static void
add_pair_site(struct report_table *t, const struct diff_track *d,
	      const struct diff_track_site *site)
{
	enum diff_track_change ch = diff_track_site_change(d, site);
	const struct diff_track_figures *b = diff_track_site_side(d, site, 0);
	const struct diff_track_figures *a = diff_track_site_side(d, site, 1);
	if (!report_table_row(t)) {
		if (ch == DIFF_TRACK_SAME)
			report_table_unchanged(t);
		return;
	}
	report_table_text(t, diff_track_change_name(ch));
	report_table_figure(t, REPORT_CELL_BYTES, report_i64(b->bytes));
	report_table_figure(t, REPORT_CELL_BYTES, report_i64(a->bytes));
	report_table_figure(t, REPORT_CELL_DBYTES, report_delta(b->bytes, a->bytes));
	int64_t dc;
	if (__builtin_sub_overflow(a->count, b->count, &dc))
		report_table_text(t, "overflow");
	else
		report_table_figure(t, REPORT_CELL_DCOUNT, dc);
	struct strbuf sb = STRBUF_INIT;
	site_label(d, site, &sb);
	report_table_code(t, sb.buf);
	strbuf_release(&sb);
	if ((ch == DIFF_TRACK_NEW || ch == DIFF_TRACK_GROWN) && t->nrows <= REPORT_DETAIL_ROWS)
		add_backtrace(t, d, site);
	if (ch == DIFF_TRACK_SAME)
		report_table_unchanged(t);
}

/* The sites that changed, then the unchanged ones (folded by the pages). */
static void
add_pair_sites(struct report_section *s, const struct diff_track *d,
	       const struct diff_track_site **sites, size_t n)
{
	/* The call site last: a long C++ symbol does not push the figures off a narrow screen. */
	static const char *const cols[] = {
		"change", "bytes before", "bytes after", "delta", "count delta", "call site",
	};
	struct report_table *t = report_section_add_table(s, "sites",
		"Call sites (new and grown with their backtrace)", 6, cols);
	for (int same = 0; same < 2; same++)
		for (size_t i = 0; i < n; i++)
			if ((diff_track_site_change(d, sites[i]) == DIFF_TRACK_SAME) == same)
				add_pair_site(t, d, sites[i]);
}

/* Single captures: modules by bytes, largest first, then name. */
static int
cmp_module_bytes(const void *x, const void *y)
{
	const struct diff_track_module *a = *(const struct diff_track_module *const *)x;
	const struct diff_track_module *b = *(const struct diff_track_module *const *)y;
	if (a->bytes[1] != b->bytes[1])
		return a->bytes[1] > b->bytes[1] ? -1 : 1;
	return strcmp(a->name, b->name);
}

static void
add_modules(struct report_section *s, const struct diff_track *d, bool pair)
{
	static const char *const single_cols[] = { "module", "bytes", "records" };
	static const char *const pair_cols[] = { "module", "before", "after", "delta" };
	const struct diff_track_module **m;
	size_t n = diff_track_sorted_modules(d, &m);
	struct report_table *t = report_section_add_table(s, "modules",
		"Bytes by module", pair ? 4 : 3,
		pair ? pair_cols : single_cols);
	if (!pair)
		qsort(m, n, sizeof(*m), cmp_module_bytes);
	/* A pair's modules whose bytes did not move come last, folded by the pages. */
	for (int same = 0; same < (pair ? 2 : 1); same++) {
		for (size_t i = 0; i < n; i++) {
			if (pair ? (m[i]->bytes[0] == m[i]->bytes[1]) != same : m[i]->records[1] == 0)
				continue;
			if (pair && m[i]->records[0] == 0 && m[i]->records[1] == 0)
				continue;
			if (!report_table_row(t)) {
				if (same)
					report_table_unchanged(t);
				continue;
			}
			report_table_code(t, m[i]->name);
			if (pair) {
				report_table_figure(t, REPORT_CELL_BYTES, report_i64(m[i]->bytes[0]));
				report_table_figure(t, REPORT_CELL_BYTES, report_i64(m[i]->bytes[1]));
				report_table_figure(t, REPORT_CELL_DBYTES,
						    report_delta(m[i]->bytes[0], m[i]->bytes[1]));
				if (same)
					report_table_unchanged(t);
			} else {
				report_table_figure(t, REPORT_CELL_BYTES, report_i64(m[i]->bytes[1]));
				report_table_figure(t, REPORT_CELL_COUNT, report_i64(m[i]->records[1]));
			}
		}
	}
	free(m);
}

/* ---- verdicts ------------------------------------------------------------ */

static void
add_verdict(struct report *r, const struct diff_track *d, const struct diff_track_site **sites,
	    size_t n, bool pair)
{
	char b[32];
	struct strbuf sb = STRBUF_INIT;
	if (!pair) {
		size_format_binary(d->total[1], b);
		strbuf_addf(&sb, "tracked kernel memory %s at %" PRIu64 " call site%s", b,
			    d->nsites_side[1], d->nsites_side[1] == 1 ? "" : "s");
		if (n && diff_track_site_side(d, sites[0], 1)->records) {
			strbuf_addstr(&sb, "; largest: ");
			diff_track_site_label(d, sites[0], &sb);
		}
		report_add_verdict(r, "%s", sb.buf);
		strbuf_release(&sb);
		return;
	}
	size_format_binary_delta(report_delta(d->total[0], d->total[1]), b);
	strbuf_addf(&sb, "tracked kernel memory %s", b);
	size_t counts[DIFF_TRACK_SAME + 1] = { 0 };
	for (size_t i = 0; i < n; i++)
		counts[diff_track_site_change(d, sites[i])]++;
	const char *sep = ": ";
	for (int c = DIFF_TRACK_NEW; c < DIFF_TRACK_SAME; c++) {
		if (!counts[c])
			continue;
		strbuf_addf(&sb, "%s%zu %s", sep, counts[c],
			    diff_track_change_name((enum diff_track_change)c));
		sep = ", ";
	}
	if (n && diff_track_site_change(d, sites[0]) != DIFF_TRACK_SAME) {
		strbuf_addstr(&sb, " (");
		diff_track_site_label(d, sites[0], &sb);
		size_format_binary_delta(report_delta(diff_track_site_side(d, sites[0], 0)->bytes,
						      diff_track_site_side(d, sites[0], 1)->bytes), b);
		strbuf_addf(&sb, " %s)", b);
	}
	report_add_verdict(r, "%s", sb.buf);
	strbuf_release(&sb);
}

/* A single capture's site with its bytes, as the heap below ranks it. */
struct ranked_site {
	uint64_t bytes;
	const struct diff_track_site *s;
};

/* Single captures: sites by bytes, largest first, then in order of appearance. */
static int
cmp_site_bytes(const void *x, const void *y)
{
	const struct ranked_site *a = x, *b = y;
	if (a->bytes != b->bytes)
		return a->bytes > b->bytes ? -1 : 1;
	return (a->s > b->s) - (a->s < b->s);
}

static bool
site_after(const struct ranked_site *a, const struct ranked_site *b)
{
	return cmp_site_bytes(a, b) > 0;
}

static void
ranked_swap(struct ranked_site *h, size_t i, size_t j)
{
	struct ranked_site t = h[i];
	h[i] = h[j];
	h[j] = t;
}

/* Restore the heap below i: every node sorts after (is smaller than) its parent. */
static void
heap_down(struct ranked_site *h, size_t n, size_t i)
{
	for (;;) {
		size_t c = 2 * i + 1;
		if (c >= n)
			return;
		if (c + 1 < n && site_after(&h[c + 1], &h[c]))
			c++;
		if (!site_after(&h[c], &h[i]))
			return;
		ranked_swap(h, c, i);
		i = c;
	}
}

/*
 * Single captures: the sites the table can show (the REPORT_ROWS_MAX first by
 * cmp_site_bytes), in order, by a heap whose top is the last of them: memory
 * follows the rows shown, not the sites. The others are only counted.
 */
static size_t
largest_sites(const struct diff_track *d, const struct diff_track_site ***out)
{
	size_t k = d->nsites < REPORT_ROWS_MAX ? d->nsites : REPORT_ROWS_MAX, n = 0;
	struct ranked_site *h = xcalloc(k + 1, sizeof(*h));
	for (size_t i = 0; i < d->nsites; i++) {
		struct ranked_site s = { diff_track_site_side(d, &d->sites[i], 1)->bytes,
					 &d->sites[i] };
		if (n < k) {
			size_t j = n++;
			h[j] = s;
			while (j > 0 && site_after(&h[j], &h[(j - 1) / 2])) {
				ranked_swap(h, j, (j - 1) / 2);
				j = (j - 1) / 2;
			}
		} else if (site_after(&h[0], &s)) {
			h[0] = s;
			heap_down(h, n, 0);
		}
	}
	qsort(h, n, sizeof(*h), cmp_site_bytes);
	const struct diff_track_site **v = xcalloc(n + 1, sizeof(*v));
	for (size_t i = 0; i < n; i++)
		v[i] = h[i].s;
	free(h);
	*out = v;
	return n;
}

void
report_add_track(struct report *r, const struct diff_track *d,
		 const struct track_capture *before, const struct track_capture *after)
{
	bool pair = before != NULL;
	const struct diff_track_site **sites;
	/* cmp_site_bytes() orders a single capture's sites on its own: no need of the diff's. */
	size_t n = pair ? diff_track_sorted_sites(d, &sites) : largest_sites(d, &sites);
	add_provenance(r, before, after);
	if (pair)
		summary_note_track_growth(&r->facts, d);
	add_verdict(r, d, sites, n, pair);
	struct report_section *s = report_section(r, REPORT_SEC_TRACK,
						    "Kernel allocation call sites");
	char tb[32], ta[32], td[32];
	size_format_binary(d->total[1], ta);
	if (pair) {
		size_format_binary(d->total[0], tb);
		size_format_binary_delta(report_delta(d->total[0], d->total[1]), td);
		report_section_add_paragraph(s, "Total %s \u2192 %s (%s); %" PRIu64 " \u2192 %" PRIu64
					     " call sites, %" PRIu64 " \u2192 %" PRIu64 " records.",
					     tb, ta, td, d->nsites_side[0], d->nsites_side[1],
					     d->records[0], d->records[1]);
		add_pair_sites(s, d, sites, n);
	} else {
		report_section_add_paragraph(s, "Total %s at %" PRIu64 " call sites (%" PRIu64
					     " records).", ta, d->nsites_side[1], d->records[1]);
		add_single_sites(s, d, sites, n, d->nsites - n);
	}
	add_modules(s, d, pair);
	add_icicle(s, d, pair);
	free(sites);
}
