/*
 * Capture bundles as command operands: `iotally vmmap BUNDLE` reads the
 * bundle's vmmap capture, `iotally BUNDLE` lists what a bundle holds and
 * runs the command of each capture in it.
 */

#include "cli/bundle_args.h"

#include "app/bundle_inputs.h"
#include "app/kind.h"
#include "cli/commands.h"
#include "cli/msgs.h"
#include "ingest/bundle.h"
#include "util/array.h"
#include "util/diag.h"
#include "util/escape.h"
#include "util/linereader.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Say what checking the bundles found, then the error when there is one. */
static int
say(struct diag_list *warnings, int rc, const struct diag *err)
{
	cli_print_warnings(warnings);
	diag_list_release(warnings);
	if (rc < 0) {
		cli_print_diag(err);
		return err->code;
	}
	return 0;
}

bool
cli_command_reads_bundles(const char *name)
{
	return kind_by_name(name) != NULL;
}

int
cli_bundle_operands(const char *kind, int argc, char **argv, struct app_bundles *bs)
{
	for (int i = 1; i < argc; i++) {
		if (argv[i][0] == '-' || !bundle_path_is_bundle(argv[i]))
			continue;
		/* At most one warning per capture checked: bounded by the operands. */
		struct diag_list warnings;
		struct diag err;
		const char *capture = NULL;
		diag_list_init(&warnings, SIZE_MAX);
		int rc = say(&warnings, app_bundle_operand(kind, argv[i], bs, &capture, &warnings,
							   &err), &err);
		if (rc)
			return rc;
		argv[i] = (char *)capture;
	}
	return 0;
}

int
cli_bundle_trend_inputs(const char *const *paths, size_t n, const char *kind,
			struct app_bundles *bs, struct app_bundle_inputs *out)
{
	for (size_t i = 0; i < n; i++) {
		struct diag_list warnings;
		struct diag err;
		diag_list_init(&warnings, SIZE_MAX);
		int rc = say(&warnings, app_bundle_trend_inputs_add(out, paths[i], &kind, bs,
								    &warnings, &err), &err);
		if (rc)
			return rc;
	}
	return 0;
}

void
cli_bundle_listing(const struct bundle *b, const char *indent)
{
	/* Every name here comes from the manifest: cli_out_line() escapes it. */
	cli_out_line(stdout, "%s%s: %s capture%s%s started %s", indent, b->path,
		     b->complete ? "complete" : "partial",
		     b->target_name ? " of " : " (system-wide)",
		     b->target_name ? b->target_name : "",
		     b->started_utc ? b->started_utc : "at an unknown time");
	for (size_t i = 0; i < b->ncaptures; i++)
		cli_out_line(stdout, "%s  %-8s %s (step %s)", indent, b->captures[i].kind,
			     b->captures[i].member, b->captures[i].step);
	if (b->ncaptures == 0)
		cli_out_line(stdout, "%s  no capture an iotally command reads", indent);
	for (size_t i = 0; i < b->nmissed; i++)
		cli_out_line(stdout, "%s  %-8s %s: %s%s%s%s", indent,
			     b->missed[i].kind ? b->missed[i].kind : "-", b->missed[i].step,
			     b->missed[i].status, b->missed[i].reason ? " (" : "",
			     b->missed[i].reason ? b->missed[i].reason : "",
			     b->missed[i].reason ? ")" : "");
}

/* Text from a capture (a class name in a verdict) with its control bytes escaped. */
static void
print_quoted(const char *s)
{
	struct strbuf sb = STRBUF_INIT;
	diag_quote(&sb, s, strlen(s), SIZE_MAX);
	fputs(sb.buf, stdout);
	strbuf_release(&sb);
}

/* "  iotally COMMAND PATH", PATH quoted for a shell when it needs to be. */
static void
print_command(const char *command, const char *path, const char *comment)
{
	bool plain = path[0] != '\0';
	for (const char *p = path; *p && plain; p++)
		plain = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
			(*p >= '0' && *p <= '9') || strchr("_./-+:=,@%", *p);
	printf("  iotally %s ", command);
	if (plain) {
		fputs(path, stdout);
	} else if (!escape_is_clean(path, strlen(path))) {
		escape_puts(stdout, path);   /* not for pasting: a control byte never reaches the terminal */
	} else {
		putchar('\'');
		for (const char *p = path; *p; p++) {
			if (*p == '\'')
				fputs("'\\''", stdout);
			else if (*p == '\\')
				putchar('\\');   /* literal inside '...' */
			else
				print_quoted((char[]){ *p, '\0' });
		}
		putchar('\'');
	}
	printf("%s\n", comment);
}

