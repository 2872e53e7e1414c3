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
	if (b && strcmp(sb.buf, sa.buf) != 0)
		report_add_provenance(r, "Capture", "%s \u2192 %s", sb.buf, sa.buf);
	else
		report_add_provenance(r, "Capture", "%s", sa.buf);
	strbuf_release(&sb);
	strbuf_release(&sa);
	if (a->command)
		report_add_provenance(r, "Command", "%s", a->command);
}

/* ---- the icicle graph ----------------------------------------------------- */

struct node {
	char *name;
	size_t parent;         /* SIZE_MAX: the root */
	uint32_t depth;
	uint64_t width, before, after;
	size_t *children;
	size_t nchildren, children_alloc;
};

struct tree {
	struct node *nodes;
	size_t n, alloc;
	struct strmap index;   /* "<parent>\x1f<name>" -> node */
	struct strbuf key;
};

static size_t
tree_child(struct tree *t, size_t parent, const char *name, size_t len)
{
	strbuf_reset(&t->key);
	strbuf_addf(&t->key, "%zu\x1f", parent);
	strbuf_add(&t->key, name, len);
	bool created;
	size_t *slot = strmap_put(&t->index, t->key.buf, t->key.len, &created);
	if (!created)
		return *slot;
	t->nodes = xgrow(t->nodes, &t->alloc, t->n + 1, sizeof(*t->nodes));
	struct node *n = &t->nodes[t->n];
	memset(n, 0, sizeof(*n));
	n->name = xmalloc(len + 1);
	memcpy(n->name, name, len);
	n->name[len] = '\0';
	n->parent = parent;
	n->depth = t->nodes[parent].depth + 1;
	struct node *p = &t->nodes[parent];
	p->children = xgrow(p->children, &p->children_alloc, p->nchildren + 1,
			    sizeof(*p->children));
	p->children[p->nchildren++] = t->n;
	*slot = t->n;
	return t->n++;
}

static void
node_add(struct node *n, uint64_t width, uint64_t before, uint64_t after)
{
	/* Only drawn: a sum past BYTES_MAX (corrupt input) is drawn capped. */
	bool capped = false;
	bytes_add_capped(&n->width, width, &capped);
	bytes_add_capped(&n->before, before, &capped);
	bytes_add_capped(&n->after, after, &capped);
}

/* Add one site: its folded stack, outermost frame first. */
static void
tree_add_site(struct tree *t, const char *folded, uint64_t before, uint64_t after, bool pair)
{
	uint64_t width = pair && before > after ? before : after;
	size_t at = 0;
	node_add(&t->nodes[0], width, before, after);
	for (const char *p = folded; *p && t->nodes[at].depth < ICICLE_MAX_DEPTH;) {
		const char *end = strchr(p, ';');
		size_t len = end ? (size_t)(end - p) : strlen(p);
		at = tree_child(t, at, p, len);
		node_add(&t->nodes[at], width, before, after);
		p += len + (end != NULL);
	}
}

static const struct tree *sort_tree;

static int
cmp_child(const void *x, const void *y)
{
	const struct node *a = &sort_tree->nodes[*(const size_t *)x];
	const struct node *b = &sort_tree->nodes[*(const size_t *)y];
	if (a->width != b->width)
		return a->width > b->width ? -1 : 1;
	return strcmp(a->name, b->name);
}

/* Depth first, widest child first, from `start` bytes; narrow nodes dropped. */
static void
tree_emit(struct tree *t, struct report_chart *c, size_t at, uint64_t start, uint64_t min)
{
	struct node *n = &t->nodes[at];
	if (at != 0) {
		struct report_chart_item *it = report_chart_add(c, n->name);
		if (!it)
			return;
		it->depth = n->depth - 1;
		it->start = report_i64(start);
		it->v[0] = report_i64(n->width);
		it->v[1] = report_delta(n->before, n->after);
		it->v[2] = report_i64(n->after);
		it->v[3] = report_i64(n->before);
	}
	sort_tree = t;
	if (n->nchildren > 1)
		qsort(n->children, n->nchildren, sizeof(*n->children), cmp_child);
	for (size_t i = 0; i < n->nchildren; i++) {
		struct node *ch = &t->nodes[n->children[i]];
		if (ch->width < min || ch->width == 0) {
			c->omitted++;
			continue;
		}
		tree_emit(t, c, n->children[i], start, min);
		start += t->nodes[n->children[i]].width;
	}
}

