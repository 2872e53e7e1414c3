/*
 * The report of two vmmap dumps (model/report_vmmap.h): the one
 * rendering of a vmmap pair, which `iotally report` writes as a page or
 * Markdown and `iotally diff` prints as its text and Markdown tables
 * (report/report_tables_write.c). The GPU types go to the GPU and Sizes
 * sections; every other compared type (a raw dump compares them all) to
 * the vmmap section, "Other region types", in the same tables.
 */

#include "model/report_vmmap.h"
#include "model/report_vmmap_parts.h"

#include "model/summary.h"

#include "util/size.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The two parts of a pair: the GPU types, and every other compared type. */
enum part { PART_GPU, PART_OTHER };

static bool
in_part(const char *type, enum part part)
{
	return report_vmmap_gpu_type(type) == (part == PART_GPU);
}

/* Where a part's tables go, and their ids ("gpu-types", "other-types"). */
static struct report_section *
part_section(struct report *r, enum part part)
{
	return part == PART_GPU ? report_section(r, REPORT_SEC_GPU, "GPU memory")
				: report_section(r, REPORT_SEC_VMMAP, "Other region types");
}

static const char *
part_id(enum part part, const char *what, char out[40])
{
	snprintf(out, 40, "%s-%s", part == PART_GPU ? "gpu" : "other", what);
	return out;
}

/*
 * A table's title: the other types' tables say whose they are, as diff's
 * text prints no section titles and both parts hold the same tables.
 */
static const char *
part_title(enum part part, const char *title, struct strbuf *sb)
{
	strbuf_reset(sb);
	if (part == PART_OTHER) {
		/* "Other types: by type and purgeable state" (titles are ASCII). */
		strbuf_addstr(sb, "Other types: ");
		strbuf_addch(sb, title[0] >= 'A' && title[0] <= 'Z' ? (char)(title[0] - 'A' + 'a')
								     : title[0]);
		strbuf_addstr(sb, title + 1);
	} else {
		strbuf_addstr(sb, title);
	}
	return sb->buf;
}

/* A delta of a region-line field, or an empty cell when a side's lines lack its column. */
static void
add_pair_delta(struct report_table *t, const struct diff_vmmap *d, enum vmmap_metric_field f,
	       uint64_t b, uint64_t a)
{
	if (vmmap_dump_lines_have(d->before, f) && vmmap_dump_lines_have(d->after, f))
		report_table_figure(t, REPORT_CELL_DBYTES, report_delta(b, a));
	else
		report_table_empty(t);
}

static void
add_pair_row(struct report_table *t, const struct diff_vmmap *d, const char *type,
	     const char *state, const struct vmmap_amounts *b, const struct vmmap_amounts *a)
{
	if (!report_table_row(t))
		return;
	report_table_code(t, type);
	report_table_text(t, state);
	report_table_figure(t, REPORT_CELL_COUNT, report_i64(b->count));
	report_table_figure(t, REPORT_CELL_COUNT, report_i64(a->count));
	report_table_figure(t, REPORT_CELL_DCOUNT, report_delta(b->count, a->count));
	report_table_figure(t, REPORT_CELL_BYTES, report_i64(b->vsize));
	report_table_figure(t, REPORT_CELL_BYTES, report_i64(a->vsize));
	report_table_figure(t, REPORT_CELL_DBYTES, report_delta(b->vsize, a->vsize));
	add_pair_delta(t, d, VMMAP_FIELD_RESIDENT, b->resident, a->resident);
	add_pair_delta(t, d, VMMAP_FIELD_DIRTY, b->dirty, a->dirty);
	add_pair_delta(t, d, VMMAP_FIELD_SWAPPED, b->swapped, a->swapped);
}

static int
cmp_row_change(const void *x, const void *y)
{
	const struct diff_vmmap_row *a = *(const struct diff_vmmap_row *const *)x;
	const struct diff_vmmap_row *b = *(const struct diff_vmmap_row *const *)y;
	int64_t da = report_delta(a->before.vsize, a->after.vsize);
	int64_t db = report_delta(b->before.vsize, b->after.vsize);
	uint64_t ma = da < 0 ? (uint64_t)0 - (uint64_t)da : (uint64_t)da;
	uint64_t mb = db < 0 ? (uint64_t)0 - (uint64_t)db : (uint64_t)db;
	if (ma != mb)
		return ma < mb ? 1 : -1;
	int c = strcmp(a->type, b->type);
	return c ? c : (int)a->purge - (int)b->purge;
}

