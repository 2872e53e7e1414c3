#include "model/report_vmmap.h"

#include "model/gpu.h"
#include "model/summary.h"

#include "util/size.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The breakdown's order: N, V, E, then not purgeable. */
static const enum vmmap_purge purge_order[] = {
	VMMAP_PURGE_N, VMMAP_PURGE_V, VMMAP_PURGE_E, VMMAP_PURGE_NONE,
};

static const char *const purge_names[] = {
	[VMMAP_PURGE_N] = "non-volatile",
	[VMMAP_PURGE_V] = "volatile",
	[VMMAP_PURGE_E] = "empty",
	[VMMAP_PURGE_NONE] = "not purgeable",
};

static const char *const purge_series[] = {
	"N non-volatile", "V volatile", "E empty", "- not purgeable",
};

/* The log2 histograms span at most this many buckets (2^0 to 2^63). */
#define LOG2_BUCKETS 64

bool
report_vmmap_gpu_type(const char *name)
{
	return gpu_type_counts(name, strlen(name));
}

static const struct vmmap_type_stats *
type_in(const struct vmmap_dump *d, const char *name)
{
	size_t *idx = strmap_get(&d->type_index, name, strlen(name));
	return idx ? &d->types[*idx] : NULL;
}

static void
purge_label(enum vmmap_purge p, char out[32])
{
	snprintf(out, 32, "%c %s", vmmap_purge_char(p), purge_names[p]);
}

/* ---- provenance ---------------------------------------------------------- */

static void
add_field(struct report *r, const char *key, const struct vmmap_dump *b,
	  const struct vmmap_dump *a, const char *field)
{
	const char *bv = b ? vmmap_dump_field(b, field) : NULL;
	const char *av = vmmap_dump_field(a, field);
	if (bv || av)
		report_add_provenance_pair(r, key, b ? (bv ? bv : "(not recorded)") : NULL,
					   av ? av : "(not recorded)");
}

/* vmmap's rounded "1.2G" as every text writes a rounded figure: "~1.2 GiB". */
static const char *
footprint_text(const struct vmmap_dump *d, char out[32])
{
	const char *t = d ? vmmap_dump_field(d, "Physical footprint") : NULL;
	uint64_t v;
	if (!t)
		return d ? "(not recorded)" : NULL;
	if (size_parse_vmmap(t, strlen(t), &v) != SIZE_OK || v > INT64_MAX)
		return t;
	size_format_text((int64_t)v, SIZE_TEXT_ROUNDED, out);
	return out;
}

static void
add_footprint(struct report *r, const struct vmmap_dump *b, const struct vmmap_dump *a)
{
	char bt[32], at[32];
	if (!vmmap_dump_field(a, "Physical footprint") &&
	    !(b && vmmap_dump_field(b, "Physical footprint")))
		return;
	report_add_provenance_pair(r, "Physical footprint", footprint_text(b, bt),
				   footprint_text(a, at));
}

static void
process_text(const struct vmmap_dump *d, struct strbuf *sb)
{
	strbuf_addstr(sb, d->process ? d->process : "(not recorded)");
	if (d->has_pid)
		strbuf_addf(sb, " [%" PRIu64 "]", d->pid);
}

static void
add_provenance(struct report *r, const struct vmmap_dump *b, const struct vmmap_dump *a)
{
	struct strbuf sb = STRBUF_INIT, sa = STRBUF_INIT;
	if (b)
		process_text(b, &sb);
	process_text(a, &sa);
	report_add_provenance_pair(r, "Process", b ? sb.buf : NULL, sa.buf);
	strbuf_release(&sb);
	strbuf_release(&sa);
	add_field(r, "OS version", b, a, "OS Version");
	add_field(r, "Code type", b, a, "Code Type");
	add_field(r, "Captured", b, a, "Date/Time");
	add_footprint(r, b, a);
	if (a->page_size && (!b || b->page_size == a->page_size))
		report_add_provenance(r, "Page size", "%" PRIu64 " bytes", a->page_size);
	else if (a->page_size || (b && b->page_size))
		report_add_provenance(r, "Page size", "%" PRIu64 " \u2192 %" PRIu64 " bytes",
				      b ? b->page_size : 0, a->page_size);
	if (a->report_format)
		report_add_provenance(r, "vmmap report format", "%s", a->report_format);
}

