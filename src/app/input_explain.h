#ifndef IOTALLY_APP_INPUT_EXPLAIN_H
#define IOTALLY_APP_INPUT_EXPLAIN_H

/*
 * `iotally FILE|-` and every command's refusal of an input of another
 * kind: what the input is, recognised from its content (app/input.h),
 * never from its name.
 */

#include <stdbool.h>

#include "app/input.h"
#include "util/diag.h"
#include "util/strbuf.h"

/*
 * Recognise input `path` ("-": standard input) into *in. Standard input
 * is kept so that the command can read it again: a regular file is read
 * again from where it started; a pipe or terminal is first copied to an
 * unlinked file in $TMPDIR (util/spill.h), which then becomes standard
 * input. 0, or -1 with *err.
 */
int app_input_detect(const char *path, struct app_input *in, struct diag *err);

/*
 * After `command`'s parser refused a whole input (`err`: DIAG_DATA, no line
 * number; any DIAG_DATA error for another tool's report; NULL: no command
 * read it), what the input is and what reads it when that is known:
 * another command's capture ("'iotally vmmap' reads it"), iotally JSON
 * (only 'iotally diff' reads it), another tool's report (iotally does not
 * read it). The sentence appended to *msg and true; false when the
 * parser's own message says more.
 */
bool app_input_explain(const char *command, const struct app_input *in, const struct diag *err,
		       struct strbuf *msg);

#endif
