#include "report/vmmap_text.h"

#include "model/gpu.h"

#include "report/textfmt.h"
#include "report/vmmap_hist_line.h"
#include "util/escape.h"
#include "util/xalloc.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define SUMMARY_RULE 123
#define BREAKDOWN_RULE 98

void
vmmap_text_add_process(struct strbuf *out, const struct vmmap_dump *d)
{
	escape_addstr(out, d->process ? d->process : "?");
	strbuf_addstr(out, " [");
	if (d->has_pid)
		strbuf_add_u64(out, d->pid);
	else
		strbuf_addch(out, '?');
	strbuf_addch(out, ']');
}

void
vmmap_text_write_process(FILE *out, const struct vmmap_dump *d)
{
	struct strbuf sb = STRBUF_INIT;
	vmmap_text_add_process(&sb, d);
	fwrite(sb.buf, 1, sb.len, out);
	strbuf_release(&sb);
}

static void
write_heading(FILE *out, const struct vmmap_dump *d)
{
	fputs("=== Process: ", out);
	vmmap_text_write_process(out, d);
	fputs(" ===\n", out);
}

/* A column of the table: " | " and the figure, or "-" where the dump has none. */
static void
add_summary_cell(struct strbuf *sb, const struct vmmap_summary_row *row, enum vmmap_column c)
{
	strbuf_grow(sb, 3 + TEXT_FIXED_MAX);
	char *o = sb->buf + sb->len;
	memcpy(o, " | ", 3);
	size_t n;
	if (row->present & (1u << c)) {
		n = text_fixed_mb(o + 3, row->value[c]);
	} else {
		memcpy(o + 3, "         -", 10);   /* "%10s" of "-" */
		n = 10;
	}
	sb->len += 3 + n;
	sb->buf[sb->len] = '\0';
}

/*
 * One row, formatted by hand (a dump of -summary captures is all rows,
 * and fprintf's format parsing was a tenth of its time): the bytes of
 * text_pad_right(name, 26), " | %5" PRIu64 " (or "%5s" of "-"), then
 * " | %7.2f MB" or " | %10s" of "-" per column, and a newline.
 */
void
vmmap_text_add_summary_row(struct strbuf *sb, const struct vmmap_summary_row *row)
{
	size_t start = sb->len;
	/* To the first NUL, as text_pad_right() read it (a row's name may hold one). */
	escape_add(sb, row->name, row->text_len);
	size_t w = 0;
	for (size_t i = start; i < sb->len; i++)
		w += ((unsigned char)sb->buf[i] & 0xc0) != 0x80;
	if (w < 26)
		strbuf_addchars(sb, ' ', 26 - w);
	strbuf_addstr(sb, " | ");
	if (row->has_count) {
		char digits[20];
		size_t nd = 0;
		uint64_t c = row->count;
		do {
			digits[sizeof(digits) - ++nd] = (char)('0' + (unsigned)(c % 10));
			c /= 10;
		} while (c);
		if (nd < 5)
			strbuf_addchars(sb, ' ', 5 - nd);
		strbuf_add(sb, digits + sizeof(digits) - nd, nd);
	} else {
		strbuf_addstr(sb, "    -");
	}
	for (int c = 0; c < VMMAP_COL_SIZES; c++)
		add_summary_cell(sb, row, (enum vmmap_column)c);
	strbuf_addch(sb, '\n');
}

/* Rows gathered before one fwrite(). */
#define SUMMARY_CHUNK ((size_t)64 * 1024)

static void
write_summary(FILE *out, const struct vmmap_dump *d, const struct vmmap_filter *f)
{
	bool any = false;
	for (size_t i = 0; i < d->nrows && !any; i++)
		any = vmmap_dump_row_selected(d, f, i);
	if (!any)
		return;
	struct strbuf sb = STRBUF_INIT;
	/* The heading as "%-26s | %5s | %10s ..." printed it, written once. */
	strbuf_addstr(&sb, "=== vmmap Summary Table ===\n"
		      "REGION TYPE                | COUNT |    VIRTUAL |   RESIDENT |      DIRTY |"
		      "    SWAPPED |   VOLATILE |     NONVOL |      EMPTY\n");
	strbuf_addchars(&sb, '-', SUMMARY_RULE);
	strbuf_addch(&sb, '\n');
	for (size_t i = 0; i < d->nrows; i++) {
		const struct vmmap_summary_row *row = &d->rows[i];
		if (!vmmap_dump_row_selected(d, f, i))
			continue;
		vmmap_text_add_summary_row(&sb, row);
		if (sb.len >= SUMMARY_CHUNK) {
			fwrite(sb.buf, 1, sb.len, out);
			strbuf_reset(&sb);
		}
	}
	strbuf_addch(&sb, '\n');
	fwrite(sb.buf, 1, sb.len, out);
	strbuf_release(&sb);
}

