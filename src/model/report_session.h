#ifndef IOTALLY_MODEL_REPORT_SESSION_H
#define IOTALLY_MODEL_REPORT_SESSION_H

/*
 * A tracking session's evidence in the before/after report
 * (`iotally report SESSION`): the classes that grew beside the call sites
 * and potential leaks tracking charged to them (model/session_growth.h), as
 * a table of the IOKit classes section, and the largest such class in the
 * headline.
 */

#include "model/report.h"
#include "model/session_growth.h"

void report_add_session_growth(struct report *r, const struct session_growth *g);

#endif
