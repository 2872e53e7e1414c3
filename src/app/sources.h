#ifndef IOTALLY_APP_SOURCES_H
#define IOTALLY_APP_SOURCES_H

/*
 * The inputs of a command that reads captures (vmmap, classes, track):
 * operands expanded into sources. An operand is a file or '-' (itself), or
 * a folder: its captures in name order (ingest/capture_dir.h; a bundle
 * folder lists the captures its manifest names), a bundle archive among
 * them standing for its capture of the command's kind. A capture bundle
 * named as an operand was already replaced by its capture
 * (app/bundle_inputs.h).
 *
 * A struct app_sources owns the paths it made and the bundles it opened
 * (their archive members stay mapped until app_sources_release()).
 * Nothing here prints: a source that cannot be read keeps its error, and
 * app/sources_read.h says it when the source's turn comes.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "app/input.h"
#include "util/diag.h"
#include "util/linereader.h"

struct bundle;

struct app_source {
	const char *path;          /* what is opened and what messages name */
	bool in_folder;            /* listed from a folder: another kind is skipped */
	size_t operand;            /* the operand it came from, from 0 */
	/* "before" for the first of exactly two operands, "after" for the
	 * second, NULL otherwise (app_sources_add_operand() sets it). */
	const char *side;
	/* Its name in its folder operand, as `iotally diff` pairs folders'
	 * files ("app-vmmap.txt"); NULL for a file operand. */
	const char *pair;
	struct line_reader reader; /* open while the reader runs */
	struct app_input in;       /* what the first bytes are */
	bool refused;              /* the reader sets it when its parser refused the input */
	bool failed_early;         /* the operand failed before opening: see error */
	struct diag error;
};

struct app_sources {
	struct app_source *v;
	size_t n, alloc;
	char **owned;              /* paths made from folders */
	size_t nowned, owned_alloc;
	struct bundle **bundles;   /* archives in folders, kept open */
	size_t nbundles, bundles_alloc;
	size_t nother_kind;        /* folder captures of another kind, not read */
	size_t nnot_captured;      /* bundle archives in folders whose step of this
				    * kind was skipped (or never ran), not read */
	size_t nskipped_dirs;      /* subfolders of folders, not read */
	size_t nfailed;            /* operands and sources that could not be read */
	size_t noperands;          /* operands added so far */
	int status;                /* the first error's exit status, 0 when none */
	unsigned jobs;             /* sources read at once (-j N; app/parallel.h): 0 is one
				    * per processor, 1 one after the other */
};

void app_sources_init(struct app_sources *s);
void app_sources_release(struct app_sources *s);

/*
 * Add one operand of command `kind` ("vmmap", "classes", "track"). A folder
 * that cannot be listed, or an archive in it without a capture of `kind`,
 * becomes a source that fails when its turn comes. What checking a
 * bundle's captures against its manifest found goes to `warnings`.
 */
void app_sources_add_operand(struct app_sources *s, const char *kind, const char *operand,
			     struct diag_list *warnings);

/*
 * Open source `src` of command `command` and look at it (max_line as
 * line_reader_open() takes it). 0 when it is to be read; 1 when it is to be
 * skipped (listed from a folder, of another command's kind: the caller
 * counts it in nother_kind); -1 with *err set, or with src->in.empty set
 * for an empty input (no *err: each command words that refusal). It
 * touches `src` only, so sources open on several threads at once.
 */
int app_source_open(const char *command, size_t max_line, struct app_source *src,
		    struct diag *err);

/* Is `path` a folder (of captures), as opposed to a file, '-' or a bundle archive? */
bool app_operand_is_folder(const char *path);


#endif
