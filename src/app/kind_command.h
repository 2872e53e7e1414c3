#ifndef IOTALLY_APP_KIND_COMMAND_H
#define IOTALLY_APP_KIND_COMMAND_H

/*
 * A kind's own command (`iotally vmmap FILE`, `iotally classes FILE ...`):
 * what cli/cmd_kind.c needs to run it from the kind's row (app/kind.h
 * `command`). cli/ parses the options of the row's table, handing the
 * kind's own ones to `take`, checks --format against `formats`, splits the
 * operands (one input and the names after it, or with --format ndjson
 * every operand an input), and reads each input through `read`, which
 * reads one capture, selects what the options ask for and writes it in
 * the chosen format. A new kind is its row: no command file, no table
 * entry and no message in cli/ names it.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "report/ndjson.h"
#include "util/output_format.h"
#include "util/diag.h"

struct app_source;
struct report;

/* The options every kind's command shares: cli/ handles them. */
enum {
	KIND_OPT_FORMAT = 100,
	KIND_OPT_JOBS,
	KIND_OPT_HELP,
};

/* One option, as cli/options.h's parser takes it (ids below 100 are the kind's). */
struct kind_command_option {
	const char *long_name;      /* without "--" */
	char short_name;            /* 0 for none */
	bool has_arg;
	int id;
};

/* What cli/ parsed for every kind. */
struct kind_command_args {
	enum output_format format;
	const char *path;           /* the one input; NULL with --format ndjson */
	const char **names;         /* operands after it (`names_what`) */
	size_t nnames;
};

/* Where a command's reading of one input writes. */
struct kind_io {
	FILE *out;                  /* the report: standard output, or the input's buffer (-j N) */
	FILE *err;                  /* diagnostics, util/diag_write.h */
	/*
	 * Say an input's failure as every command says it (the usage line of
	 * a usage error, what the input is when the reader refused it whole);
	 * returns the exit status.
	 */
	int (*say_failure)(const char *command, const struct app_source *src,
			   const struct diag *err);
};

/* The row of an input that failed (--format ndjson). */
typedef int (*kind_error_row_fn)(FILE *out, const struct ndjson_source *src, const char *error);

struct kind_command {
	const char *summary;        /* one line for `iotally --help` */
	const char *help;           /* `iotally help NAME` */
	const struct kind_command_option *options;   /* every option, --help included */
	size_t noptions;
	unsigned formats;           /* FORMAT_BIT of each format it writes */
	const char *no_input;       /* "a vmmap dump file, or '-' for standard input" */
	const char *names_what;     /* "class name": operands after FILE; NULL: none */
	/* Why an empty input holds nothing, after "the input is empty" (or NULL). */
	const char *empty_why;
	kind_error_row_fn error_row;   /* --format ndjson */
	/* The kind's options: opts_size bytes, zeroed, then `init`. */
	size_t opts_size;
	void (*init)(void *opts);
	/* One of the kind's options. 0, or -1 with a usage error. */
	int (*take)(void *opts, int id, const char *arg, struct diag *err);
	/* The options and operands together, once parsed. 0, or -1 with a usage error. */
	int (*check)(void *opts, const struct kind_command_args *a, struct diag *err);
	/*
	 * What every input is read with (patterns compiled, a suppressions file
	 * read), before the first. NULL, or 0; -1 with *err (DIAG_USAGE: a usage
	 * error).
	 */
	int (*prepare)(void *opts, const struct kind_command_args *a, struct diag *err);
	/*
	 * Read one input whose reader is open, select, write: the contract of
	 * app/sources_read.h `read` (0; -1 with *err; or an exit status
	 * already said). It runs on a worker thread beside other inputs with
	 * -j N: it changes nothing in `opts`.
	 */
	int (*read)(const void *opts, const struct kind_command_args *a, struct app_source *src,
		    const struct kind_io *io, struct diag *err);
	void (*release)(void *opts);
};

/* The source, side and pair of an input's rows (report/ndjson.h). */
struct ndjson_source kind_ndjson_source(const struct app_source *src);
/* "Input" PATH and the iotally version: the provenance of a report of one input. */
void kind_report_provenance(struct report *r, const char *const *paths, size_t npaths);
/* The closing lines of a one-capture command's --help: its exit statuses. */
#define KIND_COMMAND_EXIT_HELP \
	"Exit status: 0 success, 64 usage error, 65 malformed input, 66 input\n" \
	"cannot be opened, 74 output cannot be written; with several inputs, the\n" \
	"first error's.\n"

/* After a capture was written whose reading was partial: said once, on io->err. */
void kind_command_said_partial(const struct kind_io *io, const struct app_source *src);
/* The report as Markdown on io->out: 0, or 74 after saying why not. */
int kind_report_write_markdown(const struct kind_io *io, const struct report *r);

#endif
