#ifndef IOTALLY_TESTS_TRACK_RECORDS_H
#define IOTALLY_TESTS_TRACK_RECORDS_H

/*
 * Helpers of the unit tests that build ioclasscount --track records by
 * hand: a small deterministic generator (no libc rand state shared with
 * anything) and a symbolicated frame.
 */

#include <stdint.h>
#include <string.h>

#include "model/track.h"

static inline uint32_t
next_random(uint32_t *s)
{
	*s = *s * 1103515245u + 12345u;
	return *s >> 16;
}

static inline void
add_text_frame(struct track_record *r, const char *module, const char *symbol)
{
	struct track_frame *f = track_record_add_frame(r);
	f->index = r->nframes - 1;
	f->address = 0xfffffff000001000ULL;
	f->module = track_record_add_text(r, module, strlen(module));
	f->symbol = track_record_add_text(r, symbol, strlen(symbol));
}

/* A frame printed with its address and " + 0xOFFSET". */
static inline struct track_frame *
add_frame_at(struct track_record *r, const char *module, uint64_t address, const char *symbol,
	     uint64_t offset)
{
	struct track_text m = track_record_add_text(r, module, strlen(module));
	struct track_text s = track_record_add_text(r, symbol, strlen(symbol));
	struct track_frame *f = track_record_add_frame(r);
	f->index = r->nframes - 1;
	f->module = m;
	f->address = address;
	f->symbol = s;
	f->offset = offset;
	f->has_offset = true;
	return f;
}

#endif
