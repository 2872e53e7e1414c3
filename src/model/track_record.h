#ifndef IOTALLY_MODEL_TRACK_RECORD_H
#define IOTALLY_MODEL_TRACK_RECORD_H

/*
 * One record of an `ioclasscount --track / --leaks / --maps=PID` capture:
 * an allocation site (its bytes, calls and frames) or a mapping, and its
 * text in ioclasscount's own layout.
 *
 * A parser owns one struct track_record, fills it, hands it on and resets
 * it for the next record (track_record_reset keeps the buffers). Strings of
 * a record (module, symbol, source, process) are (offset, length) views
 * into the record's own `text` buffer, each followed by a NUL; they may
 * hold any byte except '\n'. A view stays valid until the record is reset.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/diag.h"
#include "util/strbuf.h"

/* Which IOKitTools output layout the capture uses (formats §4.4, §4.5). */
enum track_layout {
	TRACK_LAYOUT_105,     /* no header line, 36-wide module, padded address */
	TRACK_LAYOUT_97,      /* ", [i]" headers, 24-wide module, unpadded address */
	TRACK_LAYOUT_108,     /* "kernel memory allocations (...)" header (108 to 125) */
};

enum track_record_type {
	TRACK_RECORD_ALLOC,   /* 0x.. bytes (0x.. + 0x..), N calls [i] */
	TRACK_RECORD_MAP,     /* [0xADDR, 0xLEN] proc(pid) [i] */
};

struct track_text {
	size_t off, len;      /* view into track_record.text */
};

struct track_frame {
	uint64_t index;       /* the printed frame number */
	uint64_t address;
	uint64_t offset;
	bool has_offset;      /* printed " + 0x.." */
	bool has_source;      /* printed " (file:line)" */
	bool zero_address;    /* printed as "%#018llx" of 0: eighteen zeros, no 0x */
	struct track_text module, symbol, source;
};

struct track_record {
	enum track_record_type type;
	uint64_t bytes;        /* alloc: size[0] + size[1]; map: mapped length */
	uint64_t size[2];      /* alloc: live, accumulated */
	int64_t count;         /* alloc: live allocations ("calls") */
	uint64_t map_address;  /* map: mapped address */
	struct track_text map_process;
	int64_t map_pid;
	uint64_t index;        /* the printed [i] */
	bool has_trailer;      /* a "<proc(pid)>" line */
	bool trailer_exited;   /* "<exited process(pid)>" */
	struct track_text trailer_process;
	int64_t trailer_pid;
	size_t trailer_at;     /* number of frames printed before the trailer */
	struct track_frame *frames;
	size_t nframes, frames_alloc;
	struct strbuf text;
	uint64_t line;         /* line of the record header */
	uint64_t seq;          /* 0-based position in the input */
};

void track_record_init(struct track_record *r);
/* Empty the record for the next one, keeping its buffers. */
void track_record_reset(struct track_record *r);
void track_record_release(struct track_record *r);
/* Append bytes to the record's text and return their view. */
struct track_text track_record_add_text(struct track_record *r, const char *p, size_t n);
/* A new zeroed frame at the end; valid until the next call. */
struct track_frame *track_record_add_frame(struct track_record *r);

static inline const char *
track_str(const struct track_record *r, struct track_text t)
{
	return r->text.buf + t.off;
}

/*
 * The record in ioclasscount's own layout for `layout`, starting with the
 * header line (no leading blank line), each line ending in '\n'. The
 * record's strings as read: the text --site, --ignore and suppressions match.
 */
void track_record_format(const struct track_record *r, enum track_layout layout,
			 struct strbuf *out);
/*
 * The same for showing: its strings (process, module, symbol, source) by
 * util/escape.h's rule, so a record without control bytes is byte for byte
 * track_record_format()'s.
 */
void track_record_format_shown(const struct track_record *r, enum track_layout layout,
			       struct strbuf *out);

/*
 * Add the record's bytes to a sum a report shows (util/bytes.h, checked):
 * 0, or -1 with DIAG_DATA at the record's line, "the WHAT passes 2^63
 * bytes; the capture is corrupt", and *sum unchanged.
 */
int track_record_add_bytes(const struct track_record *r, uint64_t *sum, const char *what,
			   const char *path, struct diag *err);

/* "IOKitTools-97", "IOKitTools-105", "IOKitTools-108+". */
const char *track_layout_name(enum track_layout l);

#endif
