#ifndef IOTALLY_APP_KIND_ROWS_H
#define IOTALLY_APP_KIND_ROWS_H

/*
 * Inside app/: what the kinds' adapters (app/kind_<name>.c) share.
 * Commands see only app/kind.h.
 */

#include <stdbool.h>

#include "app/kind.h"
#include "util/diag.h"

/* Inputs that could be read only in part: said with the comparability warnings. */
void kind_note_partial(struct diag_list *w, const char *bpath, bool bpartial,
		       const char *apath, bool apartial);

#endif
