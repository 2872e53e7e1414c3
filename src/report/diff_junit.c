/*
 * The gates of a diff as JUnit XML (report/junit.c writes the document).
 */

#include "report/diff_report.h"

#include "report/junit.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#include <stdlib.h>

int
diff_junit_write(FILE *out, const struct diff_report *r, struct diag *err)
{
	size_t n = r->ngates;
	struct junit_case *cases = xcalloc(n ? n : 1, sizeof(*cases));
	struct strbuf *msgs = xcalloc(n ? n : 1, sizeof(*msgs));
	struct strbuf cls = STRBUF_INIT, suite = STRBUF_INIT;
	strbuf_addf(&cls, "iotally.diff.%s", r->kind);
	strbuf_addf(&suite, "iotally diff %s %s", r->before_path, r->after_path);
	for (size_t i = 0; i < n; i++) {
		strbuf_init(&msgs[i]);
		diff_gate_describe(&r->gates[i], &msgs[i]);
		cases[i] = (struct junit_case){ cls.buf, r->gates[i].text, r->gates[i].tripped,
						msgs[i].buf };
	}
	int rc = junit_write(out, suite.buf, cases, n, err);
	for (size_t i = 0; i < n; i++)
		strbuf_release(&msgs[i]);
	strbuf_release(&cls);
	strbuf_release(&suite);
	free(msgs);
	free(cases);
	return rc;
}
