/*
 * `iotally track`: saved `ioclasscount --track / --leaks / --maps=PID`
 * captures, filtered, suppressed and aggregated offline. The kind's
 * command row (app/kind_command.h); cli/cmd_kind.c runs it.
 */

#include "app/kind_command.h"

#include "app/sources.h"
#include "model/diff_track.h"
#include "model/report_track.h"
#include "ingest/track_read.h"
#include "model/suppress.h"
#include "model/track.h"
#include "report/track_folded.h"
#include "report/track_json_write.h"
#include "report/track_ndjson_write.h"
#include "report/track_text.h"
#include "util/array.h"
#include "util/diag.h"
#include "util/diag_write.h"
#include "util/linereader.h"
#include "util/optval.h"
#include "util/size.h"
#include "util/xalloc.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char track_help[] =
	"usage: iotally track [options] FILE|- [NAME...]\n"
	"       iotally track --format ndjson [options] FILE|FOLDER|BUNDLE|-...\n"
	"\n"
	"Reads a saved 'ioclasscount --track', '--leaks' or '--maps=PID' capture\n"
	"(every IOKitTools layout from 97 to 125) and prints its records again in\n"
	"ioclasscount's own layout, largest first, so a filtered capture is still\n"
	"a capture; then the total of what is shown, and the capture's own total\n"
	"when the two differ.\n"
	"\n"
	"NAME operands keep the records of these tracking categories: a class\n"
	"name (the record's '<Class>::gMetaClass' frame), IOMalloc, IOWire or IOMap\n"
	"where the capture tells them apart.\n"
	"\n"
	"Options:\n"
	"  --site S         keep records whose text contains S (a symbol, module or\n"
	"                   address); repeatable, any of them matches\n"
	"  --ignore S       drop records whose text contains S; repeatable\n"
	"  --size N         keep records of at least N bytes (0x1000, 4096, 64K, 1M)\n"
	"  --exclude        NAME operands say which categories to drop instead\n"
	"  --suppress FILE  hide records matching a known-leak pattern and count them\n"
	"                   apart; one substring or 're:' PCRE2 pattern a line, '#'\n"
	"                   comments\n"
	"  --by KEY         sum bytes per 'module' (first kext of each backtrace, else\n"
	"                   the kernel), 'symbol' (self and inclusive) or 'class'\n"
	"  --folded         folded stacks for flame graphs: 'f;f;...;f BYTES',\n"
	"                   outermost caller first, symbols without offsets\n"
	"  --top N          only the N largest records, rows or stacks\n"
	"  --format F       text (default), json, markdown (call sites and modules\n"
	"                   as GitHub tables, as 'iotally report' writes them) or\n"
	"                   ndjson (rows for DuckDB, Spark or BigQuery:\n"
	"                   docs/json/track-ndjson.md)\n"
	"  --strict         a line that does not parse is an error (exit 65)\n"
	"  --tag, --zsize   refused: they act inside the kernel at capture time\n"
	"  -j, --jobs N     read N inputs at once (--format ndjson; default: one\n"
	"                   per processor, 1: one after the other); the output is\n"
	"                   the same\n"
	"  -h, --help       show this help\n"
	"\n"
	"Examples:\n"
	"  iotally track fixtures/track/ioclasscount-125-track-osdata.txt\n"
	"  iotally track --by module fixtures/track/ioclasscount-125-track-all.txt\n"
	"  iotally track --folded fixtures/track/ioclasscount-125-track-all.txt\n"
	"  iotally track --site IOSurface --size 64K fixtures/track/ioclasscount-125-track-all.txt OSDictionary\n"
	"\n"
	"  iotally track --format ndjson --top 5 fixtures/diff-folders/before fixtures/diff-folders/after\n"
	"\n"
	"Several inputs: --format ndjson takes any number of files, folders of\n"
	"captures (read in name order; captures of other kinds in them are\n"
	"skipped with a note) and capture bundles, and writes one row per line:\n"
	"an 'input' row per input, then one 'site' row per call site (records\n"
	"with the same backtrace, matched as 'iotally diff' matches them), largest\n"
	"first (--site, --ignore, --size, --suppress and --top apply). Every\n"
	"operand is then an input (no NAME operands). An input that cannot be\n"
	"read is said on standard error and gets an 'input' row with status\n"
	"'error'; the others are still read, and the exit status is the first\n"
	"error's. The other formats read one input (a folder is a usage error).\n"
	"\n"
	"Flame graph: iotally track --folded capture.txt | flamegraph.pl > allocations.svg\n"
	"Records are listed largest first, so the listing keeps every shown record\n"
	"in memory (one compact copy each); --by, --folded and --top N keep only\n"
	"what they print.\n"
	"\n"
	"Exit status: 0 success (also when no record matches), 64 usage error,\n"
	"65 malformed input, 66 input cannot be opened, 74 output cannot be written;\n"
	"with several inputs, the first error's.\n";