/* ---- GPU memory by type and state --------------------------------------- */

/* A region-line figure, or an empty cell where the lines do not print its column. */
static void
add_line_cell(struct report_table *t, const struct vmmap_dump *d, enum vmmap_metric_field f,
	      uint64_t v)
{
	if (vmmap_dump_lines_have(d, f))
		report_table_figure(t, REPORT_CELL_BYTES, report_i64(v));
	else
		report_table_empty(t);
}

static void
add_amount_cells(struct report_table *t, const struct vmmap_dump *d,
		 const struct vmmap_amounts *a)
{
	report_table_figure(t, REPORT_CELL_COUNT, report_i64(a->count));
	report_table_figure(t, REPORT_CELL_BYTES, report_i64(a->vsize));
	add_line_cell(t, d, VMMAP_FIELD_RESIDENT, a->resident);
	add_line_cell(t, d, VMMAP_FIELD_DIRTY, a->dirty);
	add_line_cell(t, d, VMMAP_FIELD_SWAPPED, a->swapped);
}

static void
add_single_types(struct report *r, const struct vmmap_dump *d,
		 const struct vmmap_type_stats **types, size_t n)
{
	static const char *const cols[] = {
		"type", "state", "regions", "virtual", "resident", "dirty", "swapped",
	};
	struct report_section *s = report_section(r, REPORT_SEC_GPU, "GPU memory");
	struct report_table *t = report_section_add_table(s, "gpu-types",
		"By type and purgeable state", 7, cols);
	struct report_chart *c = report_section_add_chart(s, REPORT_CHART_STACKED,
		"Virtual size by purgeable state", "gpu-types", true);
	for (size_t k = 0; k < 4; k++)
		report_chart_series(c, purge_series[k]);
	for (size_t i = 0; i < n; i++) {
		struct report_chart_item *it = report_chart_add(c, types[i]->name);
		for (size_t k = 0; k < 4; k++) {
			const struct vmmap_amounts *a = &types[i]->by_purge[purge_order[k]];
			if (it)
				it->v[k] = report_i64(a->vsize);
			if (!a->count || !report_table_row(t))
				continue;
			char label[32];
			purge_label(purge_order[k], label);
			report_table_code(t, types[i]->name);
			report_table_text(t, label);
			add_amount_cells(t, d, a);
		}
	}
	if (!vmmap_dump_lines_have(d, VMMAP_FIELD_RESIDENT))
		t->note = xstrdup("The dump's region lines print only VSIZE (vmmap report "
				  "format 2.2/2.3): an empty cell is a figure it does not have.");
}

/* ---- log2 size histograms ------------------------------------------------ */

struct log2_hist {
	uint64_t count[2][LOG2_BUCKETS];
	uint64_t bytes[2][LOG2_BUCKETS];   /* saturated at UINT64_MAX (never in a real dump) */
	uint64_t purge[LOG2_BUCKETS][VMMAP_PURGE_STATES];
	unsigned lo, hi;       /* occupied bucket range; lo > hi when empty */
};

static uint64_t
add_sat(uint64_t a, uint64_t b)
{
	uint64_t s;
	return __builtin_add_overflow(a, b, &s) ? UINT64_MAX : s;
}

static void
hist_add_type(struct log2_hist *h, int side, const struct vmmap_type_stats *t)
{
	for (size_t i = 0; t && i < t->nhist; i++) {
		const struct vmmap_hist_bucket *b = &t->hist[i];
		unsigned k = report_log2(b->vsize);
		uint64_t count = vmmap_hist_bucket_count(b), bytes;
		if (__builtin_mul_overflow(b->vsize, count, &bytes))
			bytes = UINT64_MAX;
		h->count[side][k] += count;
		h->bytes[side][k] = add_sat(h->bytes[side][k], bytes);
		if (side == 1)
			for (int p = 0; p < VMMAP_PURGE_STATES; p++)
				h->purge[k][p] += b->purge[p];
		if (count && k < h->lo)
			h->lo = k;
		if (count && (h->hi == UINT32_MAX || k > h->hi))
			h->hi = k;
	}
}

static void
bucket_label(unsigned k, char out[80])
{
	char lo[32], hi[32];
	size_format_binary(UINT64_C(1) << k, lo);
	if (k == 63)
		snprintf(out, 80, "%s and above", lo);
	else {
		size_format_binary(UINT64_C(1) << (k + 1), hi);
		snprintf(out, 80, "%s to %s", lo, hi);
	}
}