/* "IOAccelerator (graphics) non-volatile +3 x 128 MiB" */
static void
describe_row(const struct diff_vmmap_row *row, struct strbuf *sb)
{
	int64_t dc = report_delta(row->before.count, row->after.count);
	int64_t dv = report_delta(row->before.vsize, row->after.vsize);
	char b[32];
	strbuf_addf(sb, "%s %s ", row->type, report_vmmap_purge_names[row->purge]);
	if (dc != 0 && dv != 0 && (dv > 0) == (dc > 0) && dv % dc == 0) {
		size_format_binary((uint64_t)(dv / dc), b);
		strbuf_addf(sb, "%+" PRId64 " x %s", dc, b);
		return;
	}
	size_format_binary_delta(dv, b);
	strbuf_addf(sb, "%s", b);
	if (dc)
		strbuf_addf(sb, " (%+" PRId64 " region%s)", dc, dc == 1 || dc == -1 ? "" : "s");
}

/*
 * The verdict: the GPU types' virtual delta and the three rows that moved
 * most; with no GPU type compared, the same of the other types, said so.
 */
static void
add_pair_verdict(struct report *r, const struct diff_vmmap_row **rows, size_t n,
		 const char *what)
{
	int64_t total = 0;
	bool fits = true;
	for (size_t i = 0; i < n && fits; i++) {
		int64_t d = report_delta(rows[i]->before.vsize, rows[i]->after.vsize);
		if ((d > 0 && total > INT64_MAX - d) || (d < 0 && total < INT64_MIN - d))
			fits = false;
		else
			total += d;
	}
	struct strbuf sb = STRBUF_INIT;
	if (fits) {
		char b[32];
		size_format_binary_delta(total, b);
		strbuf_addf(&sb, "%s %s", what, b);
	} else {
		strbuf_addf(&sb, "%s changed by more than 8 EiB (corrupt input?)", what);
	}
	const struct diff_vmmap_row **sorted = xcalloc(n + 1, sizeof(*sorted));
	memcpy(sorted, rows, n * sizeof(*rows));
	qsort(sorted, n, sizeof(*sorted), cmp_row_change);
	size_t shown = 0;
	for (size_t i = 0; i < n && shown < 3; i++) {
		if (!diff_vmmap_row_changed(sorted[i]))
			continue;
		strbuf_addstr(&sb, shown++ ? ", " : ": ");
		describe_row(sorted[i], &sb);
	}
	if (!shown)
		strbuf_addstr(&sb, ": no change");
	report_add_verdict(r, "%s", sb.buf);
	strbuf_release(&sb);
	free(sorted);
}

/* A part's rows by type and purgeable state, the unchanged ones folded. */
static void
add_types_table(struct report_section *s, const struct diff_vmmap *d,
		const struct diff_vmmap_row **rows, size_t n, enum part part)
{
	static const char *const cols[] = {
		"type", "state", "regions before", "regions after", "delta", "virtual before",
		"virtual after", "virtual delta", "resident delta", "dirty delta",
		"swapped delta",
	};
	char id[40];
	struct strbuf title = STRBUF_INIT;
	struct report_table *t = report_section_add_table(s, part_id(part, "types", id),
		part_title(part, "By type and purgeable state", &title), 11, cols);
	strbuf_release(&title);
	for (size_t i = 0; i < n; i++) {
		char label[32];
		report_vmmap_purge_label(rows[i]->purge, label);
		add_pair_row(t, d, rows[i]->type, label, &rows[i]->before, &rows[i]->after);
		if (!diff_vmmap_row_changed(rows[i]))
			report_table_unchanged(t);
	}
}

