/*
 * One `iotally diff` run (app/diff_run.h): its pairs compared, their gates
 * checked, what belongs to no pair found, and the exit status chosen.
 * Nothing here prints: the run says what it finds through run->say.
 */

#include "app/diff_run.h"

#include "app/kernel_view.h"
#include "app/signature_inputs.h"
#include "ingest/bundle.h"
#include "report/diff_ndjson_write.h"
#include "report/report_tables_write.h"
#include "util/array.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void
diff_run_init(struct diff_run *run, const struct diff_run_opts *o,
	      const struct diff_run_say *say)
{
	memset(run, 0, sizeof(*run));
	run->o = o;
	run->say = *say;
}

/* A message of the run, said through the caller. */
static void
say_msg(const struct diff_run *run, enum diag_severity sev, const char *path, const char *fmt,
	...) __attribute__((format(printf, 4, 5)));

static void
say_msg(const struct diff_run *run, enum diag_severity sev, const char *path, const char *fmt,
	...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	run->say.msg(run->say.ctx, sev, path, sb.buf);
	strbuf_release(&sb);
}

void
diff_run_add_case(struct diff_run *run, const char *name, enum diff_junit_outcome outcome,
		  const char *message)
{
	run->cases = xgrow(run->cases, &run->cases_alloc, run->ncases + 1, sizeof(*run->cases));
	run->cases[run->ncases].name = xstrdup(name);
	run->cases[run->ncases].outcome = outcome;
	run->cases[run->ncases].message = xstrdup(message);
	run->ncases++;
}

void
diff_run_error(struct diff_run *run, const char *name, const struct diag *err, bool usage)
{
	run->say.diag(run->say.ctx, err, usage);
	char *line = diag_line(err);
	diff_run_add_case(run, name, DIFF_JUNIT_ERROR, line);
	free(line);
	if (!run->status)
		run->status = err->code ? err->code : DIAG_SOFTWARE;
}

/*
 * A finding that is an error with --strict (DIAG_DATA, the run's, named
 * `name`) and otherwise said with severity `sev` and, when `skipped`,
 * kept as a skipped JUnit case named `name`.
 */
static void
strict_or_say(struct diff_run *run, struct diag *d, enum diag_severity sev, const char *name,
	      bool skipped)
{
	if (run->o->strict) {
		d->code = DIAG_DATA;
		d->severity = DIAG_ERROR;
		diff_run_error(run, name, d, false);
		return;
	}
	d->severity = sev;
	run->say.diag(run->say.ctx, d, false);
	if (skipped)
		diff_run_add_case(run, name, DIFF_JUNIT_SKIPPED, d->msg);
}

int
diff_run_check_gate_kinds(const struct diff_gate *gates, size_t n, struct diag *err)
{
	for (size_t i = 0; i < n; i++) {
		if (kind_for_metric(gates[i].kind))
			continue;
		/* The metric kinds there are, from the registry: "vmmap, classes, ... or footprint". */
		const char *names[KINDS_MAX * 3];
		size_t nn = 0;
		for (const struct kind *k = kind_first(); k; k = kind_next(k))
			for (size_t j = 0; j < ARRAY_SIZE(k->metric_kinds) && k->metric_kinds[j]; j++)
				if (nn < ARRAY_SIZE(names))
					names[nn++] = k->metric_kinds[j];
		struct strbuf sb = STRBUF_INIT;
		for (size_t j = 0; j < nn; j++)
			strbuf_addf(&sb, "%s%s", j == 0 ? "" : j + 1 == nn ? " or " : ", ", names[j]);
		diag_set(err, DIAG_USAGE, NULL, 0, 0, "gate '%s': unknown metric kind '%s' (%s)",
			 gates[i].text, gates[i].kind, sb.buf);
		strbuf_release(&sb);
		return -1;
	}
	return 0;
}

int
diff_run_check_folder_output(const struct diff_run *run, bool json, bool folded,
			     struct diag *err)
{
	if (!run->pairs.folders)
		return 0;
	if (json)
		return diag_set(err, DIAG_USAGE, NULL, 0, 0,
				"--format json describes one pair: with folders, use text or "
				"markdown (and --junit for the gates)");
	if (folded)
		return diag_set(err, DIAG_USAGE, NULL, 0, 0,
				"--folded describes one pair of track captures: give two files");
	return 0;
}

