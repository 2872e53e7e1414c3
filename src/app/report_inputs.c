/*
 * `iotally report` around its readers (app/report_inputs.h): the shape of
 * its operands, one bundle's report, a manifest's provenance, a tracking
 * session's part.
 */

#include "app/report_inputs.h"

#include "app/kind.h"
#include "app/report_bundles.h"
#include "app/session.h"
#include "app/signature_inputs.h"
#include "model/diff.h"
#include "model/report.h"
#include "model/report_session.h"
#include "model/signature.h"
#include "util/strbuf.h"

#include <inttypes.h>
#include <string.h>

static bool
is_bundle(const char *path)
{
	return strcmp(path, "-") != 0 && bundle_path_is_bundle(path);
}

int
report_operands_check(const char *const *paths, size_t n, size_t ngates, struct diag *err)
{
	if (n == 0)
		return diag_set(err, DIAG_USAGE, NULL, 0, 0, "an input expected: INPUT [AFTER]");
	if (n == 2 && strcmp(paths[0], "-") == 0 && strcmp(paths[1], "-") == 0)
		return diag_set(err, DIAG_USAGE, NULL, 0, 0,
				"only one of BEFORE and AFTER can be standard input");
	if (ngates && n < 2)
		return diag_set(err, DIAG_USAGE, NULL, 0, 0,
				"--fail-if compares two captures: give BEFORE and AFTER");
	if (ngates && n > 2)
		return diag_set(err, DIAG_USAGE, NULL, 0, 0,
				"--fail-if compares two captures; 'iotally trend --fail-if' gates "
				"a series");
	for (size_t i = 0; n > 2 && i < n; i++)
		if (strcmp(paths[i], "-") == 0)
			return diag_set(err, DIAG_USAGE, NULL, 0, 0,
					"a series is read from files: standard input cannot be one "
					"of its samples");
	return 0;
}

int
report_shape_of(const char *const *paths, size_t n, enum report_shape *shape, struct diag *err)
{
	if (n > 2) {
		*shape = REPORT_SHAPE_SERIES;
		return 0;
	}
	bool bundle[2] = { false, false };
	for (size_t i = 0; i < n; i++)
		bundle[i] = is_bundle(paths[i]);
	if (n == 1) {
		*shape = bundle[0] ? REPORT_SHAPE_BUNDLE : REPORT_SHAPE_CAPTURE;
		return 0;
	}
	if (bundle[0] != bundle[1])
		return diag_set(err, DIAG_USAGE, paths[bundle[0] ? 0 : 1], 0, 0,
				"is a capture bundle and %s is not: a before/after report "
				"compares a bundle with a bundle, or two captures of one kind",
				diag_display_path(paths[bundle[0] ? 1 : 0]));
	*shape = bundle[0] ? REPORT_SHAPE_BUNDLES : REPORT_SHAPE_PAIR;
	return 0;
}

void
app_report_add_notes(struct report *r, const struct diag_list *w)
{
	for (size_t i = 0; i < w->len; i++) {
		const char *path = diag_list_path(w, i), *msg = diag_list_msg(w, i);
		uint64_t line = w->items[i].line;
		if (path && line)
			report_add_warning(r, "%s:%" PRIu64 ": %s", diag_display_path(path), line, msg);
		else if (path)
			report_add_warning(r, "%s: %s", diag_display_path(path), msg);
		else
			report_add_warning(r, "%s", msg);
	}
	if (w->dropped)
		report_add_warning(r, "%" PRIu64 " more warnings not shown", w->dropped);
}

/* ---- two captures ----------------------------------------------------------- */

/* The pair's leak signature (docs/signatures.md) ends the headline. */
static void
add_signature(struct report *r, const struct kind *k, const void *diff)
{
	struct signature sig;
	signature_of_diff(k, diff, &sig);
	if (signature_has(&sig))
		report_add_verdict(r, "signature %s %s (%s)", sig.id, sig.label, SIGNATURE_RULE);
	signature_release(&sig);
}