static void
add_gpu_chart(struct report_section *s, const struct diff_vmmap *d)
{
	struct report_chart *c = report_section_add_chart(s, REPORT_CHART_STACKED,
		"Virtual size by purgeable state, before and after", "gpu-types", true);
	for (size_t k = 0; k < 4; k++)
		report_chart_series(c, report_vmmap_purge_series[k]);
	for (size_t i = 0; i < d->ntypes; i++) {
		if (!report_vmmap_gpu_type(d->types[i]))
			continue;
		for (int side = 0; side < 2; side++) {
			const struct vmmap_dump *dump = side ? d->after : d->before;
			const struct vmmap_type_stats *ts = report_vmmap_type_in(dump, d->types[i]);
			struct strbuf sb = STRBUF_INIT;
			strbuf_addf(&sb, "%s (%s)", d->types[i], side ? "after" : "before");
			struct report_chart_item *it = report_chart_add(c, sb.buf);
			strbuf_release(&sb);
			for (size_t k = 0; it && ts && k < 4; k++)
				it->v[k] = report_i64(ts->by_purge[report_vmmap_purge_order[k]].vsize);
		}
	}
}

/* Did purgeable bytes of the part's types move between states? */
static bool
part_has_moves(const struct diff_vmmap *d, enum part part)
{
	for (size_t i = 0; i < d->npurgeable; i++)
		if (in_part(d->purgeable[i].type, part))
			for (int f = 0; f < VMMAP_PURGEABLE_STATES; f++)
				for (int to = 0; to < VMMAP_PURGEABLE_STATES; to++)
					if (d->purgeable[i].moved[f][to])
						return true;
	return false;
}

/*
 * Purgeable bytes that moved between states (regions matched by address,
 * or inferred from the per-state totals): the part's types, a row a move.
 */
static void
add_movement(struct report_section *s, const struct diff_vmmap *d, enum part part)
{
	static const char *const cols[] = { "type", "from", "to", "bytes" };
	char id[40];
	if (!part_has_moves(d, part))
		return;
	struct strbuf title = STRBUF_INIT;
	struct report_table *t = report_section_add_table(s, part_id(part, "moved", id),
		part_title(part, d->movement_by_address
			   ? "Purgeable bytes that moved between states (regions matched by "
			     "address)"
			   : "Purgeable bytes that moved between states (inferred from the "
			     "per-state totals)", &title), 4, cols);
	strbuf_release(&title);
	for (size_t i = 0; i < d->npurgeable; i++) {
		if (!in_part(d->purgeable[i].type, part))
			continue;
		for (int f = 0; f < VMMAP_PURGEABLE_STATES; f++)
			for (int to = 0; to < VMMAP_PURGEABLE_STATES; to++) {
				uint64_t m = d->purgeable[i].moved[f][to];
				char from[32], into[32];
				if (!m || !report_table_row(t))
					continue;
				report_vmmap_purge_label((enum vmmap_purge)f, from);
				report_vmmap_purge_label((enum vmmap_purge)to, into);
				report_table_code(t, d->purgeable[i].type);
				report_table_text(t, from);
				report_table_text(t, into);
				report_table_figure(t, REPORT_CELL_BYTES, report_i64(m));
			}
	}
}

/*
 * The region sizes whose count changed, exactly (vmmap prints each
 * region's size): "+3 regions of 128 MiB" is what a leak of one
 * allocation size looks like; the log2 histograms below group them.
 */
static void
add_size_buckets(struct report *r, const struct diff_vmmap *d, enum part part)
{
	static const char *const cols[] = {
		"type", "region size", "regions before", "regions after", "regions delta",
		"bytes delta",
	};
	struct report_table *t = NULL;
	for (size_t i = 0; i < d->nbuckets; i++) {
		const struct diff_vmmap_bucket *b = &d->buckets[i];
		char id[40];
		if (!in_part(b->type, part))
			continue;
		if (!t) {
			struct strbuf title = STRBUF_INIT;
			t = report_section_add_table(part == PART_GPU
				? report_section(r, REPORT_SEC_SIZES, "Sizes") : part_section(r, part),
				part_id(part, "size-buckets", id),
				part_title(part, "Region sizes whose count changed", &title), 6, cols);
			strbuf_release(&title);
		}
		if (!report_table_row(t))
			continue;
		int64_t n = report_delta(b->before, b->after), bytes;
		report_table_code(t, b->type);
		report_table_figure(t, REPORT_CELL_BYTES, report_i64(b->vsize));
		report_table_figure(t, REPORT_CELL_COUNT, report_i64(b->before));
		report_table_figure(t, REPORT_CELL_COUNT, report_i64(b->after));
		report_table_figure(t, REPORT_CELL_DCOUNT, n);
		/* Never past 8 EiB in a real dump; an empty cell rather than a wrong one. */
		if (b->vsize <= (uint64_t)INT64_MAX &&
		    !__builtin_mul_overflow(n, (int64_t)b->vsize, &bytes))
			report_table_figure(t, REPORT_CELL_DBYTES, bytes);
		else
			report_table_empty(t);
	}
}

