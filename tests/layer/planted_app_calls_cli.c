/*
 * A planted layer violation, never linked into iotally: app/ printing
 * through cli/ (app/ returns results and diagnostics; only cli/ prints).
 * tests/link-check-planted.py links it whole with the app/ layer check's
 * own command and requires the link to fail with an undefined reference
 * to cli_msg, in every build type.
 */
#include "cli/msgs.h"

void planted_app_calls_cli(void);

void
planted_app_calls_cli(void)
{
	cli_msg(DIAG_NOTE, NULL, 0, "planted");
}
