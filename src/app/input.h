#ifndef IOTALLY_APP_INPUT_H
#define IOTALLY_APP_INPUT_H

/*
 * What an input is, from its first bytes (ingest/detect.h), and which
 * command reads it: the one recognition every command and `iotally FILE`
 * share. Nothing here prints; cli/ words the refusals.
 */

#include <stdbool.h>
#include <stddef.h>

#include "ingest/detect.h"
#include "ingest/foreign.h"

struct app_input {
	enum input_kind kind;
	enum foreign_kind foreign;   /* another tool's report iotally does not read */
	char schema[64];             /* iotally JSON: its "schema" value */
	bool empty;                  /* no bytes, or only blank and leading comment lines */
};

struct line_reader;
struct diag;
/* Look at what `r` is about to deliver without consuming it. 0, or -1. */
int app_input_peek(struct line_reader *r, struct app_input *in, struct diag *err);

/* "vmmap", "classes", "track": the command that reads `kind`, or NULL (the kind registry, app/kind.h). */
const char *app_command_for_kind(enum input_kind kind);

/* Is this iotally's JSON of one capture (a kind's schema), which `report` reads? */
bool app_input_is_kind_json(const struct app_input *in);

/*
 * The one sentence every command says of another tool's report (footprint,
 * leaks, heap, a .spx): "this is a footprint report, which iotally does not
 * read; ..." into out[n]. False (out untouched) for anything else.
 */
bool app_foreign_sentence(const struct app_input *in, char *out, size_t n);

#endif