/* The GPU types' log2 size histograms and the after side's IOSurfaces. */
static void
add_gpu_sizes(struct report *r, const struct diff_vmmap *d)
{
	struct report_section *s = NULL;
	for (size_t i = 0, index = 0; i < d->ntypes; i++) {
		if (!report_vmmap_gpu_type(d->types[i]))
			continue;
		struct log2_hist h;
		report_vmmap_log2_hist_init(&h);
		report_vmmap_hist_add_type(&h, 0, report_vmmap_type_in(d->before, d->types[i]));
		report_vmmap_hist_add_type(&h, 1, report_vmmap_type_in(d->after, d->types[i]));
		if (h.hi == UINT32_MAX)
			continue;
		if (!s)
			s = report_section(r, REPORT_SEC_SIZES, "Sizes");
		report_vmmap_add_histogram(s, d->types[i], index++, &h, true);
	}
	if (d->after->nsurfaces)
		report_vmmap_add_surfaces(report_section(r, REPORT_SEC_SIZES, "Sizes"), d->after,
					  "IOSurfaces by dimensions and pixel format (after)");
}

/* "Physical footprint: ~1.2 GiB -> ~1.6 GiB (~+409.6 MiB), as vmmap rounded them". */
static void
add_footprint(struct report *r, const struct diff_vmmap *d)
{
	char b[32], a[32], dt[32];
	if (!d->has_footprint)
		return;
	size_format_text(report_i64(d->footprint_before), SIZE_TEXT_ROUNDED, b);
	size_format_text(report_i64(d->footprint_after), SIZE_TEXT_ROUNDED, a);
	size_format_text(report_delta(d->footprint_before, d->footprint_after),
			 SIZE_TEXT_SIGNED | SIZE_TEXT_ROUNDED, dt);
	report_section_add_paragraph(part_section(r, PART_GPU),
		"Physical footprint: %s -> %s (%s), as vmmap rounded them", b, a, dt);
}

/* ---- summary-only dumps ---------------------------------------------------- */

/* One side's gpu figure for the pair headline: its size, or '?'. */
static bool
pair_figure(const struct vmmap_dump *d, enum vmmap_metric_field f, char *out, size_t n,
	    uint64_t *v)
{
	report_vmmap_summary_figure(d, f, out, n, v);
	return strcmp(out, "?") != 0;
}

static void
add_summary_figure(struct report_table *t, bool known, enum report_cell_kind k, int64_t v)
{
	if (known)
		report_table_figure(t, k, v);
	else
		report_table_empty(t);
}

/* The first of the parts' tables says what its figures are. */
static struct report_table *
add_summary_table(struct report *r, enum part part, bool *noted)
{
	static const char *const cols[] = { "type", "field", "before", "after", "change" };
	char id[40];
	struct strbuf title = STRBUF_INIT;
	struct report_table *t = report_section_add_table(part_section(r, part),
		part_id(part, "summary", id),
		part_title(part, "Changed figures by type, from vmmap's summary tables", &title),
		5, cols);
	strbuf_release(&title);
	t->rounded = true;
	if (!*noted)
		t->note = xstrdup("Figures as vmmap's summary tables print them (rounded); an "
				  "empty cell is a figure that capture does not have, not 0.");
	*noted = true;
	return t;
}

/*
 * A part's summary-table rows whose figures changed, a row a field: as
 * vmmap rounded them; an empty cell is a figure that capture lacks.
 */
