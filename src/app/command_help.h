#ifndef IOTALLY_APP_COMMAND_HELP_H
#define IOTALLY_APP_COMMAND_HELP_H

/*
 * The command table: every command's name, its line in `iotally --help`
 * and the text of `iotally help NAME` (the man page, docs/iotally.1, is
 * made from them). The commands of no kind are rows of
 * app/command_texts.c; the command of each kind comes from its registry
 * row (app/kind_command.h), so the table lists a new kind by its row
 * alone. cli/ runs a command by its id and prints these texts.
 */

#include <stddef.h>

#include "util/strbuf.h"

/* The commands of no kind; a kind's command is COMMAND_KIND (cli/cmd_kind.c runs it). */
enum command_id {
	COMMAND_CAPTURE,
	COMMAND_DIFF,
	COMMAND_RATE,
	COMMAND_REDACT,
	COMMAND_REPORT,
	COMMAND_SIGNATURES,
	COMMAND_TREND,
	COMMAND_KIND,
};

struct command_text {
	const char *name;
	enum command_id id;
	const char *summary;        /* one line for `iotally --help` */
	const char *help;           /* `iotally help NAME`, placeholders unexpanded */
};

/* The rows of the commands of no kind (app/command_texts.c), one per id below COMMAND_KIND. */
extern const struct command_text command_fixed[];
extern const size_t command_nfixed;

/*
 * Every command, sorted by name: the fixed ones and one per kind of the
 * registry. Made on the first call, which main() makes before any thread.
 */
size_t command_list(const struct command_text **v);
/* The command called `name`, or NULL. */
const struct command_text *command_find(const char *name);
/* The command whose name is nearest a mistyped `name` (util/suggest.h), or NULL. */
const struct command_text *command_nearest(const char *name);

/* What `iotally NAME ...` runs, from NAME alone: a command's name first, then what is on disk. */
enum command_route {
	ROUTE_COMMAND,              /* a command of the table */
	ROUTE_SESSION,              /* a tracking session, folder or archive: `iotally SESSION` */
	ROUTE_BUNDLE,               /* a capture bundle or series: `iotally BUNDLE` */
	ROUTE_INPUT,                /* a file, or '-': the command that reads its kind */
	ROUTE_UNKNOWN_OPTION,       /* an option before any command */
	ROUTE_NO_FILE,              /* names a file (it holds '/' or '.') that is not there */
	ROUTE_NO_COMMAND,           /* neither a command nor a file */
};
enum command_route command_route(const char *name);

/*
 * A help text with its placeholders ("{kinds or}", "{gate grammar}")
 * said from the registry rows (app/kind_text.h), appended to *out.
 */
void command_help_expand(struct strbuf *out, const char *text);
/* `iotally --help`: usage, common tasks, the command list, the shared rules. */
void command_main_help(struct strbuf *out);

#endif