/*
 * Bytes by log2 size bucket, the regions that make them beside. A bucket
 * between the smallest and the largest that holds nothing (single), or
 * that holds the same before and after (pair), says nothing new: it is
 * kept, marked unchanged, so that the chart's axis has no gaps.
 */
static void
add_histogram(struct report_section *s, const char *type, size_t index,
	      const struct log2_hist *h, bool pair)
{
	static const char *const single_cols[] = {
		"size (at least, below)", "bytes", "regions", "N", "V", "E", "-",
	};
	static const char *const pair_cols[] = {
		"size (at least, below)", "bytes before", "bytes after", "bytes delta",
		"regions before", "regions after", "regions delta",
	};
	char id[40];
	snprintf(id, sizeof(id), "sizes-%zu", index);
	struct strbuf tt = STRBUF_INIT;
	strbuf_addf(&tt, "%s: bytes by region size (log2 buckets)", type);
	struct report_table *t = report_section_add_table(s, id, tt.buf, 7,
							  pair ? pair_cols : single_cols);
	/* A type whose sizes did not change gets its folded table, not a chart. */
	bool changed = !pair;
	for (unsigned k = h->lo; k <= h->hi && k < LOG2_BUCKETS && !changed; k++)
		changed = h->bytes[0][k] != h->bytes[1][k] || h->count[0][k] != h->count[1][k];
	struct report_chart *c = NULL;
	if (changed) {
		c = report_section_add_chart(s, REPORT_CHART_HISTOGRAM, tt.buf, id, true);
		c->counts = true;
		if (pair) {
			report_chart_series(c, "before");
			report_chart_series(c, "after");
		} else {
			report_chart_series(c, "bytes");
		}
	}
	strbuf_release(&tt);
	for (unsigned k = h->lo; k <= h->hi && k < LOG2_BUCKETS; k++) {
		char label[80];
		bucket_label(k, label);
		int side = pair ? 0 : 1;
		struct report_chart_item *it = c ? report_chart_add(c, label) : NULL;
		if (it) {
			it->v[0] = report_i64(h->bytes[side][k]);
			it->counts[0] = report_i64(h->count[side][k]);
			it->v[1] = pair ? report_i64(h->bytes[1][k]) : 0;
			it->counts[1] = pair ? report_i64(h->count[1][k]) : 0;
		}
		bool same = pair ? h->bytes[0][k] == h->bytes[1][k] && h->count[0][k] == h->count[1][k]
				 : h->count[1][k] == 0;
		bool kept = report_table_row(t);
		if (same)
			report_table_unchanged(t);
		if (!kept)
			continue;
		report_table_text(t, label);
		if (pair) {
			report_table_figure(t, REPORT_CELL_BYTES, report_i64(h->bytes[0][k]));
			report_table_figure(t, REPORT_CELL_BYTES, report_i64(h->bytes[1][k]));
			report_table_figure(t, REPORT_CELL_DBYTES,
					    report_delta(h->bytes[0][k], h->bytes[1][k]));
			report_table_figure(t, REPORT_CELL_COUNT, report_i64(h->count[0][k]));
			report_table_figure(t, REPORT_CELL_COUNT, report_i64(h->count[1][k]));
			report_table_figure(t, REPORT_CELL_DCOUNT,
					    report_delta(h->count[0][k], h->count[1][k]));
		} else {
			report_table_figure(t, REPORT_CELL_BYTES, report_i64(h->bytes[1][k]));
			report_table_figure(t, REPORT_CELL_COUNT, report_i64(h->count[1][k]));
			for (size_t p = 0; p < 4; p++)
				report_table_figure(t, REPORT_CELL_COUNT,
						    report_i64(h->purge[k][purge_order[p]]));
		}
	}
}

static void
log2_hist_init(struct log2_hist *h)
{
	memset(h, 0, sizeof(*h));
	h->lo = LOG2_BUCKETS;
	h->hi = UINT32_MAX;
}

/* ---- IOSurfaces ---------------------------------------------------------- */

