#ifndef IOTALLY_CLI_DIFF_KINDS_H
#define IOTALLY_CLI_DIFF_KINDS_H

/*
 * The kinds `iotally diff` compares. A kind is one model module
 * (model/diff_<kind>.c: the comparison and its gate metrics), one report
 * module (report/diff_<kind>.c) and one row in the table of diff_kinds.c,
 * whose functions load both inputs (raw captures or iotally's JSON of the
 * kind) and bind the three together. cmd_diff.c only sees the table.
 */

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "ingest/detect.h"
#include "util/diag.h"
#include "util/linereader.h"

/* One input, opened and recognised. */
struct diff_input {
	const char *path;
	struct line_reader reader;
	bool json;                  /* iotally's JSON report of the kind */
};

struct diff_options {
	bool has_dump;
	uint64_t dump;              /* 1-based --dump N */
	bool match_offsets;         /* track: frames keep their offsets */
	bool folded;                /* track: differential folded output */
};

struct diff_kind {
	const char *name;           /* "vmmap": also the gate metric prefix */
	enum input_kind raw;        /* what input_detect() says of a raw capture */
	const char *schema;         /* iotally's JSON of the kind */
	/* Load both inputs and compare them; notes go to `notes` (stderr). */
	void *(*compare)(struct diff_input *before, struct diff_input *after,
			 const struct diff_options *opts, struct diag_list *notes,
			 struct diag *err);
	void (*comparability)(const void *diff, const char *before_path,
			      const char *after_path, struct diag_list *warnings);
	int (*metric)(const void *diff, const char *metric, int64_t *before,
		      int64_t *after, struct diag *err);
	bool (*changed)(const void *diff);
	void (*write_text)(FILE *out, const void *diff, bool markdown);
	json_t *(*json)(const void *diff);
	void (*write_folded)(FILE *out, const void *diff);   /* NULL: no --folded */
	void (*free)(void *diff);
};

/* The kind a raw input kind or a JSON schema belongs to, or NULL. */
const struct diff_kind *diff_kind_for_input(enum input_kind kind, const char *schema);
/* By metric prefix ("vmmap"), or NULL. */
const struct diff_kind *diff_kind_by_name(const char *name);

#endif
