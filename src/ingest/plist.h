#ifndef IOTALLY_INGEST_PLIST_H
#define IOTALLY_INGEST_PLIST_H

/*
 * A streaming reader for XML property lists (ioreg -a, kext-info dumps)
 * on top of libxml2's SAX2 push parser. It never builds a tree: it calls
 * back once per container start/end and once per scalar, so memory stays
 * flat however large the document is.
 *
 * Hostile input is refused, never followed: no network (XML_PARSE_NONET),
 * the DTD is never loaded, entities are never substituted, and a document
 * that declares or references any entity (other than the five predefined
 * ones and character references) is an error at that point, so an
 * external entity is never fetched and an entity bomb never expands.
 * Nesting deeper than `max_depth` containers is an error.
 *
 * libxml2 types stay inside plist.c.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/diag.h"
#include "util/linereader.h"

enum plist_event {
	PLIST_DICT_BEGIN,
	PLIST_DICT_END,
	PLIST_ARRAY_BEGIN,
	PLIST_ARRAY_END,
	PLIST_SCALAR,
};

enum plist_type {
	PLIST_STRING,
	PLIST_INTEGER,
	PLIST_REAL,
	PLIST_TRUE,
	PLIST_FALSE,
	PLIST_DATE,
	PLIST_DATA,
};

/* Valid only during the callback. */
struct plist_item {
	enum plist_event event;
	enum plist_type type;        /* for PLIST_SCALAR */
	const char *key;             /* key in the enclosing dict; NULL in an array or at the top */
	size_t keylen;
	const char *text;            /* scalar text, entities decoded, NUL-terminated */
	size_t textlen;
	size_t depth;                /* enclosing <dict>s and <array>s (0 for the top value) */
	uint64_t line;
};

/* Return 0 to go on, -1 (with *err set) to stop the parse with that error. */
typedef int (*plist_callback)(void *ctx, const struct plist_item *it, struct diag *err);

struct plist_opts {
	size_t max_depth;
	size_t max_text;             /* longest key or scalar text accepted */
};

/* "integer" etc. for messages. */
const char *plist_type_name(enum plist_type t);

/*
 * Parse the XML document read from `r` (lines are fed to libxml2 as read).
 * 0, or -1 with *err: malformed XML (file, line, column and libxml2's
 * reason), a document cut short (what was still open), an entity, an
 * element that is not plist vocabulary, or the callback's own error.
 */
int plist_read(struct line_reader *r, const struct plist_opts *opts,
	       plist_callback cb, void *ctx, struct diag *err);

#endif
