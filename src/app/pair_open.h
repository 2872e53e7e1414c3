#ifndef IOTALLY_APP_PAIR_OPEN_H
#define IOTALLY_APP_PAIR_OPEN_H

/*
 * Two captures opened and compared, the one way every command that
 * compares a pair does it (diff, report, signatures): each input opened
 * and recognised (kind_open()), the pair refused when the two are not of
 * one kind, the options checked against the kind's row, and the kind's
 * compare hook run. The inputs stay open with the diff until
 * pair_open_close(), since a kind's diff may point into what it read.
 */

#include <stdbool.h>

#include "app/kind.h"
#include "model/diff.h"
#include "util/diag.h"

struct pair_open_opts {
	/* "diff": the command named in what kind_open() says of an input it does not take. */
	const char *command;
	/* "a diff needs": how the refusal of two kinds ends ("... two captures of the same kind"). */
	const char *needs;
	struct diff_options opts;
	unsigned given;        /* enum kind_option bits given on the command line */
	/*
	 * An option the kind does not take: false, a DIAG_USAGE error; true,
	 * left out for this pair (a folder's pairs: an option applies to the
	 * kinds that take it).
	 */
	bool lenient;
	/* The kind both must be (a bundle's manifest says it), or NULL: any one kind. */
	const struct kind *expect;
};

struct pair_open {
	struct kind_input in[2];   /* BEFORE and AFTER */
	const struct kind *kind;   /* both sides' kind, once both are recognised */
	void *diff;                /* the kind's compare result; NULL until compared */
};

/* An empty pair: nothing open (pair_open_close() of it does nothing). */
void pair_open_init(struct pair_open *p);

/*
 * Open BEFORE and AFTER, check they are one kind (and `o->expect`, when
 * set) and compare them; the compare hook's notes go to `notes`. 0 with
 * p->kind and p->diff; -1 with *err (DIAG_DATA for two kinds or an input
 * of none, DIAG_USAGE for an option the kind refuses, the reader's or the
 * kind's own otherwise). Either way the caller calls pair_open_close().
 */
int pair_open_compare(struct pair_open *p, const char *before, const char *after,
		      const struct pair_open_opts *o, struct diag_list *notes, struct diag *err);

/* Close both inputs and free the diff; `p` is empty again. */
void pair_open_close(struct pair_open *p);

#endif