static void
add_summary_rows(struct report *r, const struct diff_vmmap *d, enum part part, bool *noted)
{
	struct report_table *t = NULL;
	for (size_t i = 0; i < d->nsrows; i++) {
		const struct diff_vmmap_summary_row *row = &d->srows[i];
		if (!in_part(row->type, part))
			continue;
		for (size_t f = 0; f < DIFF_VMMAP_SUMMARY_FIELDS; f++) {
			bool hb = (row->known_before >> f) & 1, ha = (row->known_after >> f) & 1;
			if ((!hb && !ha) || (hb && ha && row->before[f] == row->after[f] &&
					     row->in_before == row->in_after))
				continue;
			if (!t)
				t = add_summary_table(r, part, noted);
			if (!report_table_row(t))
				continue;
			bool count = f == VMMAP_FIELD_COUNT;
			report_table_code(t, row->type);
			report_table_text(t, diff_vmmap_summary_field(f));
			add_summary_figure(t, hb, count ? REPORT_CELL_COUNT : REPORT_CELL_BYTES,
					   report_i64(row->before[f]));
			add_summary_figure(t, ha, count ? REPORT_CELL_COUNT : REPORT_CELL_BYTES,
					   report_i64(row->after[f]));
			add_summary_figure(t, hb && ha,
					   count ? REPORT_CELL_DCOUNT : REPORT_CELL_DBYTES,
					   report_delta(row->before[f], row->after[f]));
		}
	}
}

/*
 * Two dumps compared through their summary tables: the GPU rows of each,
 * as vmmap rounded them; never "0 B: no change" when they hold GPU rows.
 */
static void
add_pair_summary_only(struct report *r, const struct diff_vmmap *d)
{
	char bv[32], av[32], dv[32];
	uint64_t b, a;
	bool kb = pair_figure(d->before, VMMAP_FIELD_VSIZE, bv, sizeof(bv), &b);
	bool ka = pair_figure(d->after, VMMAP_FIELD_VSIZE, av, sizeof(av), &a);
	if (kb && ka)
		size_format_binary_delta(report_delta(b, a), dv);
	else
		snprintf(dv, sizeof(dv), "?");
	report_add_verdict(r, "GPU memory %s -> %s (%s): vmmap's rounded summary figures "
			   "(the dumps have no region lines)", bv, av, dv);
	bool noted = false;
	add_summary_rows(r, d, PART_GPU, &noted);
	add_summary_rows(r, d, PART_OTHER, &noted);
}

/* ---- the pair --------------------------------------------------------------- */

/* The part's rows, in the diff's order (type name, then N V E -). */
static size_t
part_rows(const struct diff_vmmap *d, enum part part, const struct diff_vmmap_row **rows)
{
	size_t n = 0;
	for (size_t i = 0; i < d->nrows; i++)
		if (in_part(d->rows[i].type, part))
			rows[n++] = &d->rows[i];
	return n;
}

static void
add_by_regions(struct report *r, const struct diff_vmmap *d)
{
	const struct diff_vmmap_row **gpu = xcalloc(d->nrows + 1, sizeof(*gpu));
	const struct diff_vmmap_row **other = xcalloc(d->nrows + 1, sizeof(*other));
	size_t ngpu = part_rows(d, PART_GPU, gpu), nother = part_rows(d, PART_OTHER, other);
	if (ngpu || !nother)
		add_pair_verdict(r, gpu, ngpu, "GPU memory");
	else
		add_pair_verdict(r, other, nother, "No GPU type compared; the other types");
	if (ngpu) {
		struct report_section *s = part_section(r, PART_GPU);
		add_types_table(s, d, gpu, ngpu, PART_GPU);
		add_gpu_chart(s, d);
		add_movement(s, d, PART_GPU);
	}
	add_size_buckets(r, d, PART_GPU);
	add_gpu_sizes(r, d);
	if (nother) {
		struct report_section *s = part_section(r, PART_OTHER);
		add_types_table(s, d, other, nother, PART_OTHER);
		add_size_buckets(r, d, PART_OTHER);
		add_movement(s, d, PART_OTHER);
	}
	free(gpu);
	free(other);
}

void
report_add_vmmap_diff(struct report *r, const struct diff_vmmap *d)
{
	report_vmmap_add_provenance(r, d->before, d->after, !d->has_footprint);
	summary_note_vmmap(&r->facts, 0, d->before);
	summary_note_vmmap(&r->facts, 1, d->after);
	add_footprint(r, d);
	if (d->by_summary) {
		add_pair_summary_only(r, d);
		return;
	}
	summary_note_vmmap_growth(&r->facts, d);
	add_by_regions(r, d);
}
