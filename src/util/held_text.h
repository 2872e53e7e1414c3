#ifndef IOTALLY_UTIL_HELD_TEXT_H
#define IOTALLY_UTIL_HELD_TEXT_H

/*
 * Text held back to be printed later, in the order it was added, with
 * memory that does not grow with it: past a small buffer it goes to an
 * unlinked temporary file (util/spill.h).
 *
 * A command that writes each dump as it closes still prints its notes
 * about every dump after the warnings of the whole input, as it did when
 * it read the whole input first: the notes wait here.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "util/spill.h"
#include "util/strbuf.h"

struct held_text {
	struct strbuf buf;    /* not yet in the file */
	struct spill file;
	bool file_open;
	bool file_failed;     /* no temporary file: the text stays in memory */
	uint64_t spilled;     /* bytes in the file */
};

void held_text_init(struct held_text *h);
void held_text_add(struct held_text *h, const char *p, size_t n);
/*
 * Print everything held to `out` and empty the store. 0, or -1 with
 * DIAG_IOERR in *err when the temporary file cannot be read back.
 */
int held_text_flush(struct held_text *h, FILE *out, struct diag *err);
void held_text_release(struct held_text *h);

#endif