static void
add_surfaces(struct report_section *s, const struct vmmap_dump *d, const char *title)
{
	static const char *const cols[] = {
		"dimensions", "format", "surfaces", "mapped", "surface bytes", "page-rounding waste",
	};
	const struct vmmap_surface_group **g;
	size_t n = vmmap_dump_sorted_surfaces(d, &g);
	if (n == 0) {
		free(g);
		return;
	}
	struct report_table *t = report_section_add_table(s, "surfaces", title, 6, cols);
	for (size_t i = 0; i < n; i++) {
		if (!report_table_row(t))
			continue;
		report_table_textf(t, "%" PRIu32 " x %" PRIu32, g[i]->width, g[i]->height);
		report_table_code(t, g[i]->format);
		report_table_figure(t, REPORT_CELL_COUNT, report_i64(g[i]->count));
		report_table_figure(t, REPORT_CELL_BYTES, report_i64(g[i]->mapped));
		report_table_figure(t, REPORT_CELL_BYTES, report_i64(g[i]->surface_bytes));
		if (g[i]->mapped >= g[i]->surface_bytes && !g[i]->rounded)
			report_table_figure(t, REPORT_CELL_BYTES,
					    report_i64(g[i]->mapped - g[i]->surface_bytes));
		else
			report_table_empty(t);
	}
	free(g);
	t->note = xstrdup("Waste is mapped minus the surfaces' own sizes; left empty where a "
			  "size was printed rounded or exceeds the mapping.");
}

/* ---- one dump ------------------------------------------------------------- */

/* A figure of the summary-only headline: its size, or '?' when not printed. */
static void
summary_figure(const struct vmmap_dump *d, enum vmmap_metric_field f, char *out, size_t n,
	       uint64_t *v)
{
	bool rounded;
	*v = 0;
	if (!vmmap_dump_gpu_figure(d, f, v, &rounded))
		snprintf(out, n, "?");
	else if (f == VMMAP_FIELD_COUNT)
		snprintf(out, n, "%" PRIu64, *v);
	else
		size_format_binary(*v, out);
}

/*
 * A dump with no region lines (vmmap -summary, a crash report): the GPU
 * rows of its summary table, as vmmap rounded them. Never "0 B in 0
 * regions" when a GPU row exists; a column the table lacks is '?' (empty).
 */
static void
add_summary_only(struct report *r, const struct vmmap_dump *d)
{
	char v[32], c[32], res[32];
	uint64_t x;
	summary_figure(d, VMMAP_FIELD_VSIZE, v, sizeof(v), &x);
	summary_figure(d, VMMAP_FIELD_COUNT, c, sizeof(c), &x);
	summary_figure(d, VMMAP_FIELD_RESIDENT, res, sizeof(res), &x);
	report_add_verdict(r, "GPU memory %s in %s region%s (%s resident): vmmap's rounded "
			   "summary figures (the dump has no region lines)", v, c,
			   strcmp(c, "1") == 0 ? "" : "s", res);
	static const char *const cols[] = {
		"type", "regions", "virtual", "resident", "dirty", "swapped",
	};
	struct report_section *s = report_section(r, REPORT_SEC_GPU, "GPU memory");
	struct report_table *t = report_section_add_table(s, "gpu-summary",
		"By type, from vmmap's summary table", 6, cols);
	for (size_t i = 0; i < d->nrows; i++) {
		const struct vmmap_summary_row *row = &d->rows[i];
		if (!gpu_type_counts(row->name, strlen(row->name)) || !report_table_row(t))
			continue;
		report_table_code(t, row->name);
		if (row->has_count)
			report_table_figure(t, REPORT_CELL_COUNT, report_i64(row->count));
		else
			report_table_empty(t);
		static const enum vmmap_column colv[] = {
			VMMAP_COL_VIRTUAL, VMMAP_COL_RESIDENT, VMMAP_COL_DIRTY, VMMAP_COL_SWAPPED,
		};
		for (size_t k = 0; k < 4; k++) {
			if (row->present & (1u << colv[k]))
				report_table_figure(t, REPORT_CELL_BYTES,
						    report_i64(row->value[colv[k]]));
			else
				report_table_empty(t);
		}
	}
	t->note = xstrdup("Figures as vmmap's summary table prints them (rounded); an empty "
			  "cell is a column the table does not have. The dump lists no regions, "
			  "so there are no purgeable states or sizes.");
}