int
report_pair_build(struct report *r, const struct pair_open *p, const char *const paths[2],
		  struct diff_gate *gates, size_t ngates, struct diag_list *warnings,
		  struct diag *err)
{
	const struct kind *k = p->kind;
	k->comparability(p->diff, paths[0], paths[1], warnings);
	app_report_add_notes(r, warnings);
	int rc = kind_check_gates(k, p->diff, gates, ngates, err);
	if (rc == 0) {
		k->report(r, p->diff);
		add_signature(r, k, p->diff);
		report_add_gates(r, gates, ngates);
	}
	return rc;
}

/* ---- one bundle ------------------------------------------------------------ */

int
bundle_report_build(struct report *r, const struct bundle *b, bool all,
		    struct diag_list *notes, struct diag *err)
{
	struct strbuf files = STRBUF_INIT;
	size_t used = 0;
	int rc = 0;
	report_init(r, "bundle", false);
	r->all = all;
	for (const struct kind *k = kind_first(); k && rc == 0; k = kind_next(k)) {
		const struct bundle_capture *c = bundle_capture_of_kind(b, k->name);
		if (!c || (rc = kind_report_capture(r, c, notes, err)) < 0)
			continue;
		used++;
		strbuf_addf(&files, "%s%s (%s)", files.len ? ", " : "", c->member, c->kind);
		if (k->bundle_report_more)
			k->bundle_report_more(r, b, c, &files, notes);
	}
	if (rc == 0 && used == 0)
		rc = diag_set(err, DIAG_NOINPUT, b->path, 0, 0,
			      "the bundle holds no capture iotally reads ('iotally %s' lists its "
			      "steps)", b->path);
	if (rc == 0) {
		bundle_report_provenance(r, b, files.buf);
		app_report_add_notes(r, notes);
	}
	strbuf_release(&files);
	return rc;
}

/* ---- a manifest's provenance ------------------------------------------------ */

const char *
bundle_report_steps(const struct bundle *b, struct strbuf *sb)
{
	strbuf_addf(sb, "%zu: %zu ok", b->nsteps, b->nsteps - b->nmissed);
	for (size_t i = 0; i < b->nmissed; i++) {
		size_t n = 0;
		bool seen = false;
		for (size_t j = 0; j < b->nmissed; j++) {
			seen |= j < i && strcmp(b->missed[j].status, b->missed[i].status) == 0;
			n += strcmp(b->missed[j].status, b->missed[i].status) == 0;
		}
		if (!seen)
			strbuf_addf(sb, ", %zu %s", n, b->missed[i].status);
	}
	if (!b->complete)
		strbuf_addstr(sb, " (the capture is partial)");
	return sb->buf;
}

/* Target, host, kernel, the captures read, the run. */
static void
add_capture_facts(struct report *r, const struct bundle *b, const char *files)
{
	if (b->target_name)
		report_add_provenance(r, "Target", "%s [%" PRId64 "]", b->target_name,
				      b->target_pid);
	else
		report_add_provenance(r, "Target", "none (a system-wide capture)");
	if (b->host_model || b->host_os_version)
		report_add_provenance(r, "Host", "%s, macOS %s%s%s%s", b->host_model ? b->host_model
				      : "(model not recorded)", b->host_os_version ?
				      b->host_os_version : "(version not recorded)",
				      b->host_os_build ? " (" : "", b->host_os_build ?
				      b->host_os_build : "", b->host_os_build ? ")" : "");
	if (b->host_kernel_variant)
		report_add_provenance(r, "Kernel", "%s", b->host_kernel_variant);
	report_add_provenance(r, "Captures", "%s", files);
	report_add_provenance(r, "Capture run", "%s \u2192 %s by iotally %s",
			      b->started_utc ? b->started_utc : "(not recorded)",
			      b->finished_utc ? b->finished_utc : "(not recorded)",
			      b->iotally_version ? b->iotally_version : "(unknown)");
}