void
diff_run_start_pairs(struct diff_run *run)
{
	size_t n = run->pairs.npairs;
	run->results = xcalloc(n ? n : 1, sizeof(*run->results));
}

/*
 * The pair's copies of the gates of its kind, checked against its figures.
 * A gate that cannot be checked is left out of the pair's gates and kept as
 * its gate error: a wrong gate is the gates' fault, not the captures', so
 * the pair is still compared and its tables written.
 */
static void
resolve_gates(const struct diff_run_opts *o, struct diff_pair_result *res, const void *diff)
{
	const struct kind *kind = res->kind;
	res->gates = xcalloc(o->ngates ? o->ngates : 1, sizeof(*res->gates));
	for (size_t i = 0; i < o->ngates; i++) {
		if (!kind_has_metric(kind, o->gates[i].kind))
			continue;
		struct diff_gate *g = &res->gates[res->ngates++];
		struct diag err;
		diag_clear(&err);
		diff_gate_copy(g, &o->gates[i]);
		if (kind_resolve_gate(kind, diff, g, &err) == 0)
			continue;
		if (!res->gate_error) {
			/* Said as the gate's error: the severity goes in front of that. */
			char *line = diag_line(&err);
			const char *sev = "error: ";
			size_t skip = strncmp(line, sev, strlen(sev)) == 0 ? strlen(sev) : 0;
			struct strbuf sb = STRBUF_INIT;
			strbuf_addf(&sb, "gate '%s' cannot be checked: %s", g->text, line + skip);
			res->gate_error = strbuf_detach(&sb, NULL);
			res->gate_error_text = xstrdup(g->text);
			free(line);
		}
		diff_gate_release(g);
		res->ngates--;
	}
}

/*
 * Bundles: each side's allocation totals from its own source of totals
 * (kernel_view_pair_totals, as `report` of the bundles), joined to the
 * kernel view's pair by the kind that has such totals. One that cannot be
 * read is a warning: the pair keeps its references' own totals.
 */
static void
join_kernel_totals(const struct diff_pair *pair, struct diff_pair_out *out)
{
	const struct kind *k = out->p.kind;
	struct diag err;
	diag_clear(&err);
	if (!pair->totals[0] || !k->join_totals)
		return;
	if (k->join_totals(out->p.diff, pair->counts, pair->totals, &out->notes, &err) < 0)
		diag_list_add(&out->warnings, DIAG_WARNING, diag_path(&err), err.line,
			      "its allocation totals are left out of the kernel view: %s", err.msg);
}

int
diff_run_compare_pair(const struct diff_run *run, size_t i, struct diff_pair_out *out,
		      struct diag *err)
{
	const struct diff_run_opts *o = run->o;
	const struct diff_pair *pair = &run->pairs.pairs[i];
	struct diff_pair_result *res = &run->results[i];
	const struct pair_open_opts po = { .command = "diff", .needs = "a diff needs",
					   .opts = o->opts, .given = o->given,
					   .lenient = run->pairs.folders };
	memset(out, 0, sizeof(*out));
	pair_open_init(&out->p);
	diag_list_init(&out->notes, 200);
	diag_list_init(&out->warnings, 50);
	signature_init(&out->sig);
	if (pair_open_compare(&out->p, pair->before, pair->after, &po, &out->notes, err) < 0)
		return -1;
	const struct kind *kind = out->p.kind;
	const void *diff = out->p.diff;
	join_kernel_totals(pair, out);
	res->kind = kind;
	kind->comparability(diff, pair->before, pair->after, &out->warnings);
	/* In folders, a warning about the pair (another kernel build, another
	 * process) says which pair: its name stands where a file would. */
	diag_list_set_path_if_unset(&out->warnings, pair->name);
	resolve_gates(o, res, diff);
	signature_release(&out->sig);
	signature_of_diff(kind, diff, &out->sig);
	out->rep = (struct diff_report){
		.kind = kind->name,
		.before_path = pair->before,
		.after_path = pair->after,
		.warnings = &out->warnings,
		.gates = res->gates,
		.ngates = res->ngates,
		.changed = kind->changed(diff),
		.sig = &out->sig,
		.rounded_member = kind->rounded_member,
	};
	/* A bundle side's allocation totals joined from another file: their rows name it. */
	const char *paths[2] = { pair->before, pair->after };
	if (pair->totals[0] && kind->totals_files)
		kind->totals_files(diff, paths, &out->rep.files);
	return 0;
}