static const char *
purge_label(enum vmmap_purge p)
{
	static const char *const labels[VMMAP_PURGE_STATES] = {
		"N (Non-Volatile)", "V (Volatile/Purgeable)", "E (Empty/Purged)",
		"- (Unmarked)",
	};
	return labels[p];
}

/*
 * A breakdown figure, or '?' where the dump's region lines do not print
 * its column (format 2.2/2.3 print only the columns asked for): unknown,
 * never 0. Dumps that print every column keep the reference layout.
 */
static void
breakdown_cell(FILE *out, bool known, uint64_t bytes, bool trim)
{
	if (!known)
		fprintf(out, trim ? "%s" : "%10s", "?");
	else if (trim)
		text_mb_trim(out, bytes);
	else
		text_mb(out, bytes);
}

static void
write_breakdown(FILE *out, const struct vmmap_dump *d,
		const struct vmmap_type_stats **types, size_t ntypes)
{
	bool has_rs = vmmap_dump_lines_have(d, VMMAP_FIELD_RESIDENT) &&
		      vmmap_dump_lines_have(d, VMMAP_FIELD_SWAPPED);
	bool has_dirty = vmmap_dump_lines_have(d, VMMAP_FIELD_DIRTY);
	fputs("=== Per-Region Purgeability Breakdown ===\n", out);
	fprintf(out, "%-26s | %-22s | %5s | %10s | %10s | %10s\n", "REGION TYPE",
		"PURGE STATE", "COUNT", "VSIZE", "RSDNT+SWAP", "DIRTY");
	text_repeat(out, '-', BREAKDOWN_RULE);
	fputc('\n', out);
	for (size_t i = 0; i < ntypes; i++) {
		for (int k = 0; k < VMMAP_PURGE_STATES; k++) {
			enum vmmap_purge p = vmmap_purge_order[k];
			const struct vmmap_amounts *a = &types[i]->by_purge[p];
			if (!a->count)
				continue;
			text_pad_right(out, types[i]->name, 26);
			fputs(" | ", out);
			text_pad_right(out, purge_label(p), 22);
			fprintf(out, " | %5" PRIu64 " | ", a->count);
			text_mb(out, a->vsize);
			fputs(" | ", out);
			breakdown_cell(out, has_rs, a->resident + a->swapped, false);
			fputs(" | ", out);
			breakdown_cell(out, has_dirty, a->dirty, false);
			fputc('\n', out);
		}
	}
	text_repeat(out, '-', BREAKDOWN_RULE);
	fputc('\n', out);

	struct vmmap_amounts all = vmmap_dump_total(d);
	fprintf(out, "Total entries: %" PRIu64 " | Resident+Swap: ", all.count);
	breakdown_cell(out, has_rs, all.resident + all.swapped, true);
	fputs(" | Dirty: ", out);
	breakdown_cell(out, has_dirty, all.dirty, true);
	fputs(" | Volatile VSIZE (V): ", out);
	text_mb_trim(out, vmmap_dump_total_purge(d, VMMAP_PURGE_V).vsize);
	fputs(" | Empty/Purged VSIZE (E): ", out);
	text_mb_trim(out, vmmap_dump_total_purge(d, VMMAP_PURGE_E).vsize);
	fputs(" | Non-Volatile VSIZE (N): ", out);
	text_mb_trim(out, vmmap_dump_total_purge(d, VMMAP_PURGE_N).vsize);
	fputc('\n', out);
}

/*
 * Bar length: floor of 40 * mem / max computed as one correctly rounded
 * division, as the reference report does; exact for all realistic sizes
 * (both operands below 2^53), long double beyond that.
 */
