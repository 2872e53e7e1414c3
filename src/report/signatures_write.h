#ifndef IOTALLY_REPORT_SIGNATURES_WRITE_H
#define IOTALLY_REPORT_SIGNATURES_WRITE_H

/*
 * `iotally signatures`: the buckets (model/signature_bucket.h) as text, a
 * Markdown table to paste into a tracking bug, or JSON (SIGNATURES_SCHEMA);
 * the component view (pairs per component across buckets); one bucket with
 * every member and the `iotally report BEFORE AFTER` line of each; and one
 * NDJSON row per pair (SIGNATURES_NDJSON_SCHEMA), which the command reads
 * back.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "model/signature_bucket.h"

struct strbuf;

/* Examples listed per bucket unless --examples says otherwise. */
#define SIGNATURES_EXAMPLES 3
/* The text table's width: the signature cell is cut to fit (JSON and --bucket have it whole). */
#define SIGNATURES_TEXT_WIDTH 120
/*
 * Markdown is pasted into a GitHub comment (at most 65,536 characters): at
 * most this many bucket rows and component rows (the rest counted) and
 * examples per bucket. Markdown shows the component view under the buckets.
 */
#define SIGNATURES_MD_BUCKETS 100
#define SIGNATURES_MD_EXAMPLES 10

/* What to show. */
struct signatures_view {
	size_t examples;        /* example pairs per bucket (text, Markdown, JSON `examples`) */
	bool by_component;      /* text, Markdown: the component view instead of the buckets */
	const size_t *bucket;   /* NULL, or the index of the one bucket to show with its members */
};

/* Text (markdown false) or Markdown. */
void signatures_write_text(FILE *out, const struct signature_buckets *b,
			   const struct signature_record *recs, const struct signatures_view *v,
			   bool markdown);
/* The JSON document (every member of each bucket shown). 0, or -1 when it cannot be written. */
int signatures_write_json(FILE *out, const struct signature_buckets *b,
			  const struct signature_record *recs, const struct signatures_view *v);
/* One row per record. 0, or -1 when it cannot be written. */
int signatures_write_ndjson(FILE *out, const struct signature_record *recs, size_t n);
/* The rows of one bucket's members, in input order. 0, or -1. */
int signatures_write_ndjson_bucket(FILE *out, const struct signature_bucket *k,
				   const struct signature_record *recs);
/*
 * "iotally report BEFORE AFTER" for a record that names both, each path
 * one shell word (util/escape.h: pasted, it reads back as the path; no
 * control byte reaches the terminal).
 */
void signatures_report_command(struct strbuf *out, const struct signature_record *r);

#endif
