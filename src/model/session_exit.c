/*
 * The exit status of `capture --session` (model/session_exit.h).
 */

#include "model/session_exit.h"

#include "util/diag.h"

int
session_exit_status(const struct session_end *e)
{
	if (e->tracking_maybe_on)
		return DIAG_UNAVAILABLE;
	if (e->failed)
		return e->error ? e->error : DIAG_SOFTWARE;   /* a failure is never 0 */
	return e->complete ? 0 : DIAG_UNAVAILABLE;
}
