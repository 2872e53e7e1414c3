#ifndef IOTALLY_APP_KIND_TEXT_H
#define IOTALLY_APP_KIND_TEXT_H

/*
 * The kinds in sentences: messages and help texts that list the kinds
 * build the list from the registry rows (app/kind.h) when they are said,
 * so a new kind is listed by its row alone and no text names a kind by
 * hand (tools/kind-check.py).
 */

#include <stdbool.h>

#include "app/kind.h"
#include "util/strbuf.h"

/* Which rows a list takes. */
enum kind_pick {
	KIND_PICK_ALL,        /* every kind */
	KIND_PICK_READ_BACK,  /* its JSON is read back (a schema) */
	KIND_PICK_TARGET,     /* capture records a target process with it */
};

/*
 * The names of the picked kinds in registry order, joined by `sep` and
 * the last two by `last`: "vmmap, classes, track or footprint".
 */
void kind_names_join(struct strbuf *sb, enum kind_pick pick, const char *sep, const char *last);

/*
 * `text` with each placeholder replaced by what the rows say, appended to
 * *out: "{kinds}" "vmmap, classes, track, footprint", "{kinds or}" and
 * "{kinds and}" the same with "or"/"and" before the last, "{target kinds}"
 * the kinds capture records of a target process, "{read-back kinds and}"
 * the kinds whose JSON is read back, "{gate grammar}" each kind's gate
 * metrics, a line each
 * (indented by two, wrapped at 76 columns). Other text is copied as it is.
 */
void kind_text_expand(struct strbuf *out, const char *text);

#endif