/*
 * The pair's tables as text or Markdown: the tables of the kind's pair
 * report (its `report` hook), so that diff and report show the same rows.
 */
static void
write_tables(FILE *out, const struct kind *kind, const void *diff, bool markdown)
{
	if (!kind->changed(diff))
		fputs("No change in the figures.\n\n", out);
	struct report rep;
	report_init(&rep, kind->name, true);
	rep.every_changed_row = true;
	kind->report(&rep, diff);
	report_tables_write(out, &rep, markdown);
	report_release(&rep);
}

int
diff_pair_write(FILE *out, const struct diff_pair_out *po, const char *name,
		const struct diff_write_opts *w, struct diag *err)
{
	const struct kind *kind = po->p.kind;
	const void *diff = po->p.diff;
	if (w->ndjson) {
		if (diff_ndjson_write(out, &po->rep, name, kind->json(diff)) < 0)
			return diag_set(err, DIAG_IOERR, NULL, 0, 0, "cannot write output");
		return 0;
	}
	if (w->folded) {
		kind->write_folded(out, diff);
		return 0;
	}
	if (w->json) {
		if (diff_json_write(out, &po->rep, kind->json(diff)) < 0)
			return diag_set(err, DIAG_IOERR, NULL, 0, 0, "cannot write JSON output");
		return 0;
	}
	if (diff_unchanged_write(out, &po->rep, w->markdown))
		return 0;
	diff_heading_write(out, &po->rep, w->markdown);
	write_tables(out, kind, diff, w->markdown);
	diff_gates_write_text(out, &po->rep, w->markdown);
	return 0;
}

void
diff_pair_out_release(struct diff_pair_out *out)
{
	signature_release(&out->sig);
	pair_open_close(&out->p);
	diag_list_release(&out->notes);
	diag_list_release(&out->warnings);
}

void
diff_run_pair_failed(struct diff_run *run, size_t i, const struct diag *err)
{
	struct diff_pair_result *res = &run->results[i];
	res->compared = false;
	free(res->error);
	res->error = diag_line(err);
	res->status = err->code ? err->code : DIAG_SOFTWARE;
	if (!run->status)
		run->status = res->status;
}

void
diff_pair_result_release(struct diff_pair_result *res)
{
	for (size_t j = 0; j < res->ngates; j++)
		diff_gate_release(&res->gates[j]);
	free(res->gates);
	free(res->error);
	free(res->gate_error);
	free(res->gate_error_text);
	memset(res, 0, sizeof(*res));
}

void
diff_run_release(struct diff_run *run)
{
	for (size_t i = 0; run->results && i < run->pairs.npairs; i++)
		diff_pair_result_release(&run->results[i]);
	free(run->results);
	for (size_t i = 0; i < run->ncases; i++) {
		free((char *)run->cases[i].name);
		free((char *)run->cases[i].message);
	}
	free(run->cases);
	diff_pairs_release(&run->pairs);
}

/*
 * Bundles: the kernel view is compared once (app/kernel_view.h); the
 * sources its reference covers are named, and where one says another
 * figure than the reference, both are said with the time each was taken.
 */
