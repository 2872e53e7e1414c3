#include "model/report_vmmap.h"
#include "model/report_vmmap_parts.h"

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
const enum vmmap_purge report_vmmap_purge_order[4] = {
	VMMAP_PURGE_N, VMMAP_PURGE_V, VMMAP_PURGE_E, VMMAP_PURGE_NONE,
};

const char *const report_vmmap_purge_names[VMMAP_PURGE_STATES] = {
	[VMMAP_PURGE_N] = "non-volatile",
	[VMMAP_PURGE_V] = "volatile",
	[VMMAP_PURGE_E] = "empty",
	[VMMAP_PURGE_NONE] = "not purgeable",
};

const char *const report_vmmap_purge_series[4] = {
	"N non-volatile", "V volatile", "E empty", "- not purgeable",
};

bool
report_vmmap_gpu_type(const char *name)
{
	return gpu_type_counts(name, strlen(name));
}

const struct vmmap_type_stats *
report_vmmap_type_in(const struct vmmap_dump *d, const char *name)
{
	size_t *idx = strmap_get(&d->type_index, name, strlen(name));
	return idx ? &d->types[*idx] : NULL;
}

void
report_vmmap_purge_label(enum vmmap_purge p, char out[32])
{
	snprintf(out, 32, "%c %s", vmmap_purge_char(p), report_vmmap_purge_names[p]);
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

void
report_vmmap_add_provenance(struct report *r, const struct vmmap_dump *b,
			    const struct vmmap_dump *a, bool footprint)
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
	if (footprint)
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
		report_chart_series(c, report_vmmap_purge_series[k]);
	for (size_t i = 0; i < n; i++) {
		struct report_chart_item *it = report_chart_add(c, types[i]->name);
		for (size_t k = 0; k < 4; k++) {
			const struct vmmap_amounts *a = &types[i]->by_purge[report_vmmap_purge_order[k]];
			if (it)
				it->v[k] = report_i64(a->vsize);
			if (!a->count || !report_table_row(t))
				continue;
			char label[32];
			report_vmmap_purge_label(report_vmmap_purge_order[k], label);
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

static uint64_t
add_sat(uint64_t a, uint64_t b)
{
	uint64_t s;
	return __builtin_add_overflow(a, b, &s) ? UINT64_MAX : s;
}

void
report_vmmap_hist_add_type(struct log2_hist *h, int side, const struct vmmap_type_stats *t)
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

static bool
hist_changed(const struct log2_hist *h)
{
	for (unsigned k = h->lo; k <= h->hi && k < LOG2_BUCKETS; k++)
		if (h->bytes[0][k] != h->bytes[1][k] || h->count[0][k] != h->count[1][k])
			return true;
	return false;
}

/*
 * Bytes by log2 size bucket, the regions that make them beside. A bucket
 * between the smallest and the largest that holds nothing (single), or
 * that holds the same before and after (pair), says nothing new: it is
 * kept, marked unchanged, so that the chart's axis has no gaps.
 */
void
report_vmmap_add_histogram(struct report_section *s, const char *type, size_t index,
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
	bool changed = !pair || hist_changed(h);
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
						    report_i64(h->purge[k][report_vmmap_purge_order[p]]));
		}
	}
}

void
report_vmmap_log2_hist_init(struct log2_hist *h)
{
	memset(h, 0, sizeof(*h));
	h->lo = LOG2_BUCKETS;
	h->hi = UINT32_MAX;
}

/* ---- IOSurfaces ---------------------------------------------------------- */

void
report_vmmap_add_surfaces(struct report_section *s, const struct vmmap_dump *d,
			  const char *title)
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
void
report_vmmap_summary_figure(const struct vmmap_dump *d, enum vmmap_metric_field f, char *out,
			    size_t n, uint64_t *v)
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
	report_vmmap_summary_figure(d, VMMAP_FIELD_VSIZE, v, sizeof(v), &x);
	report_vmmap_summary_figure(d, VMMAP_FIELD_COUNT, c, sizeof(c), &x);
	report_vmmap_summary_figure(d, VMMAP_FIELD_RESIDENT, res, sizeof(res), &x);
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
	 * type says nothing about GPU memory: unknown, never "0 B". JSON made
	 * for other types shows them (its Cost is unknown: no line). */
	if (!vmmap_dump_gpu_absence_known(d) && !d->gpu_left_out) {
		report_vmmap_add_provenance(r, NULL, d, true);
		report_add_verdict(r, "No GPU figures: the capture is an excerpt of a vmmap dump "
				   "(no region section, no summary table read to its TOTAL rows) "
				   "and lists no GPU type, so its GPU memory is unknown");
		return;
	}
	if (!d->region_lines && d->nrows) {
		report_vmmap_add_provenance(r, NULL, d, true);
		add_summary_only(r, d);
		return;
	}
	const struct vmmap_type_stats **types;
	size_t n = vmmap_dump_sorted_types(d, &types);

	report_vmmap_add_provenance(r, NULL, d, true);
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
		report_vmmap_log2_hist_init(&h);
		report_vmmap_hist_add_type(&h, 1, types[i]);
		if (h.hi != UINT32_MAX)
			report_vmmap_add_histogram(s, types[i]->name, i, &h, false);
	}
	report_vmmap_add_surfaces(s, d, "IOSurfaces by dimensions and pixel format");
	free(types);
}

