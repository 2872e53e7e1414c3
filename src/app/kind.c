/*
 * The kind registry: the table of kinds and what is looked up in it. Each
 * kind's row and adapters are in app/kind_<name>.c.
 */

#include "app/kind.h"

#include "app/input.h"
#include "app/kind_rows.h"
#include "ingest/bundle.h"
#include "model/summary.h"
#include "util/array.h"
#include "util/capture_kinds.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

void
kind_note_partial(struct diag_list *w, const char *bpath, bool bpartial, const char *apath,
	     bool apartial)
{
	if (bpartial)
		diag_list_add(w, DIAG_WARNING, NULL, 0, "BEFORE (%s) is partial: the diff "
			      "covers what could be read", diag_display_path(bpath));
	if (apartial)
		diag_list_add(w, DIAG_WARNING, NULL, 0, "AFTER (%s) is partial: the diff "
			      "covers what could be read", diag_display_path(apath));
}

/*
 * The registry: one row per kind (util/capture_kinds.h), in the order a
 * bundle offers its captures (`iotally BUNDLE`, `iotally report BUNDLE`,
 * trend's default kind), so that a row's place is its enum bundle_kind. A
 * kind is its row (const struct kind kind_<name>, app/kind_<name>.c) and
 * its own modules.
 */
#define KIND_ROW_DECLARE(id, name) extern const struct kind kind_##name;
CAPTURE_KINDS(KIND_ROW_DECLARE)
#undef KIND_ROW_DECLARE

#define KIND_ROW(id, name) [BUNDLE_KIND_##id] = &kind_##name,
static const struct kind *const kinds[] = { CAPTURE_KINDS(KIND_ROW) };
#undef KIND_ROW

#define NKINDS (ARRAY_SIZE(kinds))

const struct kind *
kind_first(void)
{
	return kinds[0];
}

const struct kind *
kind_next(const struct kind *k)
{
	for (size_t i = 0; i + 1 < NKINDS; i++)
		if (kinds[i] == k)
			return kinds[i + 1];
	return NULL;
}

const struct kind *
kind_by_name(const char *name)
{
	for (size_t i = 0; i < NKINDS; i++)
		if (strcmp(kinds[i]->name, name) == 0)
			return kinds[i];
	return NULL;
}

unsigned
kind_repeat_snapshots(void)
{
	unsigned bits = 0;
	for (size_t i = 0; i < NKINDS; i++)
		if (kinds[i]->repeat_snapshot)
			bits |= 1u << i;
	return bits;
}

void
kind_capture_plan(struct capture_plan *plan)
{
	memset(plan, 0, sizeof(*plan));
	for (size_t i = 0; i < NKINDS; i++)
		for (size_t j = 0; j < CAPTURE_STEPS_MAX && kinds[i]->capture_steps[j].id; j++) {
			/* In `order`, by insertion: a handful of steps. */
			const struct capture_step_def *d = &kinds[i]->capture_steps[j];
			size_t at = plan->n;
			if (at == CAPTURE_PLAN_MAX)
				abort();    /* CAPTURE_PLAN_MAX is the rows' sum: raise it with them */
			while (at > 0 && plan->steps[at - 1].def->order > d->order) {
				plan->steps[at] = plan->steps[at - 1];
				at--;
			}
			plan->steps[at].def = d;
			plan->steps[at].kind = (enum bundle_kind)i;
			plan->n++;
		}
	plan->repeat_kinds = kind_repeat_snapshots();
}

size_t
kind_names(const char **names, size_t max)
{
	size_t n = 0;
	for (size_t i = 0; i < NKINDS && n < max; i++)
		names[n++] = kinds[i]->name;
	return n;
}

void
kind_list_commands(struct strbuf *sb)
{
	const struct kind *read_back[NKINDS];
	size_t n = 0;
	for (size_t i = 0; i < NKINDS; i++)
		if (kinds[i]->schema)
			read_back[n++] = kinds[i];
	for (size_t i = 0; i < n; i++)
		strbuf_addf(sb, "%s'%s%s'", i == 0 ? "" : i + 1 == n ? " and " : ", ",
			    i == 0 ? "iotally " : "", read_back[i]->name);
}

const char *
kind_refused_option(const struct kind *kind, unsigned given)
{
	static const struct {
		unsigned bit;
		const char *name;
	} names[] = {
		{ KIND_ACCEPTS_DUMP, "--dump" },
		{ KIND_ACCEPTS_DIRECT, "--direct" },
		{ KIND_ACCEPTS_MATCH_OFFSETS, "--match-offsets" },
		{ KIND_ACCEPTS_FOLDED, "--folded" },
	};
	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		if ((given & names[i].bit) && !(kind->accepts & names[i].bit))
			return names[i].name;
	return NULL;
}

/* Is `kind` one of list[0..KIND_MAX_RAW), which INPUT_EMPTY ends? */
static bool
listed(const enum input_kind *list, enum input_kind kind)
{
	for (size_t i = 0; i < KIND_MAX_RAW && list[i] != INPUT_EMPTY; i++)
		if (list[i] == kind)
			return true;
	return false;
}

const struct kind *
kind_for_input(enum input_kind kind, const char *schema)
{
	for (size_t i = 0; i < NKINDS; i++)
		if (kind == INPUT_IOTALLY_JSON ? schema && kinds[i]->schema &&
						 strcmp(schema, kinds[i]->schema) == 0
					       : listed(kinds[i]->raw, kind))
			return kinds[i];
	return NULL;
}