static void
note_kernel_views(const struct diff_run *run)
{
	enum { SAID = 5 };
	const char *const *paths = run->o->paths;
	for (int side = 0; side < 2 && run->pairs.bundles[0]; side++) {
		const struct kernel_view *v = &run->pairs.kernel[side];
		if (!v->ncovered)
			continue;
		struct strbuf sb = STRBUF_INIT;
		kernel_view_covered_list(v, &sb);
		say_msg(run, DIAG_NOTE, paths[side], "%s hold%s the kernel view of %s (the "
			"reference): compared once", sb.buf, v->ncovered == 1 ? "s" : "",
			v->reference->member);
		for (size_t i = 0; i < v->ndisagree && i < SAID; i++) {
			strbuf_reset(&sb);
			kernel_disagreement_describe(v, &v->disagree[i], &sb);
			say_msg(run, DIAG_WARNING, paths[side], "%s", sb.buf);
		}
		uint64_t more = v->disagree_more + (v->ndisagree > SAID ? v->ndisagree - SAID : 0);
		if (more)
			say_msg(run, DIAG_WARNING, paths[side], "%" PRIu64 " more figures of the "
				"kernel sources disagree with the reference", more);
		strbuf_release(&sb);
	}
}

void
diff_run_check_bundles(struct diff_run *run)
{
	note_kernel_views(run);
	for (int side = 0; side < 2; side++) {
		const struct bundle *b = run->pairs.bundles[side];
		for (size_t i = 0; b && i < b->ncaptures; i++) {
			struct diag_list w;
			struct diag err;
			diag_list_init(&w, 20);
			if (bundle_verify_capture(&b->captures[i], &w, &err) < 0)
				diff_run_error(run, b->captures[i].path, &err, false);
			for (size_t j = 0; j < w.len; j++) {
				struct diag d;
				diag_list_get(&w, j, &d);
				if (!run->o->strict) {
					run->say.diag(run->say.ctx, &d, false);
					continue;
				}
				d.code = DIAG_DATA;
				d.severity = DIAG_ERROR;
				size_t len = strlen(d.msg);
				snprintf(d.msg + len, sizeof(d.msg) - len, " (--strict)");
				diff_run_error(run, diag_path(&d), &d, false);
			}
			diag_list_release(&w);
		}
	}
}

/* Is results[i]'s gate error the first of its text among the pairs? */
static bool
first_gate_error(const struct diff_run *run, size_t i)
{
	const char *e = run->results[i].gate_error;
	for (size_t j = 0; e && j < i; j++)
		if (run->results[j].gate_error && strcmp(run->results[j].gate_error, e) == 0)
			return false;
	return e != NULL;
}

/*
 * A gate that cannot be checked (a misspelt type, a class no capture has)
 * stops nothing but itself: the pairs are compared and written, and the
 * gate's error is said once, after the pairs, with the pairs it concerns.
 */
static void
say_gate_errors(const struct diff_run *run)
{
	enum { NAMES_SHOWN = 5 };
	for (size_t i = 0; i < run->pairs.npairs; i++) {
		const struct diff_pair_result *res = &run->results[i];
		if (!first_gate_error(run, i))
			continue;
		struct strbuf sb = STRBUF_INIT;
		size_t n = 0;
		for (size_t j = i; j < run->pairs.npairs; j++) {
			const struct diff_pair_result *o = &run->results[j];
			if (!o->gate_error || strcmp(o->gate_error, res->gate_error) != 0)
				continue;
			if (n < NAMES_SHOWN)
				strbuf_addf(&sb, "%s%s", n ? ", " : "", run->pairs.pairs[j].name);
			n++;
		}
		if (n > NAMES_SHOWN)
			strbuf_addf(&sb, " and %zu more", n - NAMES_SHOWN);
		if (run->pairs.folders)
			say_msg(run, DIAG_ERROR, NULL, "%s (%s %s)", res->gate_error,
				n == 1 ? "pair" : "pairs", sb.buf);
		else
			say_msg(run, DIAG_ERROR, NULL, "%s", res->gate_error);
		strbuf_release(&sb);
	}
}

void
diff_run_check_gate_errors(struct diff_run *run)
{
	for (size_t i = 0; run->results && i < run->pairs.npairs; i++) {
		if (!run->results[i].gate_error)
			continue;
		say_gate_errors(run);
		if (!run->status)
			run->status = DIAG_USAGE;
		return;
	}
}

