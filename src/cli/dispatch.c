/*
 * `iotally FILE|- [options]`: recognise a capture from its content and run
 * the command that reads it, as if that command had been named.
 */

#include "cli/dispatch.h"

#include "cli/commands.h"
#include "app/input_explain.h"
#include "app/sources_read.h"
#include "cli/msgs.h"
#include "ingest/detect.h"
#include "util/diag.h"
#include "util/strbuf.h"

#include <stdio.h>
#include <string.h>

bool
cli_refuse_empty(const char *command, const char *path, const struct app_input *in)
{
	if (!in->empty)
		return false;
	app_say_empty(stderr, command, path);
	return true;
}

bool
cli_explain_input(const char *command, const char *path, const struct app_input *in,
		  const struct diag *err)
{
	struct strbuf msg = STRBUF_INIT;
	bool said = app_input_explain(command, in, err, &msg);
	if (said)
		cli_error(path, 0, "%s", msg.buf);
	strbuf_release(&msg);
	return said;
}

int
cli_run_for_input(int argc, char **argv)
{
	struct diag err;
	struct app_input in;

	if (app_input_detect(argv[1], &in, &err) < 0) {
		cli_print_diag(&err);
		return err.code;
	}
	enum input_kind kind = in.kind;
	if (cli_refuse_empty(NULL, argv[1], &in))
		return DIAG_DATA;
	const char *name = in.foreign == FOREIGN_NONE ? app_command_for_kind(kind) : NULL;
	/* iotally's JSON of one capture: the report of it (`iotally report FILE.json`). */
	if (!name && app_input_is_kind_json(&in))
		name = "report";
	if (!name && cli_explain_input(NULL, argv[1], &in, NULL))
		return DIAG_DATA;
	if (name) {
		const struct command *cmd = cli_find_command(name);
		/* argv becomes "COMMAND FILE options...": operands may come first. */
		argv[0] = (char *)cmd->name;
		return cmd->run(argc, argv);
	}
	cli_error(argv[1], 0, "cannot tell which command reads this file: it looks like %s; "
		  "name the command (iotally --help lists them)", input_kind_describe(kind));
	return DIAG_DATA;
}
