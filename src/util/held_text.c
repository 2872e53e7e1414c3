#include "util/held_text.h"

#include <string.h>

/* Text kept in memory before it goes to the file, in one write. */
#define HELD_TEXT_BUFFER SPILL_DIRECT_MIN

void
held_text_init(struct held_text *h)
{
	memset(h, 0, sizeof(*h));
	strbuf_init(&h->buf);
	spill_init(&h->file);
}

/* The buffer is full: move it to the file (opened on first need). */
static void
spill_buffer(struct held_text *h)
{
	struct diag err;
	uint64_t off;
	diag_clear(&err);
	if (!h->file_open && !h->file_failed) {
		if (spill_open(&h->file, &err) < 0)
			h->file_failed = true;
		else
			h->file_open = true;
	}
	if (!h->file_open || spill_append(&h->file, h->buf.buf, h->buf.len, &off, &err) < 0) {
		/* No temporary file (or a full disk): keep the text in memory. */
		h->file_failed = true;
		return;
	}
	h->spilled += h->buf.len;
	strbuf_reset(&h->buf);
}

void
held_text_add(struct held_text *h, const char *p, size_t n)
{
	strbuf_add(&h->buf, p, n);
	if (h->buf.len >= HELD_TEXT_BUFFER && !h->file_failed)
		spill_buffer(h);
}

int
held_text_flush(struct held_text *h, FILE *out, struct diag *err)
{
	char chunk[64 * 1024];
	for (uint64_t off = 0; off < h->spilled;) {
		size_t n = h->spilled - off < sizeof(chunk) ? (size_t)(h->spilled - off) :
							      sizeof(chunk);
		if (spill_read(&h->file, off, chunk, n, err) < 0)
			return -1;
		fwrite(chunk, 1, n, out);
		off += n;
	}
	fwrite(h->buf.buf, 1, h->buf.len, out);
	held_text_release(h);
	held_text_init(h);
	return 0;
}

void
held_text_release(struct held_text *h)
{
	strbuf_release(&h->buf);
	spill_release(&h->file);
}