/* One capture of a bundle read into a report of its own. */
struct headline {
	const struct kind *k;
	const struct bundle_capture *c;
	struct report r;
	bool read;
};

/*
 * Read each capture of the bundle into its report, as `iotally report`
 * does; warnings and failures said on standard error as they come. The
 * exit status of the first capture that cannot be read, else 0.
 */
static int
read_headlines(const struct bundle *b, struct headline *h, size_t *n)
{
	int status = 0;
	*n = 0;
	for (const struct kind *k = kind_first(); k; k = kind_next(k)) {
		const struct bundle_capture *c = bundle_capture_of_kind(b, k->name);
		if (!c)
			continue;
		struct headline *x = &h[(*n)++];
		struct diag_list notes;
		struct diag err;
		x->k = k;
		x->c = c;
		report_init(&x->r, k->name, false);
		diag_list_init(&notes, 50);
		fflush(stdout);
		int rc = kind_report_capture(&x->r, c, &notes, &err);
		cli_print_warnings(&notes);
		x->read = rc >= 0;
		if (rc < 0) {
			cli_print_diag(&err);
			if (!status)
				status = err.code ? err.code : DIAG_SOFTWARE;
		}
		diag_list_release(&notes);
	}
	return status;
}

/* The summary block of every capture read (model/summary.h), first. */
static void
print_summary(const struct headline *h, size_t n)
{
	struct summary_facts all;
	summary_facts_init(&all, false);
	for (size_t i = 0; i < n; i++)
		if (h[i].read)
			summary_facts_merge(&all, &h[i].r.facts);
	struct summary s;
	summary_build(&all, &s);
	for (size_t i = 0; i < s.n; i++) {
		print_quoted(s.lines[i].text);
		putchar('\n');
	}
	if (s.n)
		putchar('\n');
	summary_release(&s);
	summary_facts_release(&all);
}

/*
 * Each capture's headline: the verdict and warnings `iotally report` gives
 * it, then the commands that print the full tables.
 */
static void
print_headlines(const struct bundle *b, const struct headline *h, size_t n)
{
	size_t shown = 0;
	for (size_t i = 0; i < n; i++) {
		if (!h[i].read)
			continue;
		const struct report *r = &h[i].r;
		printf("%s%-8s ", shown++ ? "" : "\n", h[i].k->name);
		escape_puts(stdout, h[i].c->member);   /* the manifest's words: untrusted */
		fputs(": ", stdout);
		print_quoted(r->verdict ? r->verdict : "read");
		putchar('\n');
		for (size_t w = 0; w < r->nwarnings; w++) {
			fputs("         warning: ", stdout);
			print_quoted(r->warnings[w]);
			putchar('\n');
		}
	}
	if (shown) {
		fputs("\nThe full tables:\n", stdout);
		for (const struct kind *k = kind_first(); k; k = kind_next(k))
			if (bundle_capture_of_kind(b, k->name))
				print_command(k->name, b->path, "");
		print_command("report", b->path, "   # all in one report");
	}
}

/* The summary first, then what the bundle holds, then each capture's headline. */
static int
print_bundle(const struct bundle *b)
{
	size_t kinds = 0, n;
	for (const struct kind *k = kind_first(); k; k = kind_next(k))
		kinds++;
	struct headline *h = xcalloc(kinds + 1, sizeof(*h));
	int status = read_headlines(b, h, &n);
	print_summary(h, n);
	cli_bundle_listing(b, "");
	print_headlines(b, h, n);
	for (size_t i = 0; i < n; i++)
		report_release(&h[i].r);
	free(h);
	return status;
}

int
cli_run_bundle(int argc, char **argv)
{
	struct app_bundles bs;
	struct diag err;
	int status = 0;

	app_bundles_init(&bs);
	if (argc > 2) {
		diag_set(&err, DIAG_USAGE, NULL, 0, 0,
			 "'%s' is a capture bundle: options go to one command, so name it "
			 "(iotally vmmap|classes|track %s %s...)", argv[1], argv[1], argv[2]);
		return cli_usage_error(NULL, &err);
	}
	const struct bundle *b = app_bundles_open(&bs, argv[1], &err);
	if (!b) {
		cli_print_diag(&err);
		return err.code;
	}
	if (b->series) {
		cli_out_line(stdout, "%s: series of %zu samples (%s), in time order:", b->path,
			     b->nsamples, b->complete ? "complete" : "partial");
		for (size_t i = 0; i < b->nsamples; i++)
			cli_bundle_listing(&b->samples[i], "  ");
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
