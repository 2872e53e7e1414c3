/*
 * The units of `iotally signatures` and the work of one unit.
 */

#include "app/signature_inputs.h"

#include "app/pair_open.h"

#include "app/bundle_inputs.h"
#include "app/kind.h"
#include "app/trend_run.h"
#include "bundle/manifest.h"
#include "ingest/bundle.h"
#include "ingest/signature_rows_read.h"
#include "model/diff.h"
#include "model/signature.h"
#include "model/signature_series.h"
#include "model/trend.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

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

/* A series bundle: a folder holding the series index, or an archive of one. */
static bool
is_series(const char *path)
{
	struct stat st;
	if (strcmp(path, "-") == 0 || !bundle_path_is_bundle(path))
		return false;
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
		char *index = strbuf_path_join(path, BUNDLE_SERIES_INDEX);
		bool yes = stat(index, &st) == 0 && S_ISREG(st.st_mode);
		free(index);
		return yes;
	}
	struct bundle b;
	struct diag err;
	bool yes = bundle_open(path, &b, &err) == 0 && b.series;
	bundle_release(&b);
	return yes;
}

static int
cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * The entries of a folder that is no bundle, when every one (dot files
 * left aside) is a series bundle: their paths in name order (owned, NULL
 * ended), or NULL.
 */