enum {
	OPT_SITE = 1,
	OPT_IGNORE,
	OPT_SIZE,
	OPT_EXCLUDE,
	OPT_SUPPRESS,
	OPT_BY,
	OPT_FOLDED,
	OPT_TOP,
	OPT_STRICT,
	OPT_TAG,
	OPT_ZSIZE,
};

static const struct kind_command_option track_options[] = {
	{ "site", 0, true, OPT_SITE },
	{ "ignore", 0, true, OPT_IGNORE },
	{ "size", 0, true, OPT_SIZE },
	{ "exclude", 0, false, OPT_EXCLUDE },
	{ "suppress", 0, true, OPT_SUPPRESS },
	{ "by", 0, true, OPT_BY },
	{ "folded", 0, false, OPT_FOLDED },
	{ "top", 0, true, OPT_TOP },
	{ "format", 0, true, KIND_OPT_FORMAT },
	{ "strict", 0, false, OPT_STRICT },
	{ "jobs", 'j', true, KIND_OPT_JOBS },
	{ "tag", 0, true, OPT_TAG },
	{ "zsize", 0, true, OPT_ZSIZE },
	{ "help", 'h', false, KIND_OPT_HELP },
};

struct track_args {
	const char *path;         /* the input being read */
	struct ndjson_source origin;   /* its rows' source, side and pair */
	bool ndjson;
	const char *suppress_path;
	bool json;
	bool markdown;
	bool folded;
	bool strict;
	uint64_t top;
};

/* The command's options: the flags, and the capture every input is read like. */
struct track_opts {
	struct track_args a;
	struct track_capture like;   /* filters and what to aggregate */
	struct suppress_list sup;
};

static int
parse_by(const char *s, enum track_by *by, struct diag *err)
{
	static const char *const names[] = { "module", "symbol", "class" };
	static const enum track_by values[] = { TRACK_BY_MODULE, TRACK_BY_SYMBOL, TRACK_BY_CLASS };
	int i = optval_choice("--by key", s, names, ARRAY_SIZE(names), err);
	if (i < 0)
		return -1;
	*by = values[i];
	return 0;
}

static int
parse_size_option(const char *opt, const char *s, uint64_t *v, struct diag *err)
{
	if (size_parse_user(s, v) != SIZE_OK)
		return diag_set(err, DIAG_USAGE, NULL, 0, 0,
				"%s needs a size or count such as 4096, 0x1000, 64K or 1M; got '%s'",
				opt, s);
	return 0;
}

static int
capture_time_only(const char *opt, struct diag *err)
{
	return diag_set(err, DIAG_USAGE, NULL, 0, 0,
			"--%s only acts at capture time in the kernel (ioclasscount --track "
			"--%s=... on the Mac); a saved capture holds no %s to filter by",
			opt, opt, strcmp(opt, "tag") == 0 ? "VM tags" : "zone element sizes");
}

