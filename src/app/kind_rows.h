#ifndef IOTALLY_APP_KIND_ROWS_H
#define IOTALLY_APP_KIND_ROWS_H

/*
 * Inside app/: the rows of the kind registry (each defined in its
 * app/kind_<name>.c, listed in app/kind.c) and what the adapters share.
 * Commands see only app/kind.h.
 */

#include <stdbool.h>

#include "app/kind.h"
#include "util/diag.h"

extern const struct kind kind_vmmap;
extern const struct kind kind_classes;
extern const struct kind kind_track;

/* Inputs that could be read only in part: said with the comparability warnings. */
void kind_note_partial(struct diag_list *w, const char *bpath, bool bpartial,
		       const char *apath, bool apartial);

#endif
