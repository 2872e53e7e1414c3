/*
 * The gates of a diff run as JUnit XML (report/junit.c writes the document):
 * one suite per pair, one for what belongs to no pair.
 */

#include "report/diff_report.h"

#include "report/junit.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#include <stdlib.h>

/* The cases of one suite; their strings go to `strs` (freed by the caller). */
static void
suite_cases(const struct diff_junit_suite *su, struct junit_case *cases, struct strbuf *strs)
{
	strbuf_addstr(&strs[0], "iotally.diff");
	if (su->kind)
		strbuf_addf(&strs[0], ".%s", su->kind);
	for (size_t i = 0; i < su->ngates; i++) {
		const struct diff_gate *g = &su->gates[i];
		diff_gate_describe(g, &strs[1 + i]);
		cases[i] = (struct junit_case){ strs[0].buf, g->text, g->tripped, strs[1 + i].buf,
						g->unevaluable ? JUNIT_SKIPPED : JUNIT_CHECKED };
	}
	for (size_t i = 0; i < su->ncases; i++) {
		const struct diff_junit_case *c = &su->cases[i];
		cases[su->ngates + i] = (struct junit_case){
			strs[0].buf, c->name, false, c->message,
			c->outcome == DIFF_JUNIT_ERROR ? JUNIT_ERROR : JUNIT_SKIPPED };
	}
}

int
diff_junit_write(FILE *out, const struct diff_junit_suite *suites, size_t nsuites,
		 struct diag *err)
{
	struct junit_suite *js = xcalloc(nsuites ? nsuites : 1, sizeof(*js));
	struct strbuf **strs = xcalloc(nsuites ? nsuites : 1, sizeof(*strs));
	for (size_t i = 0; i < nsuites; i++) {
		const struct diff_junit_suite *su = &suites[i];
		size_t n = su->ngates + su->ncases;
		struct junit_case *cases = xcalloc(n ? n : 1, sizeof(*cases));
		strs[i] = xcalloc(su->ngates + 1, sizeof(**strs));
		for (size_t j = 0; j <= su->ngates; j++)
			strbuf_init(&strs[i][j]);
		suite_cases(su, cases, strs[i]);
		js[i] = (struct junit_suite){ su->name, cases, n };
	}
	int rc = junit_write_suites(out, js, nsuites, err);
	for (size_t i = 0; i < nsuites; i++) {
		for (size_t j = 0; j <= suites[i].ngates; j++)
			strbuf_release(&strs[i][j]);
		free(strs[i]);
		free((struct junit_case *)js[i].cases);
	}
	free(strs);
	free(js);
	return rc;
}