void
bundle_report_provenance(struct report *r, const struct bundle *b, const char *files)
{
	struct strbuf sb = STRBUF_INIT;
	add_capture_facts(r, b, files);
	if (b->redaction_enabled)
		report_add_provenance(r, "Redaction", "on: %" PRIu64 " value%s removed (the "
				      "manifest counts them per rule and file)", b->redaction_hits,
				      b->redaction_hits == 1 ? "" : "s");
	else
		report_add_provenance(r, "Redaction", "OFF: the capture may hold user names, "
				      "serial numbers and home paths ('iotally redact' makes a "
				      "redacted copy)");
	report_add_provenance(r, "Steps", "%s", bundle_report_steps(b, &sb));
	strbuf_release(&sb);
	for (size_t i = 0; i < b->nmissed; i++) {
		const struct bundle_step_note *m = &b->missed[i];
		if (strcmp(m->status, "skipped") == 0)
			report_add_provenance(r, "Skipped", "%s: %s", m->step,
					      m->reason ? m->reason : "(no reason recorded)");
		else
			report_add_warning(r, "step %s %s%s%s", m->step, m->status,
					   m->reason ? ": " : "", m->reason ? m->reason : "");
	}
	if (!b->complete)
		report_add_warning(r, "the capture did not complete: the report covers the "
				   "captures it holds");
	if (!b->redaction_enabled)
		report_add_warning(r, "redaction was OFF for this capture: review it before "
				   "sharing it");
}

/* The provenance of a pair of bundles: each side's, joined (report_bundles_provenance()). */
static void
add_pair_provenance(struct report *r, const struct report_bundles *rb)
{
	struct report side[2];
	for (int i = 0; i < 2; i++) {
		report_init(&side[i], "bundle", false);
		bundle_report_provenance(&side[i], &rb->b[i], rb->files[i] ? rb->files[i] : "none");
	}
	report_bundles_provenance(r, side);
	for (int i = 0; i < 2; i++)
		report_release(&side[i]);
}

int
bundle_report_pair(struct report *r, struct report_bundles *rb, const char *const paths[2],
		   bool all, struct diff_gate *gates, size_t ngates, const char *session,
		   struct diag_list *notes, struct diag_list *warnings,
		   struct diag_list *session_notes, struct diag *err)
{
	report_init(r, "bundle", true);
	r->all = all;
	int rc = report_bundles_open(rb, paths[0], paths[1], err);
	if (rc == 0)
		rc = report_bundles_build(rb, r, gates, ngates, notes, warnings, err);
	if (rc == 0) {
		add_pair_provenance(r, rb);
		if (session)
			rc = bundle_report_session(r, session, session_notes, err);
	}
	if (rc == 0) {
		app_report_add_notes(r, warnings);
		app_report_add_notes(r, notes);
	}
	return rc;
}

/* ---- a tracking session ----------------------------------------------------- */

int
bundle_report_session(struct report *r, const char *path, struct diag_list *notes,
		      struct diag *err)
{
	struct session_index si;
	if (session_index_read(path, &si, err) < 0)
		return -1;
	report_add_provenance(r, "Tracking session", "%s%s, started %s, tracking left %s",
			      si.complete ? "complete" : "partial",
			      si.aborted ? " (stopped early)" : "",
			      si.started_utc ? si.started_utc : "at an unknown time",
			      si.tracking_left ? si.tracking_left : "unknown");
	if (session_tracking_maybe_on(&si))
		report_add_warning(r, "%s", SESSION_MAYBE_ON_WARNING);
	struct session_growth g;
	session_growth_init(&g);
	int rc = app_session_growth(&si, &g, notes, err);
	app_report_add_notes(r, notes);
	if (rc == 0)
		report_add_session_growth(r, &g);
	session_growth_release(&g);
	session_index_release(&si);
	return rc;
}
