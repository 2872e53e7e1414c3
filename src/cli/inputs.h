#ifndef IOTALLY_CLI_INPUTS_H
#define IOTALLY_CLI_INPUTS_H

/*
 * The one input path of the commands that read a capture (vmmap, classes,
 * track): operands become a list of sources, and every source is opened,
 * looked at (cli/dispatch.h), refused when empty and handed to the
 * command's reader the same way.
 *
 * An operand is a file or '-' (itself), or a folder: its captures in name
 * order (ingest/capture_dir.h; a bundle folder lists the captures its
 * manifest names), a bundle archive among them standing for its capture
 * of the command's kind. A capture bundle named as an operand was already
 * replaced by its capture (cli/bundle_args.h).
 *
 * Several sources are read one after the other: one that fails is said on
 * standard error (with its file and line) and the others are still read.
 * The exit status is the first error's (util/diag.h); when some of several
 * inputs failed, a closing warning says the results are partial.
 *
 * A struct cli_sources owns the paths it made and the bundles it opened
 * (their archive members stay mapped until cli_sources_release()).
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "cli/dispatch.h"
#include "util/diag.h"
#include "util/linereader.h"

struct bundle;

struct cli_source {
	const char *path;          /* what is opened and what messages name */
	bool in_folder;            /* listed from a folder: another kind is skipped */
	struct line_reader reader; /* open while the reader runs */
	struct cli_input in;       /* what the first bytes are */
	bool refused;              /* the reader sets it when its parser refused the input */
	bool failed_early;         /* the operand failed before opening: see error */
	struct diag error;
};

struct cli_sources {
	struct cli_source *v;
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
	int status;                /* the first error's exit status, 0 when none */
};

void cli_sources_init(struct cli_sources *s);
void cli_sources_release(struct cli_sources *s);

/*
 * Add one operand of command `kind` ("vmmap", "classes", "track"). A folder
 * that cannot be listed, or an archive in it without a capture of `kind`,
 * becomes a source that fails when its turn comes.
 */
void cli_sources_add_operand(struct cli_sources *s, const char *kind, const char *operand);

/*
 * Read a source whose reader is open and not empty (the reader prints its
 * warnings). 0; -1 with *err set: cli_sources_read_each() prints it (with
 * the usage line for DIAG_USAGE), or says what the input is when the
 * reader set src->refused and the message can say more; or an exit status
 * above 0 when the reader has printed its error itself.
 */
typedef int (*cli_source_read_fn)(void *ctx, struct cli_source *src, struct diag *err);
/* The row of a source that failed (--format ndjson): its path and the error as printed. */
typedef int (*cli_error_row_fn)(FILE *out, const char *path, const char *error);

/*
 * Read every source in order (max_line as line_reader_open() takes it);
 * each that fails gets its error row on standard output when error_row is
 * not NULL. Returns the first error's exit status, or 0.
 */
int cli_sources_read_each(struct cli_sources *s, const char *command, size_t max_line,
			  cli_source_read_fn read, cli_error_row_fn error_row, void *ctx);

/* Operands in command-line order, and whether each came after '--'. */
struct cli_operands {
	const char **v;
	bool *after_dashes;
	size_t n;
};

struct cli_parser;
void cli_operands_add(struct cli_operands *o, const struct cli_parser *p, const char *arg);
void cli_operands_release(struct cli_operands *o);

/*
 * Which operands are inputs. With `several` (--format ndjson) every one is,
 * added to `s`. Else the first is the one input (*path; a folder is a usage
 * error) and each other one a name of kind `what` (*names, *nnames; the
 * caller frees *names), refused when it names a file (options.h
 * cli_check_extra_operand(); what NULL: every second operand is refused).
 * 0, or -1 with *err set.
 */
int cli_operands_split(const struct cli_operands *o, struct cli_parser *p, const char *command,
		       const char *what, bool several, const char **path, const char ***names,
		       size_t *nnames, struct diag *err);

/* Every operand of `o` as sources of command `kind`. */
void cli_sources_add_operands(struct cli_sources *s, const char *kind,
			      const struct cli_operands *o);

/* A folder given to a format that reads one input: the usage error. -1. */
int cli_folder_needs_ndjson(const char *path, struct diag *err);

/* Is `path` a folder (of captures), as opposed to a file, '-' or a bundle archive? */
bool cli_operand_is_folder(const char *path);

#endif
