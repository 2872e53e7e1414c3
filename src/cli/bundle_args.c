/*
 * Capture bundles as command operands: `iotally vmmap BUNDLE` reads the
 * bundle's vmmap capture, `iotally BUNDLE` lists what a bundle holds and
 * runs the command of each capture in it.
 */

#include "cli/bundle_args.h"

#include "cli/commands.h"
#include "cli/msgs.h"
#include "cli/report_capture.h"
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

static const char *const bundle_commands[] = { "vmmap", "classes", "track" };

void
cli_bundles_init(struct cli_bundles *bs)
{
	memset(bs, 0, sizeof(*bs));
}

void
cli_bundles_release(struct cli_bundles *bs)
{
	for (size_t i = 0; i < bs->n; i++) {
		bundle_release(bs->v[i]);
		free(bs->v[i]);
	}
	free(bs->v);
	line_reader_unmap_all();
	memset(bs, 0, sizeof(*bs));
}

static struct bundle *
keep_open(struct cli_bundles *bs, const char *path, struct diag *err)
{
	struct bundle *b = xcalloc(1, sizeof(*b));
	if (bundle_open(path, b, err) < 0) {
		bundle_release(b);
		free(b);
		return NULL;
	}
	bs->v = xgrow(bs->v, &bs->alloc, bs->n + 1, sizeof(*bs->v));
	bs->v[bs->n++] = b;
	return b;
}

static void
warn_partial(const struct bundle *b)
{
	if (!b->complete)
		cli_warn(b->path, 0, "the capture did not complete (some steps failed or were cut "
			 "short; its manifest.json says which); reading what it holds");
}

/* Verify `c` and print what the check found. 0, or the exit status. */
static int
verify(const struct bundle_capture *c)
{
	struct diag_list warnings;
	struct diag err;
	diag_list_init(&warnings, 20);
	int rc = bundle_verify_capture(c, &warnings, &err);
	cli_print_warnings(&warnings);
	diag_list_release(&warnings);
	if (rc < 0) {
		cli_print_diag(&err);
		return err.code;
	}
	return 0;
}

bool
cli_command_reads_bundles(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(bundle_commands); i++)
		if (strcmp(bundle_commands[i], name) == 0)
			return true;
	return false;
}

int
cli_bundle_operands(const char *kind, int argc, char **argv, struct cli_bundles *bs)
{
	for (int i = 1; i < argc; i++) {
		if (argv[i][0] == '-' || !bundle_path_is_bundle(argv[i]))
			continue;
		struct diag err;
		struct bundle *b = keep_open(bs, argv[i], &err);
		if (!b) {
			cli_print_diag(&err);
			return err.code;
		}
		if (b->series) {
			diag_set(&err, DIAG_USAGE, argv[i], 0, 0,
				 "this is a series of %zu samples; name one of its sample folders "
				 "(run 'iotally %s' to list them)", b->nsamples, argv[i]);
			cli_print_diag(&err);
			return DIAG_USAGE;
		}
		const struct bundle_capture *c = bundle_capture_of_kind(b, kind);
		if (!c) {
			const struct bundle_step_note *m = bundle_missed_of_kind(b, kind);
			if (m)
				diag_set(&err, DIAG_NOINPUT, argv[i], 0, 0,
					 "the bundle holds no %s capture: its step %s was %s%s%s", kind,
					 m->step, m->status, m->reason ? ": " : "",
					 m->reason ? m->reason : "");
			else
				diag_set(&err, DIAG_NOINPUT, argv[i], 0, 0,
					 "the bundle holds no %s capture ('iotally %s' lists what it "
					 "holds)", kind, argv[i]);
			cli_print_diag(&err);
			return DIAG_NOINPUT;
		}
		warn_partial(b);
		int rc = verify(c);
		if (rc)
			return rc;
		argv[i] = c->path;
	}
	return 0;
}

/* The kind a trend of these bundles follows: the first the first bundle holds. */
static const char *
trend_kind(const struct bundle *b)
{
	const struct bundle *first = b->series ? (b->nsamples ? &b->samples[0] : NULL) : b;
	for (size_t k = 0; first && k < ARRAY_SIZE(bundle_commands); k++)
		if (bundle_capture_of_kind(first, bundle_commands[k]))
			return bundle_commands[k];
	return NULL;
}

static void
add_input(struct cli_bundle_input **v, size_t *n, size_t *alloc, const char *path,
	  const char *time, char *missing)
{
	*v = xgrow(*v, alloc, *n + 1, sizeof(**v));
	(*v)[(*n)++] = (struct cli_bundle_input){ path, time, missing, NULL };
}

/* A sample's name: its folder, or "ARCHIVE:top/NNN" inside an archive. */
static char *
sample_name(const struct bundle *b)
{
	struct strbuf sb = STRBUF_INIT;
	if (!b->archive) {
		strbuf_addstr(&sb, b->path);
	} else {
		size_t n = strlen(b->archive_top);
		strbuf_addf(&sb, "%s:%.*s", b->path, (int)(n && b->archive_top[n - 1] == '/' ? n - 1 : n),
			    b->archive_top);
	}
	return strbuf_detach(&sb, NULL);
}

