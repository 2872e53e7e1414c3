#ifndef IOTALLY_REPORT_REPORT_JSON_WRITE_H
#define IOTALLY_REPORT_REPORT_JSON_WRITE_H

/*
 * The report model as JSON ("schema": "iotally.report/1"), the data the
 * HTML report embeds so its figures can be extracted exactly: the verdict,
 * provenance, warnings, and each section's tables (figures as integers:
 * bytes, counts and signed deltas; text as strings; an empty cell null)
 * and charts. Strings are cleaned to valid UTF-8 first. Keys in a fixed
 * order, so the same report gives the same bytes.
 */

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "model/report.h"

#define REPORT_JSON_SCHEMA "iotally.report/1"

/*
 * How much of a report the JSON holds, to keep a page within its budget:
 * each string cut to `chars` characters (0: whole; a cut ends in "…"), at
 * most `rows` rows a table (the rest counted in omitted_rows), `lines`
 * detail lines a row, `items` items a chart (the rest in omitted_items)
 * and `warnings` warnings (then one saying how many were left out); `bare`:
 * no provenance and no section.
 */
struct report_fold {
	size_t chars, rows, lines, items, warnings;
	bool bare;
};

/* The report, all of it when `fold` is NULL. */
json_t *report_json(const struct report *r, const struct report_fold *fold);

#endif