static int
handle_option(int id, const char *arg, struct track_args *a, struct track_capture *cap,
	      struct diag *err)
{
	struct track_filter *f = &cap->filter;
	switch (id) {
	case OPT_SITE:
		track_filter_add(&f->sites, &f->nsites, arg);
		return 0;
	case OPT_IGNORE:
		track_filter_add(&f->ignores, &f->nignores, arg);
		return 0;
	case OPT_SIZE:
		return parse_size_option("--size", arg, &f->min_bytes, err);
	case OPT_EXCLUDE:
		f->exclude = true;
		return 0;
	case OPT_SUPPRESS:
		if (a->suppress_path)
			return diag_set(err, DIAG_USAGE, NULL, 0, 0, "--suppress given twice");
		a->suppress_path = arg;
		return 0;
	case OPT_BY:
		return parse_by(arg, &cap->by, err);
	case OPT_FOLDED:
		a->folded = true;
		return 0;
	case OPT_TOP:
		return optval_positive_count("--top", arg, &a->top, err);
	case OPT_STRICT:
		a->strict = true;
		return 0;
	case OPT_TAG:
		return capture_time_only("tag", err);
	case OPT_ZSIZE:
		return capture_time_only("zsize", err);
	default:
		return 0;
	}
}

static void
init(void *opts)
{
	struct track_opts *o = opts;
	track_capture_init(&o->like);
	suppress_list_init(&o->sup);
}

static int
take(void *opts, int id, const char *arg, struct diag *err)
{
	struct track_opts *o = opts;
	return handle_option(id, arg, &o->a, &o->like, err);
}

/* The category NAMEs, and the combinations of options. */
static int
check(void *opts, const struct kind_command_args *ka, struct diag *err)
{
	struct track_opts *o = opts;
	struct track_args *a = &o->a;
	struct track_capture *cap = &o->like;
	a->json = ka->format == FORMAT_JSON;
	a->markdown = ka->format == FORMAT_MARKDOWN;
	a->ndjson = ka->format == FORMAT_NDJSON;
	for (size_t i = 0; i < ka->nnames; i++)
		track_filter_add(&cap->filter.names, &cap->filter.nnames, ka->names[i]);
	if (a->ndjson && (a->folded || cap->by != TRACK_BY_NONE || cap->filter.exclude))
		return diag_set(err, DIAG_USAGE, NULL, 0, 0,
				"--format ndjson writes one row per call site: it does not "
				"combine with --by, --folded or --exclude");
	if (a->folded && (cap->by != TRACK_BY_NONE || a->json))
		return diag_set(err, DIAG_USAGE, NULL, 0, 0,
				"--folded is an output of its own: it does not combine with --by "
				"or --format json");
	if (a->markdown && (a->folded || cap->by != TRACK_BY_NONE))
		return diag_set(err, DIAG_USAGE, NULL, 0, 0,
				"--format markdown reports call sites and modules together; it "
				"does not combine with --by or --folded");
	if (a->folded)
		cap->by = TRACK_BY_FOLDED;
	cap->keep_records = cap->by == TRACK_BY_NONE && !a->ndjson;
	cap->top = cap->keep_records ? a->top : 0;
	return 0;
}

static int
load_suppressions(const char *path, struct suppress_list *s, struct diag *err)
{
	struct line_reader r;
	struct line ln;
	int rc;
	if (line_reader_open(&r, path, 0, err) < 0)
		return -1;
	while ((rc = line_reader_next(&r, &ln, err)) > 0)
		if (suppress_list_add_line(s, ln.p, ln.len, path, ln.no, err) < 0) {
			rc = -1;
			break;
		}
	line_reader_close(&r);
	return rc;
}

static int
prepare(void *opts, const struct kind_command_args *ka, struct diag *err)
{
	struct track_opts *o = opts;
	(void)ka;
	if (!o->a.suppress_path)
		return 0;
	if (load_suppressions(o->a.suppress_path, &o->sup, err) < 0)
		return -1;
	o->like.suppress = &o->sup;
	return 0;
}