/* One sample (or bundle): its capture of `kind`, checked, or why it has none. */
static int
add_sample(const struct bundle *b, const char *kind, struct cli_bundle_input **v, size_t *n,
	   size_t *alloc)
{
	const struct bundle_capture *c = bundle_capture_of_kind(b, kind);
	if (!c) {
		const struct bundle_step_note *m = bundle_missed_of_kind(b, kind);
		struct strbuf sb = STRBUF_INIT;
		if (m)
			strbuf_addf(&sb, "holds no %s capture: its step %s was %s%s%s", kind, m->step,
				    m->status, m->reason ? ": " : "", m->reason ? m->reason : "");
		else
			strbuf_addf(&sb, "holds no %s capture", kind);
		char *name = sample_name(b);
		add_input(v, n, alloc, name, b->started_utc, strbuf_detach(&sb, NULL));
		(*v)[*n - 1].sample = name;
		return 0;
	}
	int rc = verify(c);
	if (rc == 0)
		add_input(v, n, alloc, c->path, b->started_utc, NULL);
	return rc;
}

int
cli_bundle_trend_inputs(const char *const *paths, size_t n, const char *kind,
			struct cli_bundles *bs, struct cli_bundle_input **out, size_t *nout)
{
	size_t alloc = 0;
	int rc = 0;
	*out = NULL;
	*nout = 0;
	for (size_t i = 0; i < n && rc == 0; i++) {
		if (strcmp(paths[i], "-") == 0 || !bundle_path_is_bundle(paths[i])) {
			add_input(out, nout, &alloc, paths[i], NULL, NULL);
			continue;
		}
		struct diag err;
		struct bundle *b = keep_open(bs, paths[i], &err);
		if (!b) {
			cli_print_diag(&err);
			return err.code;
		}
		if (!kind && !(kind = trend_kind(b))) {
			cli_error(paths[i], 0, "holds no capture iotally reads ('iotally %s' lists "
				  "its steps)", paths[i]);
			return DIAG_NOINPUT;
		}
		warn_partial(b);
		if (!b->series)
			rc = add_sample(b, kind, out, nout, &alloc);
		for (size_t k = 0; b->series && k < b->nsamples && rc == 0; k++)
			rc = add_sample(&b->samples[k], kind, out, nout, &alloc);
	}
	return rc;
}

void
cli_bundle_inputs_free(struct cli_bundle_input *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(v[i].missing);
		free(v[i].sample);
	}
	free(v);
}

static void
print_listing(const struct bundle *b, const char *indent)
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

/*
 * Each capture's headline: the verdict and warnings `iotally report` gives
 * it, then the commands that print the full tables. The exit status of the
 * first capture that cannot be read (said on standard error), else 0.
 */
static int
print_headlines(const struct bundle *b)
{
	int status = 0;
	size_t shown = 0;
	for (size_t k = 0; k < ARRAY_SIZE(bundle_commands); k++) {
		const struct bundle_capture *c = bundle_capture_of_kind(b, bundle_commands[k]);
		if (!c)
			continue;
		struct report r;
		struct diag_list notes;
		struct diag err;
		report_init(&r, bundle_commands[k], false);
		diag_list_init(&notes, 50);
		fflush(stdout);
		int rc = cli_report_add_capture(&r, c, &notes, &err);
		cli_print_warnings(&notes);
		if (rc < 0) {
			cli_print_diag(&err);
			if (!status)
				status = err.code ? err.code : DIAG_SOFTWARE;
		} else {
			printf("%s%-8s ", shown++ ? "" : "\n", bundle_commands[k]);
			escape_puts(stdout, c->member);   /* the manifest's words: untrusted */
			fputs(": ", stdout);
			print_quoted(r.verdict ? r.verdict : "read");
			putchar('\n');
			for (size_t i = 0; i < r.nwarnings; i++) {
				fputs("         warning: ", stdout);
				print_quoted(r.warnings[i]);
				putchar('\n');
			}
		}
		diag_list_release(&notes);
		report_release(&r);
	}
	if (shown) {
		fputs("\nThe full tables:\n", stdout);
		for (size_t k = 0; k < ARRAY_SIZE(bundle_commands); k++)
			if (bundle_capture_of_kind(b, bundle_commands[k]))
				print_command(bundle_commands[k], b->path, "");
		print_command("report", b->path, "   # all in one report");
	}
	return status;
}

int
cli_run_bundle(int argc, char **argv)
{
	struct cli_bundles bs;
	struct diag err;
	int status = 0;

	cli_bundles_init(&bs);
	if (argc > 2) {
		diag_set(&err, DIAG_USAGE, NULL, 0, 0,
			 "'%s' is a capture bundle: options go to one command, so name it "
			 "(iotally vmmap|classes|track %s %s...)", argv[1], argv[1], argv[2]);
		return cli_usage_error(NULL, &err);
	}
	const struct bundle *b = keep_open(&bs, argv[1], &err);
	if (!b) {
		cli_print_diag(&err);
		return err.code;
	}
	if (b->series) {
		cli_out_line(stdout, "%s: series of %zu samples (%s), in time order:", b->path,
			     b->nsamples, b->complete ? "complete" : "partial");
		for (size_t i = 0; i < b->nsamples; i++)
			print_listing(&b->samples[i], "  ");
		goto out;
	}
	print_listing(b, "");
	status = print_headlines(b);
	warn_partial(b);
out:
	cli_bundles_release(&bs);
	return status;
}