void
report_add_vmmap(struct report *r, const struct vmmap_dump *d)
{
	summary_note_vmmap(&r->facts, 1, d);
	/* An excerpt (grepped header, row or region lines) that lists no GPU
	 * type says nothing about GPU memory: unknown, never "0 B". */
	if (!vmmap_dump_gpu_absence_known(d)) {
		add_provenance(r, NULL, d);
		report_add_verdict(r, "No GPU figures: the capture is an excerpt of a vmmap dump "
				   "(no region section, no summary table read to its TOTAL rows) "
				   "and lists no GPU type, so its GPU memory is unknown");
		return;
	}
	if (!d->region_lines && d->nrows) {
		add_provenance(r, NULL, d);
		add_summary_only(r, d);
		return;
	}
	const struct vmmap_type_stats **types;
	size_t n = vmmap_dump_sorted_types(d, &types);

	add_provenance(r, NULL, d);
	struct vmmap_amounts total = vmmap_dump_total(d);
	char v[32], res[32];
	size_format_binary(total.vsize, v);
	/* Region lines of format 2.2/2.3 print no RSDNT column: unknown, not 0. */
	if (vmmap_dump_lines_have(d, VMMAP_FIELD_RESIDENT)) {
		size_format_binary(total.resident, res);
		strcat(res, " resident");
	} else {
		snprintf(res, sizeof(res), "resident unknown");
	}
	bool gpu = true;
	for (size_t i = 0; i < n; i++)
		gpu = gpu && report_vmmap_gpu_type(types[i]->name);
	report_add_verdict(r, "%s %s in %" PRIu64 " region%s (%s)",
			   gpu ? "GPU memory" : "selected regions", v, total.count,
			   total.count == 1 ? "" : "s", res);
	if (n == 0) {
		free(types);
		return;
	}
	uint64_t nonvol = vmmap_dump_total_purge(d, VMMAP_PURGE_N).vsize;
	if (nonvol) {
		size_format_binary(nonvol, v);
		report_add_verdict(r, "%s non-volatile", v);
	}
	add_single_types(r, d, types, n);
	struct report_section *s = report_section(r, REPORT_SEC_SIZES, "Sizes");
	for (size_t i = 0; i < n; i++) {
		struct log2_hist h;
		log2_hist_init(&h);
		hist_add_type(&h, 1, types[i]);
		if (h.hi != UINT32_MAX)
			add_histogram(s, types[i]->name, i, &h, false);
	}
	add_surfaces(s, d, "IOSurfaces by dimensions and pixel format");
	free(types);
}

/* ---- a diff ---------------------------------------------------------------- */

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
	strbuf_addf(sb, "%s %s ", row->type, purge_names[row->purge]);
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