/* What the filters did, on stderr, so stdout stays a capture. */
static void
print_notes(const struct track_capture *cap, const struct track_args *a,
	    const struct suppress_list *sup, FILE *err)
{
	const char *path = a->path;
	const struct track_filter *f = &cap->filter;
	if (cap->nrecords == 0)
		diag_write_msg(err, DIAG_NOTE, path, 0, "the capture holds no records "
			 "(ioclasscount prints nothing when no call site matched)");
	else if (cap->shown_records == 0)
		diag_write_msg(err, DIAG_NOTE, path, 0, "no record matches the filters (%" PRIu64 " records read)",
			 cap->nrecords);
	if ((f->nnames || f->exclude) && cap->uncategorised)
		diag_write_msg(err, DIAG_NOTE, path, 0, "%" PRIu64 " record%s could not be assigned a category and %s %s",
			 cap->uncategorised, cap->uncategorised == 1 ? "" : "s",
			 f->exclude ? "are" : "are not", f->exclude ? "kept" : "shown");
	for (size_t i = 0; i < sup->len; i++)
		if (sup->items[i].records)
			diag_write_msg(err, DIAG_NOTE, a->suppress_path, sup->items[i].line,
				 "suppressed %" PRIu64 " record%s (0x%" PRIx64 " bytes): %s%s",
				 sup->items[i].records, sup->items[i].records == 1 ? "" : "s",
				 sup->items[i].bytes, sup->items[i].regex ? "re:" : "",
				 sup->items[i].text);
	if (cap->suppressed_records)
		diag_write_msg(err, DIAG_NOTE, path, 0, "%" PRIu64 " record%s (0x%" PRIx64 " bytes) hidden by suppressions",
			 cap->suppressed_records, cap->suppressed_records == 1 ? "" : "s",
			 cap->suppressed_bytes);
	if (cap->partial)
		diag_write_msg(err, DIAG_WARNING, path, 0, "results are partial: some of the input was not understood");
}

/* The shown records as call sites, as `iotally report` writes them. */
static int
write_markdown(const struct track_capture *cap, const struct track_args *a,
	       const struct kind_io *io)
{
	struct diff_track d;
	struct report r;
	struct diag err;
	int status = 0;
	diff_track_init(&d, false);
	if (diff_track_add_capture(&d, 1, cap, a->path, &err) < 0) {
		diag_write(io->err, &err);
		status = err.code;
	} else {
		report_init(&r, "track", false);
		report_add_track(&r, &d, NULL, cap);
		kind_report_provenance(&r, &a->path, 1);
		status = kind_report_write_markdown(io, &r);
		report_release(&r);
	}
	diff_track_release(&d);
	return status;
}

static int
write_report(const struct track_capture *cap, const struct track_args *a,
	     const struct kind_io *io)
{
	FILE *out = io->out;
	struct diag err;
	diag_clear(&err);
	if (a->markdown)
		return write_markdown(cap, a, io);
	if (a->json) {
		struct track_json_opts jo = { .path = a->path, .top = a->top };
		if (track_json_write(out, cap, &jo, &err) < 0) {
			diag_write(io->err, &err);
			return err.code;
		}
	} else if (cap->by == TRACK_BY_FOLDED) {
		track_folded_write(out, cap, a->top);
	} else if (cap->by != TRACK_BY_NONE) {
		track_text_write_groups(out, cap, a->top);
	} else {
		if (track_text_write_listing(out, cap, &err) < 0) {
			diag_write(io->err, &err);
			return err.code;
		}
	}
	return 0;
}

static void
capture_like(struct track_capture *to, const struct track_capture *from)
{
	const struct track_filter *f = &from->filter;
	track_capture_init(to);
	for (size_t i = 0; i < f->nsites; i++)
		track_filter_add(&to->filter.sites, &to->filter.nsites, f->sites[i]);
	for (size_t i = 0; i < f->nignores; i++)
		track_filter_add(&to->filter.ignores, &to->filter.nignores, f->ignores[i]);
	for (size_t i = 0; i < f->nnames; i++)
		track_filter_add(&to->filter.names, &to->filter.nnames, f->names[i]);
	to->filter.exclude = f->exclude;
	to->filter.min_bytes = f->min_bytes;
	to->suppress = from->suppress;
	to->by = from->by;
	to->keep_records = from->keep_records;
	to->top = from->top;
}