static unsigned
bar_length(unsigned __int128 mem, unsigned __int128 max)
{
	if (max == 0)
		return 0;
	unsigned __int128 num = mem * VMMAP_HIST_BAR_MAX;
	const unsigned __int128 exact = (unsigned __int128)1 << 53;
	double q;
	if (num < exact && max < exact)
		q = (double)num / (double)max;
	else
		q = (double)((long double)num / (long double)max);
	return (unsigned)q;
}

/* Rows gathered before one fwrite(). */
#define HIST_CHUNK ((size_t)64 * 1024)

static void
write_histogram(FILE *out, const struct vmmap_type_stats *t)
{
	const struct vmmap_hist_bucket **b;
	size_t n = vmmap_type_sorted_hist(t, &b);
	unsigned __int128 max = 0;
	for (size_t i = 0; i < n; i++) {
		unsigned __int128 mem = (unsigned __int128)b[i]->vsize * vmmap_hist_bucket_count(b[i]);
		if (mem > max)
			max = mem;
	}
	fputs("\n=== Histogram of ", out);
	escape_puts(out, t->name);
	fputs(" Regions by Virtual Size Bucket ===\n", out);
	char *buf = xmalloc(HIST_CHUNK);
	size_t len = 0;
	for (size_t i = 0; i < n; i++) {
		if (HIST_CHUNK - len < VMMAP_HIST_LINE_MAX) {
			fwrite(buf, 1, len, out);
			len = 0;
		}
		unsigned __int128 mem = (unsigned __int128)b[i]->vsize * vmmap_hist_bucket_count(b[i]);
		len += vmmap_hist_line(buf + len, b[i], bar_length(mem, max));
	}
	fwrite(buf, 1, len, out);
	free(buf);
	free(b);
}

static void
write_surfaces(FILE *out, const struct vmmap_dump *d)
{
	const struct vmmap_surface_group **g;
	size_t n = vmmap_dump_sorted_surfaces(d, &g);
	fputs("\n=== IOSurface Regions by Dimensions and Pixel Format ===\n", out);
	if (n == 0) {
		fputs("(no region detail with a SurfaceID)\n", out);
		free(g);
		return;
	}
	fprintf(out, "%-13s | %-6s | %5s | %10s | %10s | %10s\n", "DIMENSIONS",
		"FORMAT", "COUNT", "MAPPED", "SURFACES", "WASTE");
	text_repeat(out, '-', 73);
	fputc('\n', out);
	bool rounded = false;
	for (size_t i = 0; i < n; i++) {
		char dims[32];
		snprintf(dims, sizeof(dims), "%" PRIu32 "x%" PRIu32, g[i]->width, g[i]->height);
		text_pad_right(out, dims, 13);
		fputs(" | ", out);
		text_pad_right(out, g[i]->format, 6);
		fprintf(out, " | %5" PRIu64 " | ", g[i]->count);
		text_mb(out, g[i]->mapped);
		fputs(" | ", out);
		text_mb(out, g[i]->surface_bytes);
		fputs(" | ", out);
		if (g[i]->mapped >= g[i]->surface_bytes)
			text_mb(out, g[i]->mapped - g[i]->surface_bytes);
		else
			fprintf(out, "%7.2f MB", -((double)(g[i]->surface_bytes - g[i]->mapped) / 1048576.0));
		fputs(g[i]->rounded ? " ~\n" : "\n", out);
		rounded |= g[i]->rounded;
	}
	if (rounded)
		fputs("~ surface sizes printed rounded (M/G with a fraction); waste is approximate\n", out);
	free(g);
}

void
vmmap_text_write_dump(FILE *out, const struct vmmap_dump *d,
		      const struct vmmap_text_opts *opts, const struct vmmap_filter *f)
{
	if (opts->heading)
		write_heading(out, d);
	write_summary(out, d, f);

	const struct vmmap_type_stats **types;
	size_t ntypes = vmmap_dump_sorted_types(d, &types);
	if (ntypes) {
		write_breakdown(out, d, types, ntypes);
		for (size_t i = 0; i < ntypes; i++)
			write_histogram(out, types[i]);
		if (opts->surfaces)
			write_surfaces(out, d);
	}
	free(types);
}
