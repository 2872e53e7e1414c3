#ifndef IOTALLY_REPORT_SESSION_GROWTH_TEXT_H
#define IOTALLY_REPORT_SESSION_GROWTH_TEXT_H

/*
 * The section of a tracking session's evidence (model/session_growth.h):
 * each class that grew with the call sites and potential leaks charged to
 * it, as text or Markdown (report/texttable.h escapes every name). Exact
 * figures: bytes and counts as integers, the delta signed. Nothing when
 * there is no row.
 */

#include <stdbool.h>
#include <stdio.h>

#include "model/session_growth.h"

#define SESSION_GROWTH_TITLE "Classes that grew, beside the call sites tracking charged to them"

void session_growth_write(FILE *out, const struct session_growth *g, bool markdown);

#endif