void
diff_run_check_unpaired(struct diff_run *run)
{
	for (size_t i = 0; i < run->pairs.nunpaired; i++) {
		const struct diff_unpaired *u = &run->pairs.unpaired[i];
		struct diag d;
		diag_set(&d, DIAG_OK, u->path, 0, 0, "has no counterpart of that name in %s: "
			 "not compared", u->in_before ? "AFTER" : "BEFORE");
		strict_or_say(run, &d, DIAG_WARNING, u->path, true);
	}
	if (run->pairs.nskipped_dirs)
		say_msg(run, DIAG_NOTE, NULL, "%zu subfolder%s not read: a folder's captures "
			"are its files", run->pairs.nskipped_dirs,
			run->pairs.nskipped_dirs == 1 ? "" : "s");
}

void
diff_run_check_skipped_gates(struct diff_run *run)
{
	const struct diff_run_opts *o = run->o;
	for (size_t i = 0; i < o->ngates; i++) {
		const struct diff_gate *g = &o->gates[i];
		bool used = false;
		for (size_t j = 0; j < run->pairs.npairs && !used; j++)
			used = run->results[j].kind && kind_has_metric(run->results[j].kind, g->kind);
		if (used)
			continue;
		const struct kind *k = kind_for_metric(g->kind);
		struct diag d;
		diag_set(&d, DIAG_OK, NULL, 0, 0, "gate '%s' skipped: no %s captures were "
			 "compared%s", g->text, k->name, o->strict ? " (--strict)" : "");
		strict_or_say(run, &d, DIAG_NOTE, g->text, true);
	}
}

void
diff_run_check_unevaluable(struct diff_run *run)
{
	for (size_t i = 0; i < run->pairs.npairs; i++) {
		const struct diff_pair_result *res = &run->results[i];
		const char *name = run->pairs.pairs[i].name;
		for (size_t j = 0; !res->error && j < res->ngates; j++) {
			const struct diff_gate *g = &res->gates[j];
			if (!g->unevaluable)
				continue;
			struct diag d;
			diag_set(&d, DIAG_OK, NULL, 0, 0, "gate '%s' not evaluable%s%s: %s%s",
				 g->text, name ? " on " : "", name ? name : "", g->reason,
				 run->o->strict ? " (--strict)" : "");
			strict_or_say(run, &d, DIAG_NOTE, g->text, false);
		}
	}
}

void
diff_run_check_tripped(struct diff_run *run)
{
	for (size_t i = 0; i < run->pairs.npairs; i++) {
		const struct diff_pair_result *res = &run->results[i];
		const char *name = run->pairs.pairs[i].name;
		for (size_t j = 0; !res->error && j < res->ngates; j++) {
			const struct diff_gate *g = &res->gates[j];
			if (!g->tripped)
				continue;
			struct strbuf sb = STRBUF_INIT;
			diff_gate_describe(g, &sb);
			say_msg(run, DIAG_ERROR, NULL, "gate '%s' tripped%s%s: %s", g->text,
				name ? " on " : "", name ? name : "", sb.buf);
			strbuf_release(&sb);
			run->tripped++;
		}
	}
}

/* How many of the pairs' gates were evaluated (neither skipped nor unevaluable). */
static size_t
count_evaluated(const struct diff_run *run)
{
	size_t n = 0;
	for (size_t i = 0; i < run->pairs.npairs; i++) {
		const struct diff_pair_result *res = &run->results[i];
		for (size_t j = 0; !res->error && j < res->ngates; j++)
			n += !res->gates[j].unevaluable;
	}
	return n;
}

/*
 * Gates given and not one evaluated is a failure, --strict or not: a CI job
 * whose artifact folder came down empty, or whose captures hold none of the
 * figures its gates read, has checked nothing, and must not go green. A run
 * that already failed says why itself.
 */
void
diff_run_check_nothing_evaluated(struct diff_run *run)
{
	if (!run->o->ngates || run->status || count_evaluated(run))
		return;
	struct diag d;
	size_t compared = 0;
	for (size_t i = 0; i < run->pairs.npairs; i++)
		compared += run->results[i].compared;
	if (compared)
		diag_set(&d, DIAG_DATA, NULL, 0, 0,
			 "no gate was evaluated: the %zu pair%s compared hold%s none of the "
			 "figures the gates read", compared, compared == 1 ? "" : "s",
			 compared == 1 ? "s" : "");
	else if (run->pairs.nunpaired)
		diag_set(&d, DIAG_DATA, NULL, 0, 0,
			 "no gate was evaluated: no pair of captures to compare (%zu file%s "
			 "without a counterpart)", run->pairs.nunpaired,
			 run->pairs.nunpaired == 1 ? "" : "s");
	else
		diag_set(&d, DIAG_DATA, NULL, 0, 0,
			 "no gate was evaluated: no pair of captures to compare (BEFORE and "
			 "AFTER hold no captures)");
	diff_run_error(run, "gates", &d, false);
}

