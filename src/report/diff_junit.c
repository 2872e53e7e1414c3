/*
 * The gates of a diff run as JUnit XML (report/junit.c writes the document):
 * one suite per pair, one for what belongs to no pair.
 */

#include "report/diff_report.h"

#include "report/junit.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#include <stdlib.h>

/*
 * The strings of one suite's cases: its classname, then each case's name
 * and message (a gate's figures; an error's or a skip's message is the
 * caller's).
 */
struct suite_strs {
	struct strbuf classname;
	struct strbuf *names, *messages;
	size_t n;
};

/*
 * A case's name: the gate or what went wrong, after the pair it belongs
 * to ("app-vmmap.txt: vmmap:gpu.dirty > +256M"), so that classname + name,
 * which dashboards key a case on, differ between pairs of one kind.
 */
static const char *
case_name(struct strbuf *sb, const char *pair, const char *what)
{
	if (pair)
		strbuf_addf(sb, "%s: ", pair);
	strbuf_addstr(sb, what);
	return sb->buf;
}

static void
suite_cases(const struct diff_junit_suite *su, struct junit_case *cases, struct suite_strs *s)
{
	strbuf_addstr(&s->classname, "iotally.diff");
	if (su->kind)
		strbuf_addf(&s->classname, ".%s", su->kind);
	for (size_t i = 0; i < su->ngates; i++) {
		const struct diff_gate *g = &su->gates[i];
		diff_gate_describe(g, &s->messages[i]);
		cases[i] = (struct junit_case){ s->classname.buf,
						case_name(&s->names[i], su->pair, g->text),
						g->tripped, s->messages[i].buf,
						g->unevaluable ? JUNIT_SKIPPED : JUNIT_CHECKED };
	}
	for (size_t i = 0; i < su->ncases; i++) {
		const struct diff_junit_case *c = &su->cases[i];
		size_t k = su->ngates + i;
		cases[k] = (struct junit_case){
			s->classname.buf, case_name(&s->names[k], su->pair, c->name), false,
			c->message, c->outcome == DIFF_JUNIT_ERROR ? JUNIT_ERROR : JUNIT_SKIPPED };
	}
}

static void
suite_strs_init(struct suite_strs *s, size_t n)
{
	strbuf_init(&s->classname);
	s->n = n;
	s->names = xcalloc(n ? n : 1, sizeof(*s->names));
	s->messages = xcalloc(n ? n : 1, sizeof(*s->messages));
	for (size_t i = 0; i < n; i++) {
		strbuf_init(&s->names[i]);
		strbuf_init(&s->messages[i]);
	}
}

static void
suite_strs_release(struct suite_strs *s)
{
	strbuf_release(&s->classname);
	for (size_t i = 0; i < s->n; i++) {
		strbuf_release(&s->names[i]);
		strbuf_release(&s->messages[i]);
	}
	free(s->names);
	free(s->messages);
}

int
diff_junit_write(FILE *out, const struct diff_junit_suite *suites, size_t nsuites,
		 struct diag *err)
{
	struct junit_suite *js = xcalloc(nsuites ? nsuites : 1, sizeof(*js));
	struct suite_strs *strs = xcalloc(nsuites ? nsuites : 1, sizeof(*strs));
	for (size_t i = 0; i < nsuites; i++) {
		const struct diff_junit_suite *su = &suites[i];
		size_t n = su->ngates + su->ncases;
		struct junit_case *cases = xcalloc(n ? n : 1, sizeof(*cases));
		suite_strs_init(&strs[i], n);
		suite_cases(su, cases, &strs[i]);
		js[i] = (struct junit_suite){ su->name, cases, n };
	}
	int rc = junit_write_suites(out, js, nsuites, err);
	for (size_t i = 0; i < nsuites; i++) {
		suite_strs_release(&strs[i]);
		free((struct junit_case *)js[i].cases);
	}
	free(strs);
	free(js);
	return rc;
}
