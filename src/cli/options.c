#include "cli/options.h"

#include "util/optval.h"
#include "util/size.h"
#include "util/strbuf.h"

#include <string.h>
#include <sys/stat.h>

void
cli_parser_init(struct cli_parser *p, const struct cli_option *opts,
		size_t nopts, int argc, char **argv)
{
	memset(p, 0, sizeof(*p));
	p->opts = opts;
	p->nopts = nopts;
	p->argc = argc;
	p->argv = argv;
	p->index = 1;
}

static const struct cli_option *
find_long(const struct cli_parser *p, const char *name, size_t len)
{
	for (size_t i = 0; i < p->nopts; i++) {
		const char *l = p->opts[i].long_name;
		if (l && strlen(l) == len && memcmp(l, name, len) == 0)
			return &p->opts[i];
	}
	return NULL;
}

static const struct cli_option *
find_short(const struct cli_parser *p, char c)
{
	for (size_t i = 0; i < p->nopts; i++)
		if (p->opts[i].short_name && p->opts[i].short_name == c)
			return &p->opts[i];
	return NULL;
}

static int
take_value(struct cli_parser *p, const char *shown, const char **arg,
	   struct diag *err)
{
	if (p->index >= p->argc)
		return diag_set(err, DIAG_USAGE, NULL, 0, 0,
				"option '%s' needs a value", shown);
	*arg = p->argv[p->index++];
	return 0;
}

static int
next_short(struct cli_parser *p, const char **arg, struct diag *err)
{
	char c = *p->pending_short++;
	const struct cli_option *o = find_short(p, c);
	char shown[3] = { '-', c, '\0' };
	if (!*p->pending_short)
		p->pending_short = NULL;
	if (!o) {
		diag_set(err, DIAG_USAGE, NULL, 0, 0, "unknown option '%s'", shown);
		return CLI_ERROR;
	}
	if (o->has_arg) {
		if (p->pending_short) {
			*arg = p->pending_short;
			p->pending_short = NULL;
		} else if (take_value(p, shown, arg, err) < 0) {
			return CLI_ERROR;
		}
	}
	return o->id;
}

int
cli_next(struct cli_parser *p, const char **arg, struct diag *err)
{
	*arg = NULL;
	if (p->pending_short)
		return next_short(p, arg, err);
	if (p->index >= p->argc)
		return CLI_DONE;
	const char *a = p->argv[p->index++];
	if (p->only_operands || a[0] != '-' || a[1] == '\0') {
		*arg = a;
		return CLI_OPERAND;
	}
	if (strcmp(a, "--") == 0) {
		p->only_operands = true;
		return cli_next(p, arg, err);
	}
	if (a[1] != '-') {
		p->pending_short = a + 1;
		return next_short(p, arg, err);
	}
	const char *name = a + 2;
	const char *eq = strchr(name, '=');
	size_t len = eq ? (size_t)(eq - name) : strlen(name);
	const struct cli_option *o = find_long(p, name, len);
	if (!o) {
		diag_set(err, DIAG_USAGE, NULL, 0, 0, "unknown option '--%.*s'",
			 (int)(len > 64 ? 64 : len), name);
		return CLI_ERROR;
	}
	if (!o->has_arg) {
		if (eq) {
			diag_set(err, DIAG_USAGE, NULL, 0, 0,
				 "option '--%s' takes no value", o->long_name);
			return CLI_ERROR;
		}
		return o->id;
	}
	if (eq) {
		*arg = eq + 1;
		return o->id;
	}
	if (p->index >= p->argc) {
		diag_set(err, DIAG_USAGE, NULL, 0, 0, "option '--%s' needs a value",
			 o->long_name);
		return CLI_ERROR;
	}
	*arg = p->argv[p->index++];
	return o->id;
}

int
cli_parse(struct cli_parser *p, const struct cli_option *opts, size_t nopts,
	  int argc, char **argv, int help_id, bool *help, cli_take_fn *take,
	  void *ctx, struct diag *err)
{
	const char *arg;
	int id;
	cli_parser_init(p, opts, nopts, argc, argv);
	while ((id = cli_next(p, &arg, err)) != CLI_DONE) {
		if (id == CLI_ERROR)
			return -1;
		if (id == help_id) {
			*help = true;
			return 0;
		}
		if (take(ctx, p, id, arg, err) < 0)
			return -1;
	}
	return 0;
}

int
cli_choice(const char *what, const char *value, const char *const *names,
	   size_t n, struct diag *err)
{
	return optval_choice(what, value, names, n, err);
}

int
cli_positive_count(const char *opt, const char *value, uint64_t *out,
		   struct diag *err)
{
	return optval_positive_count(opt, value, out, err);
}

int
cli_check_extra_operand(const struct cli_parser *p, const char *command,
			const char *what, const char *input, const char *second,
			struct diag *err)
{
	struct stat st;
	if (what && (p->only_operands || stat(second, &st) != 0))
		return 0;
	return diag_set(err, DIAG_USAGE, NULL, 0, 0,
			"'iotally %s' reads one input, got '%s' and '%s'%s%s%s: run it once "
			"per file, or compare two captures with 'iotally diff'%s",
			command, input, second, what ? " (a file, not a " : "",
			what ? what : "", what ? ")" : "",
			what ? "; a name that is also a file's name goes after '--'" : "");
}

const char *
cli_find_value(const struct cli_option *opts, size_t nopts, int argc, char **argv, int id)
{
	struct cli_parser p;
	struct diag ignored;
	const char *arg, *value = NULL;
	int got;

	cli_parser_init(&p, opts, nopts, argc, argv);
	for (int steps = 0; steps < 2 * argc + 2; steps++) {
		if ((got = cli_next(&p, &arg, &ignored)) == CLI_DONE)
			break;
		if (got == id)
			value = arg;
	}
	return value;
}