const struct kind *
kind_command_for_input(enum input_kind kind)
{
	for (size_t i = 0; i < NKINDS; i++)
		if (listed(kinds[i]->raw, kind) || listed(kinds[i]->refers, kind))
			return kinds[i];
	return NULL;
}

bool
kind_has_metric(const struct kind *kind, const char *name)
{
	for (size_t i = 0; i < 3 && kind->metric_kinds[i]; i++)
		if (strcmp(kind->metric_kinds[i], name) == 0)
			return true;
	return false;
}

const struct kind *
kind_for_metric(const char *name)
{
	for (size_t i = 0; i < NKINDS; i++)
		if (kind_has_metric(kinds[i], name))
			return kinds[i];
	return NULL;
}

int
kind_open(struct kind_input *in, const char *path, const char *command,
	       const struct kind **kind, char *schema, size_t schema_size,
	       enum input_kind *raw, struct diag *err)
{
	struct app_input peek;
	in->path = path;
	if (line_reader_open(&in->reader, path, 0, err) < 0)
		return -1;
	if (app_input_peek(&in->reader, &peek, err) < 0)
		return -1;
	/* Only blank and leading comment lines: empty, as in every command. */
	*raw = peek.empty ? INPUT_EMPTY : peek.kind;
	snprintf(schema, schema_size, "%s", *raw == INPUT_IOTALLY_JSON && !peek.schema[0] ?
		 "(no schema)" : peek.schema);
	*kind = kind_for_input(*raw, schema);
	in->json = *raw == INPUT_IOTALLY_JSON;
	char foreign[512];
	/* Another tool's report: the sentence every command says of it. */
	if (app_foreign_sentence(&peek, foreign, sizeof(foreign)))
		return diag_set(err, DIAG_DATA, path, 0, 0, "%s", foreign);
	if (!*kind)
		return diag_set(err, DIAG_DATA, path, 0, 0,
				"is %s%s%s%s: %s %s vmmap dumps, ioclasscount --track "
				"captures, IOKit class counts (ioreg, ioclasscount), footprint "
				"output or iotally's JSON reports of them",
				input_kind_describe(*raw), in->json ? " (schema '" : "",
				in->json ? schema : "", in->json ? "')" : "", command,
				strcmp(command, "diff") == 0 ? "compares" : "reads");
	return 0;
}

int
kind_check_gates(const struct kind *kind, const void *diff, struct diff_gate *gates,
		      size_t n, struct diag *err)
{
	for (size_t i = 0; i < n; i++) {
		struct diff_gate *g = &gates[i];
		if (!kind_has_metric(kind, g->kind))
			return diag_set(err, DIAG_USAGE, NULL, 0, 0,
					kind_for_metric(g->kind)
					? "gate '%s': '%s:' metrics do not apply to %s captures"
					: "gate '%s': unknown metric kind '%s' (this diff compares "
					  "%s captures)", g->text, g->kind, kind->name);
		if (diff && kind_resolve_gate(kind, diff, g, err) < 0)
			return -1;
	}
	return 0;
}

/* A tripped gate's growth in the summary's words (model/summary.h), when its kind names one. */
static void
gate_phrase(const struct kind *kind, const void *diff, struct diff_gate *g)
{
	free(g->phrase);
	g->phrase = NULL;
	struct summary_growth growth;
	struct strbuf scratch = STRBUF_INIT;
	if (g->tripped && kind->gate_growth && kind->gate_growth(diff, g, &growth, &scratch)) {
		struct strbuf sb = STRBUF_INIT;
		summary_growth_phrase(&growth, &sb);
		g->phrase = strbuf_detach(&sb, NULL);
	}
	strbuf_release(&scratch);
}

int
kind_resolve_gate(const struct kind *kind, const void *diff, struct diff_gate *g,
		       struct diag *err)
{
	int64_t before, after;
	/* The metric's unit, known whether or not a capture holds its figure:
	 * a limit is shown in it either way. */
	g->bytes = kind->metric_bytes(g->kind, g->metric);
	if (diff_gate_check_unit(g, err) < 0)
		return -1;
	int rc = kind->metric(diff, g->kind, g->metric, &before, &after, err);
	if (rc < 0)
		return -1;
	if (rc > 0) {
		/* A figure one capture lacks: the gate is not evaluable, never 0 against 0. */
		free(g->reason);
		g->reason = xstrdup(err->msg);
		g->unevaluable = true;
		diag_clear(err);
		return 0;
	}
	if (diff_gate_check(g, before, after, err) < 0)
		return -1;
	const char *subject = kind->subject ? kind->subject(diff, g->kind, g->metric) : NULL;
	free(g->subject);
	g->subject = subject ? xstrdup(subject) : NULL;
	gate_phrase(kind, diff, g);
	return 0;
}

int
kind_report_capture(struct report *r, const struct bundle_capture *c, struct diag_list *notes,
		    struct diag *err)
{
	struct kind_input in;
	const struct kind *k;
	char schema[64];
	enum input_kind raw;
	memset(&in, 0, sizeof(in));
	in.reader.fd = -1;
	if (bundle_verify_capture(c, notes, err) < 0)
		return -1;
	if (kind_open(&in, c->path, "report", &k, schema, sizeof(schema), &raw, err) < 0)
		return -1;
	int rc = k->single_report(r, &in, notes, err);
	line_reader_close(&in.reader);
	return rc;
}