static void
add_icicle(struct report_section *s, const struct diff_track *d,
	   const struct diff_track_site **sites, size_t n, bool pair)
{
	struct tree t = { 0 };
	strmap_init(&t.index);
	t.key = (struct strbuf)STRBUF_INIT;
	t.nodes = xgrow(NULL, &t.alloc, 1, sizeof(*t.nodes));
	memset(&t.nodes[0], 0, sizeof(t.nodes[0]));
	t.nodes[0].parent = SIZE_MAX;
	t.n = 1;
	struct strbuf folded = STRBUF_INIT;
	for (size_t i = 0; i < n; i++) {
		strbuf_reset(&folded);
		diff_track_site_folded(d, sites[i], &folded);
		tree_add_site(&t, folded.buf, sites[i]->side[0].bytes, sites[i]->side[1].bytes,
			      pair);
	}
	strbuf_release(&folded);
	if (t.nodes[0].width) {
		struct report_chart *c = report_section_add_chart(s, REPORT_CHART_ICICLE,
			pair ? "Call stacks, outermost caller on top (red grew, blue shrank)"
			     : "Call stacks, outermost caller on top", "sites", true);
		c->differential = pair;
		c->total = report_i64(t.nodes[0].width);
		report_chart_series(c, "bytes");
		tree_emit(&t, c, 0, 0, t.nodes[0].width / ICICLE_MIN_SHARE);
	}
	for (size_t i = 0; i < t.n; i++) {
		free(t.nodes[i].name);
		free(t.nodes[i].children);
	}
	free(t.nodes);
	strmap_release(&t.index);
	strbuf_release(&t.key);
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
		 const struct diff_track_site **sites, size_t n)
{
	static const char *const cols[] = { "call site", "module", "bytes", "count", "records" };
	struct report_table *t = report_section_add_table(s, "sites", "Call sites", 5, cols);
	for (size_t i = 0; i < n; i++) {
		const struct diff_track_figures *f = &sites[i]->side[1];
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
}

static void
add_pair_sites(struct report_section *s, const struct diff_track *d,
	       const struct diff_track_site **sites, size_t n)
{
	static const char *const cols[] = {
		"change", "call site", "bytes before", "bytes after", "delta", "count delta",
	};
	struct report_table *t = report_section_add_table(s, "sites",
		"Call sites that changed (new and grown with their backtrace)", 6, cols);
	for (size_t i = 0; i < n; i++) {
		enum diff_track_change ch = diff_track_site_change(sites[i]);
		const struct diff_track_figures *b = &sites[i]->side[0], *a = &sites[i]->side[1];
		if (ch == DIFF_TRACK_SAME || !report_table_row(t))
			continue;
		report_table_text(t, diff_track_change_name(ch));
		struct strbuf sb = STRBUF_INIT;
		site_label(d, sites[i], &sb);
		report_table_code(t, sb.buf);
		strbuf_release(&sb);
		report_table_figure(t, REPORT_CELL_BYTES, report_i64(b->bytes));
		report_table_figure(t, REPORT_CELL_BYTES, report_i64(a->bytes));
		report_table_figure(t, REPORT_CELL_DBYTES, report_delta(b->bytes, a->bytes));
		int64_t dc;
		if (__builtin_sub_overflow(a->count, b->count, &dc))
			report_table_text(t, "overflow");
		else
			report_table_figure(t, REPORT_CELL_DCOUNT, dc);
		if ((ch == DIFF_TRACK_NEW || ch == DIFF_TRACK_GROWN) &&
		    t->nrows <= REPORT_DETAIL_ROWS)
			add_backtrace(t, d, sites[i]);
	}
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
		pair ? "Bytes by module (changed)" : "Bytes by module", pair ? 4 : 3,
		pair ? pair_cols : single_cols);
	if (!pair)
		qsort(m, n, sizeof(*m), cmp_module_bytes);
	for (size_t i = 0; i < n; i++) {
		if (pair ? m[i]->bytes[0] == m[i]->bytes[1] : m[i]->records[1] == 0)
			continue;
		if (!report_table_row(t))
			continue;
		report_table_code(t, m[i]->name);
		if (pair) {
			report_table_figure(t, REPORT_CELL_BYTES, report_i64(m[i]->bytes[0]));
			report_table_figure(t, REPORT_CELL_BYTES, report_i64(m[i]->bytes[1]));
			report_table_figure(t, REPORT_CELL_DBYTES,
					    report_delta(m[i]->bytes[0], m[i]->bytes[1]));
		} else {
			report_table_figure(t, REPORT_CELL_BYTES, report_i64(m[i]->bytes[1]));
			report_table_figure(t, REPORT_CELL_COUNT, report_i64(m[i]->records[1]));
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
		if (n && sites[0]->side[1].records) {
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
		counts[diff_track_site_change(sites[i])]++;
	const char *sep = ": ";
	for (int c = DIFF_TRACK_NEW; c < DIFF_TRACK_SAME; c++) {
		if (!counts[c])
			continue;
		strbuf_addf(&sb, "%s%zu %s", sep, counts[c],
			    diff_track_change_name((enum diff_track_change)c));
		sep = ", ";
	}
	if (n && diff_track_site_change(sites[0]) != DIFF_TRACK_SAME) {
		strbuf_addstr(&sb, " (");
		diff_track_site_label(d, sites[0], &sb);
		size_format_binary_delta(report_delta(sites[0]->side[0].bytes,
						      sites[0]->side[1].bytes), b);
		strbuf_addf(&sb, " %s)", b);
	}
	report_add_verdict(r, "%s", sb.buf);
	strbuf_release(&sb);
}

/* Single captures: sites by bytes, largest first, then in order of appearance. */
static int
cmp_site_bytes(const void *x, const void *y)
{
	const struct diff_track_site *a = *(const struct diff_track_site *const *)x;
	const struct diff_track_site *b = *(const struct diff_track_site *const *)y;
	if (a->side[1].bytes != b->side[1].bytes)
		return a->side[1].bytes > b->side[1].bytes ? -1 : 1;
	return (a > b) - (a < b);
}

void
report_add_track(struct report *r, const struct diff_track *d,
		 const struct track_capture *before, const struct track_capture *after)
{
	bool pair = before != NULL;
	const struct diff_track_site **sites;
	size_t n = diff_track_sorted_sites(d, &sites);
	if (!pair)
		qsort(sites, n, sizeof(*sites), cmp_site_bytes);
	add_provenance(r, before, after);
	add_verdict(r, d, sites, n, pair);
	struct report_section *s = report_section(r, REPORT_SEC_TRACK, "Kernel allocation call sites");
	char tb[32], ta[32];
	size_format_binary(d->total[1], ta);
	if (pair) {
		size_format_binary(d->total[0], tb);
		report_section_add_paragraph(s, "Total %s \u2192 %s; %" PRIu64 " \u2192 %" PRIu64
					     " call sites.", tb, ta, d->nsites_side[0],
					     d->nsites_side[1]);
		add_pair_sites(s, d, sites, n);
	} else {
		report_section_add_paragraph(s, "Total %s at %" PRIu64 " call sites (%" PRIu64
					     " records).", ta, d->nsites_side[1], d->records[1]);
		add_single_sites(s, d, sites, n);
	}
	add_modules(s, d, pair);
	add_icicle(s, d, sites, n, pair);
	free(sites);
}
