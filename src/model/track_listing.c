#include "model/track_listing.h"

#include <stdlib.h>
#include <string.h>

#include "model/track_record.h"
#include "util/xalloc.h"

/*
 * A record in the spill file: the struct itself (its pointers are not
 * used when read back), then its frames, then its text. Frames and
 * strings refer to the text by offset, so the copy needs no fixing up.
 */

void
track_listing_init(struct track_listing *l)
{
	memset(l, 0, sizeof(*l));
	spill_init(&l->spill);
}

void
track_listing_release(struct track_listing *l)
{
	free(l->keys);
	spill_release(&l->spill);
	track_listing_init(l);
}

static int
cmp_keys(const void *a, const void *b)
{
	const struct track_listing_key *x = a, *y = b;
	if (x->bytes != y->bytes)
		return x->bytes > y->bytes ? -1 : 1;
	if (x->index != y->index)
		return x->index < y->index ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

void
track_listing_sort(struct track_listing *l, uint64_t top)
{
	if (l->nkeys == 0)
		return;
	qsort(l->keys, l->nkeys, sizeof(*l->keys), cmp_keys);
	if (top && l->nkeys > top)
		l->nkeys = (size_t)top;
}

static int
spill_record(struct track_listing *l, const struct track_record *r, uint64_t *off,
	     struct diag *err)
{
	uint64_t ignored;
	if (spill_append(&l->spill, r, sizeof(*r), off, err) < 0)
		return -1;
	if (r->nframes &&
	    spill_append(&l->spill, r->frames, r->nframes * sizeof(*r->frames), &ignored, err) < 0)
		return -1;
	/* The text with its terminating NUL, so strings read back as C strings. */
	return spill_append(&l->spill, r->text.buf, r->text.len + 1, &ignored, err);
}

int
track_listing_add(struct track_listing *l, uint64_t top, const struct track_record *r,
		  struct diag *err)
{
	if (!l->opened) {
		if (spill_open(&l->spill, err) < 0)
			return -1;
		l->opened = true;
	}
	/* With a top limit, keys stay at 2 x top: trim whenever they fill. */
	if (top && l->nkeys >= 2 * top && l->nkeys >= 64)
		track_listing_sort(l, top);
	struct track_listing_key key = { r->bytes, r->index, r->seq, 0 };
	if (spill_record(l, r, &key.off, err) < 0)
		return -1;
	l->keys = xgrow(l->keys, &l->keys_alloc, l->nkeys + 1, sizeof(*l->keys));
	l->keys[l->nkeys++] = key;
	return 0;
}

int
track_listing_read(const struct track_listing *l, size_t i, struct track_record *out,
		   struct diag *err)
{
	struct track_record head;
	uint64_t off = l->keys[i].off;
	if (spill_read(&l->spill, off, &head, sizeof(head), err) < 0)
		return -1;
	off += sizeof(head);

	struct track_frame *frames = out->frames;
	size_t frames_alloc = out->frames_alloc;
	struct strbuf text = out->text;
	frames = xgrow(frames, &frames_alloc, head.nframes, sizeof(*frames));
	if (head.nframes &&
	    spill_read(&l->spill, off, frames, head.nframes * sizeof(*frames), err) < 0)
		goto fail;
	off += head.nframes * sizeof(*frames);
	strbuf_reset(&text);
	strbuf_grow(&text, head.text.len + 1);
	if (spill_read(&l->spill, off, text.buf, head.text.len + 1, err) < 0)
		goto fail;
	text.len = head.text.len;

	*out = head;
	out->frames = frames;
	out->frames_alloc = frames_alloc;
	out->text = text;
	return 0;
fail:
	strbuf_reset(&text);
	out->frames = frames;
	out->frames_alloc = frames_alloc;
	out->text = text;
	return -1;
}