void
diff_run_summary(const struct diff_run *run, struct diff_summary *s)
{
	memset(s, 0, sizeof(*s));
	s->unpaired = run->pairs.nunpaired;
	s->tripped = xcalloc(run->tripped ? run->tripped : 1, sizeof(*s->tripped));
	for (size_t i = 0; run->results && i < run->pairs.npairs; i++) {
		const struct diff_pair_result *res = &run->results[i];
		s->compared += res->compared;
		s->failed += res->status != 0;
		s->wrong += first_gate_error(run, i);
		for (size_t j = 0; !res->error && j < res->ngates; j++)
			if (res->gates[j].tripped && s->ntripped < run->tripped)
				s->tripped[s->ntripped++] = (struct diff_summary_tripped){
					&res->gates[j], run->pairs.pairs[i].name };
	}
}

void
diff_summary_release(struct diff_summary *s)
{
	free(s->tripped);
	memset(s, 0, sizeof(*s));
}

static char *
suite_name(const struct diff_pair *p)
{
	struct strbuf sb = STRBUF_INIT;
	strbuf_addf(&sb, "iotally diff %s %s", p->before, p->after);
	return strbuf_detach(&sb, NULL);
}

static struct diff_junit_suite *
run_junit_suites(const struct diff_run *run, size_t *nsuites)
{
	/* A run stopped before comparing (a usage error found after pairing) has
	 * no results: its suites are its own errors only. The error cases sit
	 * after the suites, one per pair, in the same allocation. */
	size_t n = run->results ? run->pairs.npairs : 0, ns = 0;
	struct diff_junit_suite *suites = xcalloc(n + 1, sizeof(*suites) + sizeof(struct diff_junit_case));
	struct diff_junit_case *errs = (struct diff_junit_case *)(suites + n + 1);
	for (size_t i = 0; i < n; i++) {
		const struct diff_pair_result *res = &run->results[i];
		struct diff_junit_suite *su = &suites[ns++];
		su->name = suite_name(&run->pairs.pairs[i]);
		su->pair = run->pairs.pairs[i].name;
		su->kind = res->kind ? res->kind->name : NULL;
		if (res->error) {
			errs[i] = (struct diff_junit_case){ "compare", DIFF_JUNIT_ERROR, res->error };
			su->cases = &errs[i];
			su->ncases = 1;
		} else {
			su->gates = res->gates;
			su->ngates = res->ngates;
			if (res->gate_error) {
				errs[i] = (struct diff_junit_case){ res->gate_error_text,
					DIFF_JUNIT_ERROR, res->gate_error };
				su->cases = &errs[i];
				su->ncases = 1;
			}
		}
	}
	if (run->ncases)
		suites[ns++] = (struct diff_junit_suite){ .name = "iotally diff",
			.cases = run->cases, .ncases = run->ncases };
	*nsuites = ns;
	return suites;
}

static void
run_junit_release(const struct diff_run *run, struct diff_junit_suite *suites, size_t nsuites)
{
	/* The pairs' suites own their names; the run's own suite does not. */
	size_t npairs = run->results ? run->pairs.npairs : 0;
	for (size_t i = 0; i < nsuites && i < npairs; i++)
		free((char *)suites[i].name);
	free(suites);
}

int
diff_run_junit_write(FILE *out, const void *ctx, struct diag *err)
{
	const struct diff_run *run = ctx;
	size_t n;
	struct diff_junit_suite *suites = run_junit_suites(run, &n);
	int rc = diff_junit_write(out, suites, n, err);
	run_junit_release(run, suites, n);
	return rc;
}

int
diff_run_status(const struct diff_run *run)
{
	if (run->status)
		return run->status;
	return run->tripped ? DIAG_GATE : 0;
}
