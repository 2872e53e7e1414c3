/*
 * Capture bundles as command operands: `iotally vmmap BUNDLE` reads the
 * bundle's vmmap capture, `iotally BUNDLE` lists what a bundle holds and
 * runs the command of each capture in it (the listing: app/listing.h
 * gathers, report/bundle_listing_write.h writes).
 */

#include "cli/bundle_args.h"

#include "app/bundle_inputs.h"
#include "app/listing.h"
#include "app/series_run.h"
#include "app/kind.h"
#include "app/kind_text.h"
#include "cli/commands.h"
#include "cli/msgs.h"
#include "ingest/bundle.h"
#include "report/bundle_listing_write.h"
#include "util/array.h"
#include "util/diag.h"
#include "util/escape.h"
#include "util/linereader.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool
cli_command_reads_bundles(const char *name)
{
	return kind_by_name(name) != NULL;
}

int
cli_bundle_operands(const char *kind, int argc, char **argv, struct app_bundles *bs)
{
	/* At most one warning per capture checked: bounded by the operands. */
	struct diag_list warnings;
	struct diag err;
	diag_list_init(&warnings, SIZE_MAX);
	int rc = app_bundle_operands(kind, argc, argv, bs, &warnings, &err);
	cli_print_warnings(&warnings);
	diag_list_release(&warnings);
	if (rc < 0)
		cli_print_diag(&err);
	return rc < 0 ? err.code : 0;
}

void
cli_bundle_listing(const struct bundle *b, const char *indent)
{
	struct listing_bundle v;
	app_listing_bundle_view(b, &v);
	bundle_listing_write(stdout, &v, indent);
	app_listing_bundle_view_release(&v);
}

/* Each capture's notes and errors on standard error, in the order they were read. */
static void
say_read(const struct app_bundle_listing *l)
{
	for (size_t i = 0; i < l->n; i++) {
		cli_print_warnings(&l->caps[i].notes);
		if (!l->caps[i].read)
			cli_print_diag(&l->caps[i].err);
	}
}

/* The summary first, then what the bundle holds, then each capture's headline. */
static int
print_bundle(const struct bundle *b)
{
	struct app_bundle_listing l;
	struct summary_facts all;
	struct summary s;
	app_bundle_listing_read(b, &l);
	fflush(stdout);
	say_read(&l);
	summary_facts_init(&all, false);
	app_bundle_listing_facts(&l, &all);
	summary_build(&all, &s);
	summary_block_write(stdout, &s);
	cli_bundle_listing(b, "");
	struct bundle_headline *h = xcalloc(l.n + 1, sizeof(*h));
	const char **kinds = xcalloc(l.n + 1, sizeof(*kinds));
	for (size_t i = 0; i < l.n; i++) {
		h[i] = (struct bundle_headline){ l.caps[i].k->name, l.caps[i].c->member,
						 l.caps[i].read ? &l.caps[i].r : NULL };
		kinds[i] = l.caps[i].k->name;
	}
	bundle_headlines_write(stdout, b->path, h, l.n, kinds, l.n);
	free(h);
	free(kinds);
	summary_release(&s);
	summary_facts_release(&all);
	int status = l.status;
	app_bundle_listing_release(&l);
	return status;
}

/* A series: its summary (verdict, rate and cost), then its samples in time order. */
static int
print_series(const struct bundle *b)
{
	struct summary_facts f;
	struct summary s;
	struct diag_list notes;
	summary_facts_init(&f, false);
	diag_list_init(&notes, 50);
	app_series_listing_facts(b, &f, &notes);
	fflush(stdout);
	cli_print_warnings(&notes);
	summary_build(&f, &s);
	summary_block_write(stdout, &s);
	cli_out_line(stdout, "%s: series of %zu samples (%s), in time order:", b->path,
		     b->nsamples, b->complete ? "complete" : "partial");
	for (size_t i = 0; i < b->nsamples; i++)
		cli_bundle_listing(&b->samples[i], "  ");
	summary_release(&s);
	summary_facts_release(&f);
	diag_list_release(&notes);
	return 0;
}

int
cli_run_bundle(int argc, char **argv)
{
	struct app_bundles bs;
	struct diag err;
	int status = 0;

	app_bundles_init(&bs);
	if (argc > 2) {
		struct strbuf kinds = STRBUF_INIT;
		kind_names_join(&kinds, KIND_PICK_ALL, "|", "|");
		diag_set(&err, DIAG_USAGE, NULL, 0, 0,
			 "'%s' is a capture bundle: options go to one command, so name it "
			 "(iotally %s %s %s...)", argv[1], kinds.buf, argv[1], argv[2]);
		strbuf_release(&kinds);
		return cli_usage_error(NULL, &err);
	}
	const struct bundle *b = app_bundles_open(&bs, argv[1], &err);
	if (!b) {
		cli_print_diag(&err);
		return err.code;
	}
	if (b->series) {
		status = print_series(b);
		goto out;
	}
	status = print_bundle(b);
	struct diag_list warnings;
	diag_list_init(&warnings, 1);
	app_bundle_warn_partial(b, &warnings);
	cli_print_warnings(&warnings);
	diag_list_release(&warnings);
out:
	app_bundles_release(&bs);
	return status;
}