/* --format ndjson: every shown record goes to its call site. */
static int
add_to_sites(void *ctx, const struct track_record *r, const char *path, struct diag *err)
{
	return diff_track_add_record(ctx, 1, r, path, err);
}

static int
write_rows(FILE *out, const struct track_capture *cap, const struct diff_track *sites,
	   const struct track_args *a, struct diag *err)
{
	struct track_ndjson_input in = { .src = &a->origin, .cap = cap, .sites = sites,
					 .top = a->top };
	if (track_ndjson_write(out, &in) < 0)
		return diag_set(err, DIAG_IOERR, NULL, 0, 0, "cannot write output");
	return 0;
}

/* One input: parse it, write its report or rows, then the notes. */
static int
read_one(const void *opts, const struct kind_command_args *ka, struct app_source *src,
	 const struct kind_io *io, struct diag *err)
{
	const struct track_opts *run = opts;
	/* Copies: a->path and the suppressions' counts are this input's, and
	 * -j N reads several at once (the compiled patterns are shared). */
	struct track_args args = run->a;
	struct track_args *a = &args;
	struct suppress_list sup = run->sup;
	struct track_capture cap;
	struct diff_track sites;
	struct diag_list warnings;
	int rc;

	a->path = src->path;
	a->origin = kind_ndjson_source(src);
	(void)ka;
	capture_like(&cap, &run->like);
	sup.items = sup.len ? xmalloc(sup.len * sizeof(*sup.items)) : NULL;
	if (sup.len)
		memcpy(sup.items, run->sup.items, sup.len * sizeof(*sup.items));
	sup.alloc = sup.len;
	for (size_t i = 0; i < sup.len; i++)
		sup.items[i].records = sup.items[i].bytes = 0;
	if (cap.suppress)
		cap.suppress = &sup;
	diff_track_init(&sites, false);
	diag_list_init(&warnings, 200);
	if (a->ndjson) {
		cap.on_record = add_to_sites;
		cap.on_record_ctx = &sites;
	}
	struct track_parse_opts popts = { .strict = a->strict, .report_unparsed = 5 };
	rc = track_parse(&src->reader, &cap, &popts, &warnings, err);
	if (rc < 0) {
		diag_write_list(io->err, &warnings);
		src->refused = true;
		goto out;
	}
	track_capture_check_total(&cap, a->path, &warnings);
	diag_write_list(io->err, &warnings);
	if (cap.keep_records)
		track_capture_sort_kept(&cap);
	if (a->ndjson) {
		rc = write_rows(io->out, &cap, &sites, a, err);
	} else {
		int status = write_report(&cap, a, io);
		if (status) {
			diag_set(err, status, a->path, 0, 0, "could not be reported");
			rc = status;
		}
	}
	print_notes(&cap, a, &sup, io->err);
out:
	free(sup.items);
	diag_list_release(&warnings);
	diff_track_release(&sites);
	track_capture_release(&cap);
	return rc;
}

static void
release(void *opts)
{
	struct track_opts *o = opts;
	track_capture_release(&o->like);
	suppress_list_release(&o->sup);
}

const struct kind_command kind_track_command = {
	.summary = "kernel allocation call sites of ioclasscount --track/--leaks/--maps captures",
	.help = track_help,
	.options = track_options,
	.noptions = ARRAY_SIZE(track_options),
	.formats = FORMAT_BIT(FORMAT_TEXT) | FORMAT_BIT(FORMAT_JSON) | FORMAT_BIT(FORMAT_MARKDOWN) |
		   FORMAT_BIT(FORMAT_NDJSON),
	.no_input = "a saved ioclasscount --track/--leaks/--maps capture, or '-' for standard "
		    "input",
	.names_what = "category name",
	.empty_why = " (ioclasscount --track writes nothing when no call site matched, and an "
		     "empty file cannot be told from a capture that failed: nothing to report)",
	.error_row = track_ndjson_write_error,
	.opts_size = sizeof(struct track_opts),
	.init = init,
	.take = take,
	.check = check,
	.prepare = prepare,
	.read = read_one,
	.release = release,
};
