#ifndef IOTALLY_APP_KIND_H
#define IOTALLY_APP_KIND_H

/*
 * The kinds `iotally diff` compares. A kind is one model module
 * (model/diff_<kind>.c: the comparison and its gate metrics), one report
 * module (report/diff_<kind>.c) and one row in the table of diff_kinds.c,
 * whose functions bind the reading of both inputs (ingest/diff_read.c) to
 * the model and the report. cmd_diff.c only sees the table.
 */

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "ingest/detect.h"
#include "model/report.h"
#include "util/diag.h"
#include "model/diff.h"
#include "util/linereader.h"

/* One input, opened and recognised. */
struct kind_input {
	const char *path;
	struct line_reader reader;
	bool json;                  /* iotally's JSON report of the kind */
};

/* The options that apply to some kinds only: a kind lists those it accepts. */
enum kind_option {
	KIND_ACCEPTS_DUMP = 1u << 0,
	KIND_ACCEPTS_DIRECT = 1u << 1,
	KIND_ACCEPTS_MATCH_OFFSETS = 1u << 2,
	KIND_ACCEPTS_FOLDED = 1u << 3,
};

#define KIND_MAX_RAW 4

struct kind {
	const char *name;           /* "vmmap" */
	/* What input_detect() says of the kind's raw captures (INPUT_EMPTY ends). */
	enum input_kind raw[KIND_MAX_RAW];
	/* The gate metric kinds it resolves ("classes", "alloc"); NULL ends. */
	const char *metric_kinds[3];
	const char *schema;         /* iotally's JSON of the kind */
	unsigned accepts;           /* enum kind_option bits */
	/* Load both inputs and compare them; notes go to `notes` (stderr). */
	void *(*compare)(struct kind_input *before, struct kind_input *after,
			 const struct diff_options *opts, struct diag_list *notes,
			 struct diag *err);
	void (*comparability)(const void *diff, const char *before_path,
			      const char *after_path, struct diag_list *warnings);
	int (*metric)(const void *diff, const char *kind, const char *metric,
		      int64_t *before, int64_t *after, struct diag *err);
	/* Are the metric's figures bytes (else a count)? */
	bool (*metric_bytes)(const char *kind, const char *metric);
	/* What a metric that picks its subject measured (NULL: nothing to name). */
	const char *(*subject)(const void *diff, const char *kind, const char *metric);
	bool (*changed)(const void *diff);
	void (*write_text)(FILE *out, const void *diff, bool markdown);
	json_t *(*json)(const void *diff);
	void (*write_folded)(FILE *out, const void *diff);   /* NULL: no --folded */
	/* The kind's sections of a before/after report (`iotally report`). */
	void (*report)(struct report *rep, const void *diff);
	void (*free)(void *diff);
};

/* The registry in its order (vmmap, classes, track): kind_next() is NULL after the last. */
const struct kind *kind_first(void);
const struct kind *kind_next(const struct kind *k);

/*
 * The first option of `given` (enum kind_option bits) that `kind` does
 * not accept, as "--name"; NULL when it accepts them all.
 */
const char *kind_refused_option(const struct kind *kind, unsigned given);

/* The kind a raw input kind or a JSON schema belongs to, or NULL. */
const struct kind *kind_for_input(enum input_kind kind, const char *schema);
/* The kind whose gates use metric kind `name` ("vmmap", "alloc"), or NULL. */
const struct kind *kind_for_metric(const char *name);
/* Does `kind` resolve gates of metric kind `name`? */
bool kind_has_metric(const struct kind *kind, const char *name);

/*
 * Open an input and recognise its kind: 0 with *kind, or -1 with DIAG_DATA
 * naming what the input is instead. `command` ("diff", "report") and
 * `reads` (what it takes) word the message.
 */
int kind_open(struct kind_input *in, const char *path, const char *command,
		   const struct kind **kind, char *schema, size_t schema_size,
		   enum input_kind *raw, struct diag *err);

struct diff_gate;
/*
 * Check each gate against the diff: a gate of another kind is a DIAG_USAGE
 * error, a metric neither capture has DIAG_DATA.
 */
int kind_check_gates(const struct kind *kind, const void *diff,
			  struct diff_gate *gates, size_t n, struct diag *err);
/*
 * Check one gate of the kind's metrics against the diff: its figures, unit,
 * result and subject; a figure one capture lacks makes it not evaluable
 * (g->unevaluable, g->reason). 0, or -1 with *err as the kind's metric says.
 */
int kind_resolve_gate(const struct kind *kind, const void *diff,
			   struct diff_gate *g, struct diag *err);

#endif
