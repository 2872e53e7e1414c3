#ifndef IOTALLY_INGEST_IOCLASSCOUNT_TEXT_H
#define IOTALLY_INGEST_IOCLASSCOUNT_TEXT_H

/*
 * Saved `ioclasscount` / `ioalloccount` output: default listings
 * (`Name = N` lines), class-names lines (`A = 1, B = <no such class>`,
 * with the trailing ", " of pre-2009 builds) and ioalloccount lines
 * (`   Instance allocation = 0x0022c718 = 2225 K`).
 *
 * Consecutive output lines form one snapshot; a class name or an
 * allocation key seen again, a class-names line, or any other line
 * between them starts the next one (repeated runs pasted together).
 * Lines starting with '#' are comments (the corpus' source lines).
 */

#include <stdint.h>

#include "ingest/classes_common.h"
#include "model/classes.h"
#include "model/hierarchy.h"
#include "util/diag.h"
#include "util/linereader.h"

int ioclasscount_text_read(struct line_reader *r, struct classes_capture *cap,
			   const struct classes_read_opts *opts,
			   struct diag_list *warnings, struct diag *err);

/*
 * A count as printed: decimal, "-N" (2005-2008 builds), a 32-bit build's
 * 4294967295 or a 64-bit build's 18446744073709551615 for -1,
 * "?? (error reading/converting value)", or "<no such class>".
 * 0, or -1 when the text is none of those (or does not fit in 64 bits:
 * *overflow set).
 */
int ioclasscount_parse_value(const char *p, size_t n, int64_t *value,
			     enum class_count_state *state, bool *overflow);

#endif
