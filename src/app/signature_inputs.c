/*
 * The units of `iotally signatures` and the work of one unit.
 */

#include "app/signature_inputs.h"

#include "app/kind.h"
#include "ingest/bundle.h"
#include "ingest/signature_rows_read.h"
#include "model/diff.h"
#include "model/signature.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Is the file's first line a row of one of the schemas signatures reads back? */
static bool
is_rows_file(const char *path)
{
	if (strcmp(path, "-") == 0)
		return true;
	FILE *fp = fopen(path, "rb");
	char buf[256];
	size_t n = fp ? fread(buf, 1, sizeof(buf) - 1, fp) : 0;
	if (fp)
		fclose(fp);
	buf[n] = '\0';
	char *nl = strchr(buf, '\n');
	if (nl)
		*nl = '\0';
	return buf[0] == '{' && (strstr(buf, "\"schema\":\"" SIGNATURES_NDJSON_SCHEMA "\"") ||
				 strstr(buf, "\"schema\":\"" DIFF_NDJSON_SCHEMA "\""));
}

static void
add_unit(struct signature_inputs *in, size_t *alloc, struct signature_input u)
{
	in->v = xgrow(in->v, alloc, in->n + 1, sizeof(*in->v));
	in->v[in->n++] = u;
}

int
signature_inputs_build(struct signature_inputs *in, char **operands, size_t n,
		       struct diag *err)
{
	size_t alloc = 0, others = 0;
	const char *pair[2] = { NULL, NULL };
	memset(in, 0, sizeof(*in));
	for (size_t i = 0; i < n; i++) {
		if (is_rows_file(operands[i]))
			continue;
		if (others < 2)
			pair[others] = operands[i];
		others++;
	}
	if (others != 0 && others != 2)
		return diag_set(err, DIAG_USAGE, NULL, 0, 0,
				"%zu input%s that %s not NDJSON rows of signatures or of diff: give "
				"two (BEFORE AFTER: folders, bundles or files), or none",
				others, others == 1 ? "" : "s", others == 1 ? "is" : "are");
	if (others == 2 && diff_pairs_build(&in->pairs, pair[0], pair[1], err) < 0)
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (is_rows_file(operands[i])) {
			add_unit(in, &alloc, (struct signature_input){ SIGNATURE_INPUT_ROWS, NULL,
								       operands[i] });
			continue;
		}
		if (operands[i] != pair[0])
			continue;
		/* The pairs stand where BEFORE stood among the operands. */
		for (size_t j = 0; j < in->pairs.npairs; j++)
			add_unit(in, &alloc, (struct signature_input){ SIGNATURE_INPUT_PAIR,
								       &in->pairs.pairs[j], NULL });
	}
	return 0;
}

void
signature_inputs_release(struct signature_inputs *in)
{
	diff_pairs_release(&in->pairs);
	free(in->v);
	memset(in, 0, sizeof(*in));
}

void
signature_result_init(struct signature_result *r)
{
	memset(r, 0, sizeof(*r));
	diag_list_init(&r->notes, 20);
	diag_clear(&r->err);
}

void
signature_result_release(struct signature_result *r)
{
	for (size_t i = 0; i < r->n; i++)
		signature_record_release(&r->recs[i]);
	free(r->recs);
	diag_list_release(&r->notes);
	memset(r, 0, sizeof(*r));
}

/* Open, recognise and compare both sides; the signature of what grew. */
static int
pair_signature(const struct diff_pair *pair, struct signature *sig, const char **kind_name,
	       struct diag_list *notes, struct diag *err)
{
	struct kind_input in[2];
	const struct kind *k[2] = { NULL, NULL };
	char schema[2][64];
	enum input_kind raw[2];
	const char *paths[2] = { pair->before, pair->after };
	struct diff_options opts = { 0 };
	void *diff = NULL;
	int rc = 0;
	memset(in, 0, sizeof(in));
	in[0].reader.fd = in[1].reader.fd = -1;
	for (int i = 0; i < 2 && rc == 0; i++)
		rc = kind_open(&in[i], paths[i], "signatures", &k[i], schema[i], sizeof(schema[i]),
			       &raw[i], err);
	if (rc == 0 && k[0] != k[1])
		rc = diag_set(err, DIAG_DATA, NULL, 0, 0,
			      "BEFORE (%s) is of kind %s and AFTER (%s) of kind %s: a pair needs "
			      "two captures of the same kind", diag_display_path(paths[0]),
			      k[0]->name, diag_display_path(paths[1]), k[1]->name);
	if (rc == 0) {
		*kind_name = k[0]->name;
		diff = k[0]->compare(&in[0], &in[1], &opts, notes, err);
		rc = diff ? 0 : -1;
	}
	if (rc == 0 && k[0]->signature)
		k[0]->signature(diff, sig);
	if (rc == 0)
		signature_finish(sig);
	if (diff)
		k[0]->free(diff);
	for (int i = 0; i < 2; i++)
		if (in[i].path)
			line_reader_close(&in[i].reader);
	return rc;
}

