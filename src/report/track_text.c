#include "report/track_text.h"

#include "report/textfmt.h"
#include "util/escape.h"
#include "util/strbuf.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static void
write_header(FILE *out, const struct track_capture *cap)
{
	struct strbuf line = STRBUF_INIT;
	strbuf_addstr(&line, "kernel memory allocations ('");
	escape_addstr(&line, cap->command);
	strbuf_addstr(&line, "')");
	fprintf(out, "%s\n", line.buf);
	text_repeat(out, '-', line.len);
	fputc('\n', out);
	strbuf_release(&line);
}

static void
write_images(FILE *out, const struct track_capture *cap)
{
	if (!cap->has_images_section)
		return;
	if (cap->nimages == 0) {
		fputs("No binary images\n", out);
		return;
	}
	fputs("\nBinary Images:\n", out);
	struct strbuf t[3] = { STRBUF_INIT, STRBUF_INIT, STRBUF_INIT };
	for (size_t i = 0; i < cap->nimages; i++) {
		const struct track_image *m = &cap->images[i];
		fprintf(out, "0x%" PRIx64 " - 0x%" PRIx64 " %s <%s> %s\n", m->start, m->end,
			escape_str(&t[0], m->name), escape_str(&t[1], m->uuid),
			escape_str(&t[2], m->path));
	}
	for (size_t i = 0; i < 3; i++)
		strbuf_release(&t[i]);
}

int
track_text_write_listing(FILE *out, const struct track_capture *cap, struct diag *err)
{
	const struct track_listing *list = &cap->listing;
	size_t n = track_listing_count(list);
	if (n == 0)
		return 0;   /* ioclasscount prints nothing at all when nothing matched */
	if (cap->command)
		write_header(out, cap);
	struct strbuf text = STRBUF_INIT;
	struct track_record rec;
	track_record_init(&rec);
	int rc = 0;
	for (size_t i = 0; i < n; i++) {
		if ((rc = track_listing_read(list, i, &rec, err)) < 0)
			break;
		strbuf_reset(&text);
		track_record_format_shown(&rec, cap->layout, &text);
		fputc('\n', out);
		fwrite(text.buf, 1, text.len, out);
	}
	track_record_release(&rec);
	strbuf_release(&text);
	if (rc < 0)
		return -1;
	uint64_t shown = 0;
	for (size_t i = 0; i < n; i++)
		shown += list->keys[i].bytes;   /* bounded by cap->shown_bytes */
	fprintf(out, "\n0x%" PRIx64 " bytes total\n", shown);
	uint64_t whole = track_capture_total(cap);
	if (whole != shown && !cap->sum_overflow)
		fprintf(out, "0x%" PRIx64 " bytes total in the capture\n", whole);
	write_images(out, cap);
	return 0;
}

static void
write_row(FILE *out, const struct track_capture *cap, const struct track_group *g,
	  struct strbuf tmp[2])
{
	if (cap->by == TRACK_BY_SYMBOL)
		fprintf(out, "%14" PRIu64 " %14" PRIu64 " %8" PRIu64 " %10" PRId64 "  %s  [%s]\n",
			g->self_bytes, g->bytes, g->records, g->count,
			g->symbol[0] ? escape_str(&tmp[0], g->symbol) : "?",
			g->name[0] ? escape_str(&tmp[1], g->name) : "?");
	else
		fprintf(out, "%14" PRIu64 " %8" PRIu64 " %10" PRId64 "  %s\n",
			g->bytes, g->records, g->count, escape_str(&tmp[0], g->name));
}

void
track_text_write_groups(FILE *out, const struct track_capture *cap, uint64_t top)
{
	static const char *const title[] = {
		[TRACK_BY_MODULE] = "MODULE",
		[TRACK_BY_CLASS] = "CLASS",
	};
	const struct track_group **g;
	size_t n = track_grouping_sorted(&cap->grouping, &g), shown = n;
	if (top && shown > top)
		shown = (size_t)top;
	if (cap->by == TRACK_BY_SYMBOL)
		fprintf(out, "%14s %14s %8s %10s  %s\n", "SELF", "INCLUSIVE", "RECORDS", "COUNT",
			"SYMBOL  [MODULE]");
	else
		fprintf(out, "%14s %8s %10s  %s\n", "BYTES", "RECORDS", "COUNT", title[cap->by]);
	struct strbuf tmp[2] = { STRBUF_INIT, STRBUF_INIT };
	for (size_t i = 0; i < shown; i++)
		write_row(out, cap, g[i], tmp);
	strbuf_release(&tmp[0]);
	strbuf_release(&tmp[1]);
	if (shown < n)
		fprintf(out, "(%zu more rows)\n", n - shown);
	if (cap->by == TRACK_BY_SYMBOL)
		fprintf(out, "%14" PRIu64 " %14s %8" PRIu64 " %10s  total\n",
			cap->shown_bytes, "", cap->shown_records, "");
	else
		fprintf(out, "%14" PRIu64 " %8" PRIu64 " %10s  total\n",
			cap->shown_bytes, cap->shown_records, "");
	free(g);
}
