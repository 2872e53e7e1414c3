#include "model/track_record.h"

#include "util/bytes.h"
#include "util/escape.h"
#include "util/xalloc.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

void
track_record_init(struct track_record *r)
{
	memset(r, 0, sizeof(*r));
	strbuf_init(&r->text);
}

void
track_record_reset(struct track_record *r)
{
	struct track_frame *frames = r->frames;
	size_t alloc = r->frames_alloc;
	struct strbuf text = r->text;
	strbuf_reset(&text);
	memset(r, 0, sizeof(*r));
	r->frames = frames;
	r->frames_alloc = alloc;
	r->text = text;
}

void
track_record_release(struct track_record *r)
{
	free(r->frames);
	strbuf_release(&r->text);
	track_record_init(r);
}

struct track_text
track_record_add_text(struct track_record *r, const char *p, size_t n)
{
	struct track_text t = { r->text.len, n };
	strbuf_add(&r->text, p, n);
	/* Each string ends in a NUL so reports can use it as a C string. */
	strbuf_addch(&r->text, '\0');
	return t;
}

struct track_frame *
track_record_add_frame(struct track_record *r)
{
	r->frames = xgrow(r->frames, &r->frames_alloc, r->nframes + 1, sizeof(*r->frames));
	struct track_frame *f = &r->frames[r->nframes++];
	memset(f, 0, sizeof(*f));
	return f;
}

static void
add_view(struct strbuf *out, const struct track_record *r, struct track_text t, bool shown)
{
	if (shown)
		escape_add(out, track_str(r, t), t.len);
	else
		strbuf_add(out, track_str(r, t), t.len);
}

static void
format_frame(const struct track_record *r, const struct track_frame *f,
	     enum track_layout layout, bool shown, struct strbuf *out)
{
	size_t width = layout == TRACK_LAYOUT_97 ? 24 : 36;
	strbuf_addf(out, "%2" PRIu64 " ", f->index);
	size_t start = out->len;
	add_view(out, r, f->module, shown);
	if (out->len - start < width)   /* bytes, as ioclasscount pads */
		strbuf_addchars(out, ' ', width - (out->len - start));
	if (layout == TRACK_LAYOUT_97)
		strbuf_addf(out, "      0x%" PRIx64 " ", f->address);
	else if (f->zero_address)
		strbuf_addf(out, "    %018d ", 0);
	else
		strbuf_addf(out, "    0x%016" PRIx64 " ", f->address);
	add_view(out, r, f->symbol, shown);
	if (f->has_offset)
		strbuf_addf(out, " + 0x%" PRIx64, f->offset);
	if (f->has_source) {
		strbuf_addstr(out, " (");
		add_view(out, r, f->source, shown);
		strbuf_addch(out, ')');
	}
	strbuf_addch(out, '\n');
}

static void
format_trailer(const struct track_record *r, bool shown, struct strbuf *out)
{
	strbuf_addch(out, '<');
	add_view(out, r, r->trailer_process, shown);
	strbuf_addf(out, "(%" PRId64 ")>\n", r->trailer_pid);
}

static void
format_record(const struct track_record *r, enum track_layout layout, bool shown,
	      struct strbuf *out)
{
	if (r->type == TRACK_RECORD_MAP) {
		strbuf_addf(out, "[0x%" PRIx64 ", 0x%" PRIx64 "] ", r->map_address, r->bytes);
		add_view(out, r, r->map_process, shown);
		strbuf_addf(out, "(%" PRId64 ") [%" PRIu64 "]\n", r->map_pid, r->index);
	} else {
		strbuf_addf(out, "0x%" PRIx64 " bytes (0x%" PRIx64 " + 0x%" PRIx64 "), %" PRId64
			    " call%s%s [%" PRIu64 "]\n", r->bytes, r->size[0], r->size[1],
			    r->count, r->count == 1 ? "" : "s",
			    layout == TRACK_LAYOUT_97 ? "," : "", r->index);
	}
	for (size_t i = 0; i <= r->nframes; i++) {
		if (r->has_trailer && r->trailer_at == i)
			format_trailer(r, shown, out);
		if (i < r->nframes)
			format_frame(r, &r->frames[i], layout, shown, out);
	}
}

void
track_record_format(const struct track_record *r, enum track_layout layout,
		    struct strbuf *out)
{
	format_record(r, layout, false, out);
}

void
track_record_format_shown(const struct track_record *r, enum track_layout layout,
			  struct strbuf *out)
{
	format_record(r, layout, true, out);
}

int
track_record_add_bytes(const struct track_record *r, uint64_t *sum, const char *what,
		       const char *path, struct diag *err)
{
	if (!bytes_add(sum, r->bytes))
		return diag_set(err, DIAG_DATA, path, r->line, 0,
				"the %s passes 2^63 bytes; the capture is corrupt", what);
	return 0;
}

const char *
track_layout_name(enum track_layout l)
{
	switch (l) {
	case TRACK_LAYOUT_97:
		return "IOKitTools-97";
	case TRACK_LAYOUT_105:
		return "IOKitTools-105";
	case TRACK_LAYOUT_108:
	default:
		return "IOKitTools-108+";
	}
}