static void
add_pair_verdict(struct report *r, const struct diff_vmmap_row **rows, size_t n)
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
		strbuf_addf(&sb, "GPU memory %s", b);
	} else {
		strbuf_addstr(&sb, "GPU memory changed by more than 8 EiB (corrupt input?)");
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

static void
add_pair_types(struct report *r, const struct diff_vmmap *d,
	       const struct diff_vmmap_row **rows, size_t n)
{
	static const char *const cols[] = {
		"type", "state", "regions before", "regions after", "delta", "virtual before",
		"virtual after", "virtual delta", "resident delta", "dirty delta",
		"swapped delta",
	};
	struct report_section *s = report_section(r, REPORT_SEC_GPU, "GPU memory");
	struct report_table *t = report_section_add_table(s, "gpu-types",
		"By type and purgeable state", 11, cols);
	for (size_t i = 0; i < n; i++) {
		char label[32];
		purge_label(rows[i]->purge, label);
		add_pair_row(t, d, rows[i]->type, label, &rows[i]->before, &rows[i]->after);
		if (!diff_vmmap_row_changed(rows[i]))
			report_table_unchanged(t);
	}
	struct report_chart *c = report_section_add_chart(s, REPORT_CHART_STACKED,
		"Virtual size by purgeable state, before and after", "gpu-types", true);
	for (size_t k = 0; k < 4; k++)
		report_chart_series(c, purge_series[k]);
	for (size_t i = 0; i < d->ntypes; i++) {
		if (!report_vmmap_gpu_type(d->types[i]))
			continue;
		for (int side = 0; side < 2; side++) {
			const struct vmmap_dump *dump = side ? d->after : d->before;
			const struct vmmap_type_stats *ts = type_in(dump, d->types[i]);
			struct strbuf sb = STRBUF_INIT;
			strbuf_addf(&sb, "%s (%s)", d->types[i], side ? "after" : "before");
			struct report_chart_item *it = report_chart_add(c, sb.buf);
			strbuf_release(&sb);
			for (size_t k = 0; it && ts && k < 4; k++)
				it->v[k] = report_i64(ts->by_purge[purge_order[k]].vsize);
		}
	}
}

/* One side's gpu figure for the pair headline: its size, or '?'. */
static bool
pair_figure(const struct vmmap_dump *d, enum vmmap_metric_field f, char *out, size_t n,
	    uint64_t *v)
{
	summary_figure(d, f, out, n, v);
	return strcmp(out, "?") != 0;
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
	static const char *const cols[] = {
		"type", "field", "before", "after", "change",
	};
	struct report_section *s = report_section(r, REPORT_SEC_GPU, "GPU memory");
	struct report_table *t = report_section_add_table(s, "gpu-summary",
		"Changed figures by type, from vmmap's summary tables", 5, cols);
	for (size_t i = 0; i < d->nsrows; i++) {
		const struct diff_vmmap_summary_row *row = &d->srows[i];
		if (!report_vmmap_gpu_type(row->type))
			continue;
		for (size_t f = 0; f <= VMMAP_FIELD_SWAPPED; f++) {
			bool hb = (row->known_before >> f) & 1, ha = (row->known_after >> f) & 1;
			if ((!hb && !ha) || (hb && ha && row->before[f] == row->after[f] &&
					     row->in_before == row->in_after))
				continue;
			if (!report_table_row(t))
				break;
			enum report_cell_kind k = f == VMMAP_FIELD_COUNT ? REPORT_CELL_COUNT
									 : REPORT_CELL_BYTES;
			enum report_cell_kind dk = f == VMMAP_FIELD_COUNT ? REPORT_CELL_DCOUNT
									  : REPORT_CELL_DBYTES;
			report_table_code(t, row->type);
			report_table_text(t, diff_vmmap_summary_field(f));
			if (hb)
				report_table_figure(t, k, report_i64(row->before[f]));
			else
				report_table_empty(t);
			if (ha)
				report_table_figure(t, k, report_i64(row->after[f]));
			else
				report_table_empty(t);
			if (hb && ha)
				report_table_figure(t, dk, report_delta(row->before[f], row->after[f]));
			else
				report_table_empty(t);
		}
	}
	t->note = xstrdup("Figures as vmmap's summary tables print them (rounded); an empty "
			  "cell is a figure that capture does not have, not 0.");
}

void
report_add_vmmap_diff(struct report *r, const struct diff_vmmap *d)
{
	add_provenance(r, d->before, d->after);
	summary_note_vmmap(&r->facts, 0, d->before);
	summary_note_vmmap(&r->facts, 1, d->after);
	if (!d->by_summary)
		summary_note_vmmap_growth(&r->facts, d);
	if (d->by_summary) {
		add_pair_summary_only(r, d);
		return;
	}
	const struct diff_vmmap_row **rows = xcalloc(d->nrows + 1, sizeof(*rows));
	size_t n = 0;
	for (size_t i = 0; i < d->nrows; i++)
		if (report_vmmap_gpu_type(d->rows[i].type))
			rows[n++] = &d->rows[i];
	add_pair_verdict(r, rows, n);
	if (n)
		add_pair_types(r, d, rows, n);
	free(rows);

	struct report_section *s = NULL;
	for (size_t i = 0, index = 0; i < d->ntypes; i++) {
		if (!report_vmmap_gpu_type(d->types[i]))
			continue;
		struct log2_hist h;
		log2_hist_init(&h);
		hist_add_type(&h, 0, type_in(d->before, d->types[i]));
		hist_add_type(&h, 1, type_in(d->after, d->types[i]));
		if (h.hi == UINT32_MAX)
			continue;
		if (!s)
			s = report_section(r, REPORT_SEC_SIZES, "Sizes");
		add_histogram(s, d->types[i], index++, &h, true);
	}
	if (d->after->nsurfaces) {
		if (!s)
			s = report_section(r, REPORT_SEC_SIZES, "Sizes");
		add_surfaces(s, d->after, "IOSurfaces by dimensions and pixel format (after)");
	}
}