static char **
series_of_folder(const char *path)
{
	struct stat st;
	if (strcmp(path, "-") == 0 || stat(path, &st) < 0 || !S_ISDIR(st.st_mode) ||
	    bundle_path_is_bundle(path))
		return NULL;
	DIR *d = opendir(path);
	if (!d)
		return NULL;
	char **v = NULL;
	size_t n = 0, alloc = 0;
	bool all = true;
	struct dirent *e;
	while (all && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		v = xgrow(v, &alloc, n + 2, sizeof(*v));
		v[n++] = strbuf_path_join(path, e->d_name);
		all = is_series(v[n - 1]);
	}
	closedir(d);
	if (!all || n == 0) {
		for (size_t i = 0; i < n; i++)
			free(v[i]);
		free(v);
		return NULL;
	}
	qsort(v, n, sizeof(*v), cmp_name);
	v[n] = NULL;
	return v;
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
	bool *series = xcalloc(n ? n : 1, sizeof(*series));
	char ***folders = xcalloc(n ? n : 1, sizeof(*folders));
	for (size_t i = 0; i < n; i++) {
		if (is_rows_file(operands[i]))
			continue;
		series[i] = is_series(operands[i]);
		folders[i] = series[i] ? NULL : series_of_folder(operands[i]);
		if (series[i] || folders[i])
			continue;
		if (others < 2)
			pair[others] = operands[i];
		others++;
	}
	int rc = 0;
	if (others != 0 && others != 2)
		rc = diag_set(err, DIAG_USAGE, NULL, 0, 0,
			      "%zu input%s that %s not NDJSON rows of signatures or of diff, nor "
			      "series: give two (BEFORE AFTER: folders, bundles or files), or none",
			      others, others == 1 ? "" : "s", others == 1 ? "is" : "are");
	if (rc == 0 && others == 2 && diff_pairs_build(&in->pairs, pair[0], pair[1], err) < 0)
		rc = -1;
	for (size_t i = 0; i < n && rc == 0; i++) {
		if (series[i] || folders[i]) {
			for (char **p = folders[i]; p && *p; p++) {
				in->owned = xgrow(in->owned, &in->owned_alloc, in->nowned + 1,
						  sizeof(*in->owned));
				in->owned[in->nowned++] = *p;
			}
			if (series[i])
				add_unit(in, &alloc, (struct signature_input){ SIGNATURE_INPUT_SERIES,
									       NULL, operands[i] });
			for (char **p = folders[i]; p && *p; p++)
				add_unit(in, &alloc, (struct signature_input){ SIGNATURE_INPUT_SERIES,
									       NULL, *p });
			free(folders[i]);
			folders[i] = NULL;
			continue;
		}
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
	for (size_t i = 0; i < n; i++) {
		for (char **p = folders[i]; p && *p; p++)
			free(*p);
		free(folders[i]);
	}
	free(folders);
	free(series);
	return rc;
}

void
signature_inputs_release(struct signature_inputs *in)
{
	diff_pairs_release(&in->pairs);
	for (size_t i = 0; i < in->nowned; i++)
		free(in->owned[i]);
	free(in->owned);
	free(in->v);
	memset(in, 0, sizeof(*in));
}

bool
signature_inputs_parallel(const struct signature_inputs *in)
{
	for (size_t i = 0; i < in->n; i++)
		if (in->v[i].type == SIGNATURE_INPUT_SERIES)
			return false;
	return true;
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
	struct pair_open p;
	const struct pair_open_opts o = { .command = "signatures", .needs = "a pair needs" };
	pair_open_init(&p);
	int rc = pair_open_compare(&p, pair->before, pair->after, &o, notes, err);
	if (p.kind)
		*kind_name = p.kind->name;   /* a pair of one kind that failed to compare too */
	if (rc == 0) {
		if (p.kind->signature)
			p.kind->signature(p.diff, sig);
		signature_finish(sig);
	}
	pair_open_close(&p);
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
	struct diff_pair pair = { .before = (char *)first, .after = (char *)last };
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
		signature_add(sig, pairsig.c[i].section, pairsig.c[i].key, pairsig.c[i].bytes,
			      pairsig.c[i].count);
	if (rc == 0 && pairsig.n) {
		signature_add(sig, SIGNATURE_TREND, verdict, 0, 0);
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

/*
 * One record of a kind of a series: trend's verdicts (the defaults of
 * `iotally trend`), then the series' signature (signature_of_series): its
 * first and last samples compared when the verdict that names it
 * (signature_series_verdict) is LEAK, GROWING or PLATEAU, else no growth.
 */
static void
series_kind_record(const char *path, const char *kind, struct app_bundles *bs,
		   struct signature_result *res)
{
	struct trend_kind_run t;
	struct diag err;
	struct signature sig;
	diag_clear(&err);
	signature_init(&sig);
	memset(&t, 0, sizeof(t));
	res->recs = xgrow(res->recs, &res->alloc, res->n + 1, sizeof(*res->recs));
	struct signature_record *rec = &res->recs[res->n++];
	memset(rec, 0, sizeof(*rec));
	struct strbuf name = STRBUF_INIT;
	strbuf_addf(&name, "%s (%s)", path, kind);
	rec->name = strbuf_detach(&name, NULL);
	rec->kind = xstrdup(kind);
	/* One series of many a signatures run follows at once (-j N over the units): its
	 * samples are read one after the other. */
	int rc = trend_kind_run(&t, &path, 1, kind, 1, bs, NULL, NULL, &res->notes, &err);
	if (rc == 0 && t.s.nsamples >= 2) {
		const char *first = t.in[t.o.perm[0]].path;
		const char *last = t.in[t.o.perm[t.s.nsamples - 1]].path;
		enum trend_verdict best = signature_series_verdict(&t.s);
		rec->before = xstrdup(first);
		rec->after = xstrdup(last);
		rc = signature_of_series(first, last, best == TREND_VERDICTS ? NULL :
					 trend_verdict_name(best), &sig, &res->notes, &err);
	}
	if (rc < 0) {
		rec->error = xstrdup(err.msg);
		res->err = err;
	} else {
		signature_record_take(rec, &sig);
	}
	signature_release(&sig);
	trend_kind_run_release(&t);
}

/* Every kind a series holds, each its own record (one signature per kind, as trend's). */
static void
run_series(const char *path, struct signature_result *res)
{
	struct app_bundles bs;
	const char *kinds[KINDS_MAX];
	app_bundles_init(&bs);
	size_t nk = trend_run_bundle_kinds(&path, 1, &bs, kinds, KINDS_MAX);
	for (size_t k = 0; k < nk; k++)
		series_kind_record(path, kinds[k], &bs, res);
	if (nk == 0) {
		diag_set(&res->err, DIAG_DATA, path, 0, 0,
			 "the series holds no capture iotally follows over time");
		res->recs = xgrow(res->recs, &res->alloc, res->n + 1, sizeof(*res->recs));
		struct signature_record *rec = &res->recs[res->n++];
		memset(rec, 0, sizeof(*rec));
		rec->name = xstrdup(path);
		rec->error = xstrdup(res->err.msg);
	}
	app_bundles_release(&bs);
}

void
signature_input_run(const struct signature_inputs *in, size_t i, struct signature_result *res)
{
	const struct signature_input *u = &in->v[i];
	if (u->type == SIGNATURE_INPUT_PAIR)
		run_pair(u->pair, in->pairs.bundles[1], res);
	else if (u->type == SIGNATURE_INPUT_SERIES)
		run_series(u->path, res);
	else
		run_rows(u->path, res);
}
