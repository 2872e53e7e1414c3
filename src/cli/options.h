#ifndef IOTALLY_CLI_OPTIONS_H
#define IOTALLY_CLI_OPTIONS_H

/*
 * A small, strict option parser shared by every subcommand: long options
 * (--name, --name=value, --name value), short options (-x, -x value),
 * "--" ends options, "-" is an operand (standard input). Options and
 * operands may be mixed. Errors are returned, never printed.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/diag.h"

struct cli_option {
	const char *long_name;  /* without "--" */
	char short_name;        /* 0 for none */
	bool has_arg;
	int id;                 /* returned for this option */
};

struct cli_parser {
	const struct cli_option *opts;
	size_t nopts;
	int argc;
	char **argv;
	int index;
	bool only_operands;
	const char *pending_short;  /* rest of a "-abc" cluster */
};

#define CLI_OPERAND 0
#define CLI_DONE -1
#define CLI_ERROR -2

void cli_parser_init(struct cli_parser *p, const struct cli_option *opts,
		     size_t nopts, int argc, char **argv);
/*
 * Next option id, CLI_OPERAND (with *arg = the operand), CLI_DONE, or
 * CLI_ERROR with a DIAG_USAGE message in *err. *arg is the option's value.
 */
int cli_next(struct cli_parser *p, const char **arg, struct diag *err);
/*
 * The last value of option `id` on a command line that did not parse (an
 * output every exit must write: diff's --junit), read past the errors; the
 * walk is bounded, since an error need not move it on. NULL when not given.
 */
const char *cli_find_value(const struct cli_option *opts, size_t nopts, int argc, char **argv,
			   int id);

/*
 * What a command does with one option (`id`, its value in `arg`) or operand
 * (`id` CLI_OPERAND, the operand in `arg`; `p` for cli_operands_add or
 * cli_check_extra_operand). 0, or -1 with a usage error in *err.
 */
typedef int cli_take_fn(void *ctx, struct cli_parser *p, int id, const char *arg,
			struct diag *err);

/*
 * The option loop of every command: walk argv with `opts`, handing each
 * option and operand to `take` in command-line order. The option `help_id`
 * stops the walk with *help set, so "--help" wins over what follows it. *p
 * is left for checks after the loop. 0, or -1 with *err set by the parser
 * (an unknown option, a missing value) or by `take`.
 */
int cli_parse(struct cli_parser *p, const struct cli_option *opts, size_t nopts,
	      int argc, char **argv, int help_id, bool *help, cli_take_fn *take,
	      void *ctx, struct diag *err);

/*
 * `value` as one of `names` (an option's keyword: --format, --by). Returns
 * its index, or -1 with "unknown WHAT 'value' (expected a, b or c)".
 */
int cli_choice(const char *what, const char *value, const char *const *names,
	       size_t n, struct diag *err);
/* A whole number of at least 1 (--top, --snapshot); -1 with a usage error. */
int cli_positive_count(const char *opt, const char *value, uint64_t *out,
		       struct diag *err);

/*
 * The one rule for extra operands: a command that reads one input refuses a
 * second one. `second` is an operand after the input that the command would
 * take as a name (a class, a tracking category; `what` says which, NULL when
 * the command takes no names). It is refused when it names an existing file
 * (any operand, when `what` is NULL), unless it came after "--", where names
 * are never checked. 0, or -1 with a usage error naming both operands.
 */
int cli_check_extra_operand(const struct cli_parser *p, const char *command,
			    const char *what, const char *input, const char *second,
			    struct diag *err);

#endif