/* What the AFTER bundle's manifest says of its host and time, where the capture said nothing. */
static void
bundle_meta(struct signature_record *rec, const struct bundle *b)
{
	if (!b)
		return;
	if (!rec->machine && b->host_model)
		rec->machine = xstrdup(b->host_model);
	if (!rec->os_version && b->host_os_version) {
		struct strbuf sb = STRBUF_INIT;
		strbuf_addstr(&sb, b->host_os_version);
		if (b->host_os_build)
			strbuf_addf(&sb, " (%s)", b->host_os_build);
		rec->os_version = strbuf_detach(&sb, NULL);
	}
	/* "2026-11-29T10:15:30Z" written as vmmap's Date/Time, so that one
	 * parser (util/datetime) orders both. */
	const char *t = b->finished_utc;
	if (!rec->captured && t && strlen(t) == 20 && t[10] == 'T' && t[19] == 'Z') {
		struct strbuf sb = STRBUF_INIT;
		strbuf_addf(&sb, "%.10s %.8s +0000", t, t + 11);
		rec->captured = strbuf_detach(&sb, NULL);
	}
}

static void
run_pair(const struct diff_pair *pair, const struct bundle *after_bundle,
	 struct signature_result *res)
{
	struct signature sig;
	struct diag err;
	const char *kind = NULL;
	signature_init(&sig);
	diag_clear(&err);
	res->recs = xgrow(res->recs, &res->alloc, 1, sizeof(*res->recs));
	struct signature_record *rec = &res->recs[res->n++];
	memset(rec, 0, sizeof(*rec));
	rec->name = xstrdup(pair->name ? pair->name : pair->after);
	rec->before = xstrdup(pair->before);
	rec->after = xstrdup(pair->after);
	if (pair_signature(pair, &sig, &kind, &res->notes, &err) < 0) {
		rec->error = xstrdup(err.msg);
		res->err = err;
	} else {
		signature_record_take(rec, &sig);
		bundle_meta(rec, after_bundle);
	}
	rec->kind = kind ? xstrdup(kind) : NULL;
	signature_release(&sig);
}

void
signature_of_diff(const struct kind *kind, const void *diff, struct signature *sig)
{
	signature_init(sig);
	if (kind->signature)
		kind->signature(diff, sig);
	signature_finish(sig);
}

int
signature_of_series(const char *first, const char *last, const char *verdict,
		    struct signature *sig, struct diag_list *notes, struct diag *err)
{
	static const char *const bucketed[] = { "LEAK", "GROWING", "PLATEAU" };
	struct diff_pair pair = { NULL, (char *)first, (char *)last };
	struct signature pairsig;
	const char *kind = NULL;
	bool wanted = false;
	signature_init(sig);
	for (size_t i = 0; i < sizeof(bucketed) / sizeof(bucketed[0]); i++)
		wanted |= verdict && strcmp(verdict, bucketed[i]) == 0;
	if (!wanted) {
		signature_finish(sig);
		return 0;
	}
	signature_init(&pairsig);
	int rc = pair_signature(&pair, &pairsig, &kind, notes, err);
	for (size_t i = 0; rc == 0 && i < pairsig.n; i++)
		signature_add(sig, pairsig.c[i].section, pairsig.c[i].key, pairsig.c[i].label,
			      pairsig.c[i].bytes, pairsig.c[i].count);
	if (rc == 0 && pairsig.n) {
		struct strbuf label = STRBUF_INIT;
		strbuf_addf(&label, "series %s", verdict);
		signature_add(sig, SIGNATURE_TREND, verdict, label.buf, 0, 0);
		strbuf_release(&label);
		signature_set_meta(&sig->os_version, pairsig.os_version);
		signature_set_meta(&sig->captured, pairsig.captured);
	}
	signature_release(&pairsig);
	signature_finish(sig);
	return rc;
}

static void
run_rows(const char *path, struct signature_result *res)
{
	struct line_reader r;
	if (line_reader_open(&r, path, SIGNATURE_ROW_MAX, &res->err) < 0) {
		res->failed = true;
		return;
	}
	if (signature_rows_read(&r, path, &res->recs, &res->n, &res->alloc, &res->err) < 0)
		res->failed = true;
	line_reader_close(&r);
}

void
signature_input_run(const struct signature_inputs *in, size_t i, struct signature_result *res)
{
	const struct signature_input *u = &in->v[i];
	if (u->type == SIGNATURE_INPUT_PAIR)
		run_pair(u->pair, in->pairs.bundles[1], res);
	else
		run_rows(u->path, res);
}
