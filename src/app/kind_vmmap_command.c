/*
 * `iotally vmmap`: IOAccelerator / IOSurface memory of saved vmmap dumps,
 * grouped by purgeable state and by virtual size. The kind's command row
 * (app/kind_command.h); cli/cmd_kind.c runs it.
 */

#include "app/kind_command.h"

#include "app/sources.h"
#include "model/report_vmmap.h"
#include "ingest/vmmap_read.h"
#include "model/pick.h"
#include "model/vmmap.h"
#include "report/textfmt.h"
#include "report/vmmap_csv.h"
#include "report/vmmap_json_write.h"
#include "report/vmmap_ndjson_write.h"
#include "report/vmmap_text.h"
#include "util/array.h"
#include "util/diag.h"
#include "util/diag_write.h"
#include "util/escape.h"
#include "util/held_text.h"
#include "util/linereader.h"
#include "util/optval.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char vmmap_help[] =
	"usage: iotally vmmap [options] FILE|-\n"
	"       iotally vmmap --format ndjson [options] FILE|FOLDER|BUNDLE|-...\n"
	"\n"
	"Groups the IOAccelerator and IOSurface regions of a saved vmmap dump\n"
	"(vmmap -noCoalesce, -v, -w, -interleaved, -summary, -pages; every layout\n"
	"since report format 2.0) by purgeable state (N non-volatile, V volatile,\n"
	"E empty, - not purgeable) and by virtual size. Sizes come from region\n"
	"addresses (exact bytes), not from vmmap's rounded figures.\n"
	"\n"
	"Options:\n"
	"  --types T[,T...]   region types to report, matched as substrings of the\n"
	"                     type name; repeatable (default: IOAccelerator,IOSurface)\n"
	"  --all-types        report every region type\n"
	"  --format F         text (default), json, csv (a name starting with\n"
	"                     = + - @ gets a leading ', so spreadsheets do not\n"
	"                     evaluate it), markdown (GitHub tables, as\n"
	"                     'iotally report' writes them) or ndjson (rows for\n"
	"                     DuckDB, Spark or BigQuery: docs/json/vmmap-ndjson.md)\n"
	"  --surfaces         also group IOSurface regions by dimensions and pixel\n"
	"                     format, with page-rounding waste\n"
	"  --snapshot N       only the Nth dump of a file holding several (default:\n"
	"                     every dump, one report each); --dump N is the same\n"
	"  --strict           a line that looks like a region but does not parse is\n"
	"                     an error (exit 65) instead of a warning\n"
	"  -j, --jobs N       read N inputs at once (--format ndjson; default: one\n"
	"                     per processor, 1: one after the other); the output is\n"
	"                     the same\n"
	"  -h, --help         show this help\n"
	"\n"
	"A file holding several dumps gets one report per dump, each headed\n"
	"'=== Process: NAME [PID] ==='. Summary tables are read under either\n"
	"header layout, indented or '> '-quoted, and as bare 8-figure rows; a\n"
	"table cut before its TOTAL rows makes the result partial. When the\n"
	"default types leave out GPU memory of a dump ('owned unmapped\n"
	"(graphics)'), a note names it; --types 'IOAccelerator,IOSurface,(graphics)'\n"
	"shows it. Input that is no vmmap capture (vmmap's failure message, a\n"
	"leaks report) is refused with what it is. On a Mac, a live process can be\n"
	"piped in: 'vmmap -noCoalesce Safari | iotally vmmap -'.\n"
	"\n"
	"Several inputs: --format ndjson takes any number of files, folders of\n"
	"captures (read in name order; captures of other kinds in them are\n"
	"skipped with a note) and capture bundles (folders or archives, also\n"
	"inside a folder), and writes one row per line: an 'input' row per\n"
	"input, then per dump a 'dump' row (totals of the selected types), its\n"
	"'group' rows (type and purge state) and its 'summary' rows (vmmap's\n"
	"rounded summary table). An input that cannot be read is said on\n"
	"standard error and gets an 'input' row with status 'error'; the others\n"
	"are still read, and the exit status is the first error's. The other\n"
	"formats read one input (a folder is a usage error).\n"
	"\n"
	"Examples (the files are iotally's test fixtures):\n"
	"  iotally vmmap fixtures/vmmap/synthetic-gpu-purge-states.txt\n"
	"  iotally vmmap --types 'IOAccelerator (graphics)' --format json fixtures/vmmap/synthetic-three-dumps.txt\n"
	"  iotally vmmap --surfaces --types IOSurface fixtures/vmmap/macos26-agentstudio-iosurface-wide-lines.txt\n"
	"  iotally vmmap --all-types --format csv fixtures/vmmap/macos14.0-arm64-default-shared_library_demo.txt\n"
	"  iotally vmmap --format ndjson fixtures/diff-folders/before fixtures/bundle/complete.tar.gz\n"
	"\n"
	"Exit status: 0 success (also when no region matches), 64 usage error,\n"
	"65 malformed input, 66 input cannot be opened, 74 output cannot be written;\n"
	"with several inputs, the first error's.\n";

enum {
	OPT_TYPES = 1,
	OPT_ALL_TYPES,
	OPT_STRICT,
	OPT_SURFACES,
	OPT_SNAPSHOT,
};

static const struct kind_command_option vmmap_options[] = {
	{ "types", 0, true, OPT_TYPES },
	{ "all-types", 0, false, OPT_ALL_TYPES },
	{ "format", 0, true, KIND_OPT_FORMAT },
	{ "strict", 0, false, OPT_STRICT },
	{ "jobs", 'j', true, KIND_OPT_JOBS },
	{ "surfaces", 0, false, OPT_SURFACES },
	{ "snapshot", 0, true, OPT_SNAPSHOT },
	{ "dump", 0, true, OPT_SNAPSHOT },
	{ "help", 'h', false, KIND_OPT_HELP },
};

struct vmmap_args {
	enum output_format format;
	bool strict;
	bool surfaces;
	bool default_types;   /* no --types or --all-types given */
	uint64_t snapshot;    /* --snapshot N, 1-based; 0: every dump */
};

/* The command's options: the flags and the region types every input is read with. */
struct vmmap_opts {
	struct vmmap_args a;
	struct vmmap_filter filter;
};

/* "--types A,B" adds A and B; empty pieces are a usage error. */
static int
add_types(struct vmmap_filter *f, const char *list, struct diag *err)
{
	const char *p = list;
	for (;;) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);
		if (len == 0)
			return diag_set(err, DIAG_USAGE, NULL, 0, 0,
					"--types needs non-empty type names, got '%s'", list);
		vmmap_filter_add(f, p, len);
		if (!comma)
			return 0;
		p = comma + 1;
	}
}

static void
init(void *opts)
{
	vmmap_filter_init(&((struct vmmap_opts *)opts)->filter);
}

static int
take(void *opts, int id, const char *arg, struct diag *err)
{
	struct vmmap_args *a = &((struct vmmap_opts *)opts)->a;
	struct vmmap_filter *f = &((struct vmmap_opts *)opts)->filter;
	switch (id) {
	case OPT_TYPES:
		return add_types(f, arg, err);
	case OPT_ALL_TYPES:
		f->all = true;
		return 0;
	case OPT_STRICT:
		a->strict = true;
		return 0;
	case OPT_SNAPSHOT:
		return optval_positive_count("--snapshot", arg, &a->snapshot, err);
	case OPT_SURFACES:
		a->surfaces = true;
		return 0;
	default:
		return 0;
	}
}

static int
check(void *opts, const struct kind_command_args *ka, struct diag *err)
{
	struct vmmap_args *a = &((struct vmmap_opts *)opts)->a;
	struct vmmap_filter *f = &((struct vmmap_opts *)opts)->filter;
	a->format = ka->format;
	if (a->format == FORMAT_NDJSON && a->surfaces)
		return diag_set(err, DIAG_USAGE, NULL, 0, 0,
				"--surfaces is not part of the rows of --format ndjson (use "
				"--format json for the IOSurface groups)");
	if (f->ntypes == 0 && !f->all) {
		a->default_types = true;
		vmmap_filter_add(f, "IOAccelerator", strlen("IOAccelerator"));
		vmmap_filter_add(f, "IOSurface", strlen("IOSurface"));
	}
	return 0;
}

static void
add_type_list(struct strbuf *sb, const struct vmmap_filter *f)
{
	if (f->all)
		strbuf_addstr(sb, "(all types)");
	for (size_t i = 0; i < f->ntypes && !f->all; i++) {
		strbuf_addstr(sb, i ? ", " : "");
		escape_addstr(sb, f->types[i]);
	}
}

static bool
has_selected_row(const struct vmmap_dump *d, const struct vmmap_filter *f)
{
	for (size_t i = 0; i < d->nrows; i++)
		if (vmmap_dump_row_selected(d, f, i))
			return true;
	return false;
}

/*
 * Why a dump has no breakdown: no region lines at all, or none selected;
 * "(process NAME [PID])" when the input holds several dumps.
 */
static void
add_no_regions(struct strbuf *sb, const struct vmmap_dump *d, const struct vmmap_filter *f,
	       bool name_process)
{
	if (d->region_lines == 0 && d->nrows > 0) {
		strbuf_addstr(sb, "Summary-only dump: no region lines, so no per-region "
			      "purgeability breakdown or histogram");
		if (!has_selected_row(d, f)) {
			strbuf_addstr(sb, "; no summary row for types: ");
			add_type_list(sb, f);
		}
	} else if (d->region_lines == 0) {
		strbuf_addstr(sb, d->nfields ? "The dump holds no region lines and no summary "
					       "rows (only its header)" :
					       "The dump holds no region lines and no summary rows");
	} else {
		strbuf_addstr(sb, "No active regions found for types: ");
		add_type_list(sb, f);
	}
	if (name_process) {
		strbuf_addstr(sb, " (process ");
		vmmap_text_add_process(sb, d);
		strbuf_addch(sb, ')');
	}
	strbuf_addch(sb, '\n');
}

/* n in decimal, as printf's "%" PRIu64 " prints it. */
static void
add_u64(struct strbuf *sb, uint64_t n)
{
	char digits[20];
	size_t nd = 0;
	do {
		digits[sizeof(digits) - ++nd] = (char)('0' + (unsigned)(n % 10));
		n /= 10;
	} while (n);
	strbuf_add(sb, digits + sizeof(digits) - nd, nd);
}

/*
 * GPU memory the default types leave out: the note that names it, with
 * the option that shows it (as a note is written), or nothing.
 */
static void
add_gpu_left_out(struct strbuf *out, const struct vmmap_dump *d, const struct vmmap_filter *f,
		 const char *path, bool name_process)
{
	struct vmmap_left_out *lo;
	size_t n = vmmap_dump_gpu_left_out(d, f, &lo);
	if (n == 0)
		return;
	struct strbuf sb = STRBUF_INIT;
	strbuf_addstr(&sb, "the default types leave out GPU memory");
	if (name_process) {
		strbuf_addstr(&sb, " (process ");
		vmmap_text_add_process(&sb, d);
		strbuf_addch(&sb, ')');
	}
	strbuf_addch(&sb, ':');
	for (size_t i = 0; i < n; i++) {
		/* text_fixed() prints printf's "%.2f" by integer arithmetic: a file
		 * of many small dumps prints this note once per dump. */
		char mb[TEXT_FIXED_MAX];
		strbuf_addstr(&sb, i ? "; '" : " '");
		strbuf_addstr(&sb, lo[i].name);
		strbuf_addstr(&sb, "' ");
		strbuf_add(&sb, mb, text_fixed(mb, (double)lo[i].vsize / 1048576.0, 0, 2));
		strbuf_addstr(&sb, " MB");
		if (lo[i].has_count) {
			strbuf_addstr(&sb, " in ");
			add_u64(&sb, lo[i].count);
			strbuf_addstr(&sb, lo[i].count == 1 ? " region" : " regions");
		}
		if (lo[i].from_summary)
			strbuf_addstr(&sb, " (summary table)");
	}
	strbuf_addstr(&sb, "; --types 'IOAccelerator,IOSurface,(graphics)' shows them too, "
		      "--all-types every type");
	diag_format_prefix(out, DIAG_NOTE, path, 0, 0);
	escape_add(out, sb.buf, sb.len);
	strbuf_addch(out, '\n');
	strbuf_release(&sb);
	free(lo);
}

static void
print_gpu_left_out(const struct vmmap_capture *cap, const struct vmmap_dump *d,
		   const char *path, FILE *err)
{
	struct strbuf sb = STRBUF_INIT;
	add_gpu_left_out(&sb, d, &cap->filter, path, cap->ndumps > 1);
	fwrite(sb.buf, 1, sb.len, err);
	strbuf_release(&sb);
}

static void
copy_filter(struct vmmap_filter *to, const struct vmmap_filter *from)
{
	to->all = from->all;
	for (size_t i = 0; i < from->ntypes; i++)
		vmmap_filter_add(to, from->types[i], strlen(from->types[i]));
}

/*
 * Text, Markdown and CSV are written dump by dump, as the parse closes
 * each one, and the dump is freed: memory stays flat in the number of
 * dumps. One closed dump is held back until the next one closes or the
 * input ends, when it is known whether the input holds several (the
 * '=== Process' heading, the "(process ...)" of the notes). Standard
 * error keeps the order of a whole read: the warnings of the whole input
 * (the parse's, then the cross-checks'), the notes on GPU memory left
 * out, the notes on dumps without regions; the notes wait in held_text.
 * JSON and ndjson say whether the whole input is partial before its
 * first dump: they keep every dump.
 */
struct vmmap_stream {
	const struct vmmap_args *a;
	const struct kind_io *io;
	const char *path;
	struct diag_list checks;      /* cross-check warnings, printed after the parse's */
	struct held_text left_out;    /* add_gpu_left_out() notes */
	struct held_text no_regions;  /* add_no_regions() lines */
	struct vmmap_dump *held;      /* closed, not written yet */
	uint64_t closed;              /* dumps closed so far */
	size_t written;               /* dumps written so far */
	int status;                   /* the first Markdown write's failure */
};

static bool
streams(const struct vmmap_args *a)
{
	return a->format == FORMAT_TEXT || a->format == FORMAT_MARKDOWN ||
	       a->format == FORMAT_CSV;
}

/*
 * One dump's report. `several`: the input holds more than one dump;
 * --snapshot writes its dump as the only one, but its note on GPU memory
 * left out still names the process.
 */
static void
stream_write_dump(struct vmmap_stream *s, const struct vmmap_capture *cap,
		  const struct vmmap_dump *d, bool several)
{
	const struct vmmap_args *a = s->a;
	FILE *out = s->io->out;
	bool alone = a->snapshot != 0;
	struct strbuf sb = STRBUF_INIT;

	s->written++;
	if (a->default_types) {
		add_gpu_left_out(&sb, d, &cap->filter, s->path, several);
		held_text_add(&s->left_out, sb.buf, sb.len);
		strbuf_reset(&sb);
	}
	if (a->format == FORMAT_CSV) {
		if (s->written == 1)
			vmmap_csv_write_header(out);
		vmmap_csv_write_dump(out, d, s->written);
	} else if (a->format == FORMAT_MARKDOWN) {
		if (s->status == 0) {
			struct report r;
			report_init(&r, "vmmap", false);
			report_add_vmmap(&r, d);
			kind_report_provenance(&r, &s->path, 1);
			if (s->written > 1)
				fputc('\n', out);
			s->status = kind_report_write_markdown(s->io, &r);
			report_release(&r);
		}
	} else {
		struct vmmap_text_opts topts = {
			.heading = several && !alone,
			.surfaces = a->surfaces,
		};
		if (s->written > 1)
			fputc('\n', out);
		vmmap_text_write_dump(out, d, &topts, &cap->filter);
		if (!vmmap_dump_has_entries(d)) {
			add_no_regions(&sb, d, &cap->filter, several && !alone);
			held_text_add(&s->no_regions, sb.buf, sb.len);
		}
	}
	strbuf_release(&sb);
}

/* The parse closed a dump: write the one held back, hold this one. */
static void
stream_dump_closed(void *ctx, struct vmmap_capture *cap, struct vmmap_dump *d)
{
	struct vmmap_stream *s = ctx;
	s->closed++;
	vmmap_dump_crosscheck(d, &cap->filter, s->path, &s->checks);
	if (s->a->snapshot) {
		if (s->closed == s->a->snapshot)
			s->held = d;
		else
			vmmap_capture_drop(cap, d);
		return;
	}
	if (s->held) {
		stream_write_dump(s, cap, s->held, true);
		vmmap_capture_drop(cap, s->held);
	}
	s->held = d;
}

/* The cross-check warnings after the parse's, under the list's one limit. */
static void
append_checks(struct diag_list *w, struct diag_list *checks)
{
	diag_list_append(w, checks);
	diag_list_release(checks);
}

/* The end of the input: the dump held back, then standard error in order. */
static int
stream_finish(struct vmmap_stream *s, struct vmmap_capture *cap,
	      struct diag_list *warnings, struct diag *err)
{
	const struct vmmap_args *a = s->a;
	size_t i;
	int rc = 0;

	if (s->held)
		stream_write_dump(s, cap, s->held, s->closed > 1);
	append_checks(warnings, &s->checks);
	diag_write_list(s->io->err, warnings);
	if (held_text_flush(&s->left_out, s->io->err, err) < 0 ||
	    held_text_flush(&s->no_regions, s->io->err, err) < 0)
		return -1;
	if (a->snapshot && capture_pick_nth(s->closed, a->snapshot, "--snapshot",
					    "vmmap dump", s->path, &i, err) < 0)
		return -1;
	if (a->format == FORMAT_CSV && s->written == 0)
		vmmap_csv_write_header(s->io->out);
	if (a->format == FORMAT_MARKDOWN)
		rc = s->status;
	return rc;
}

/* The report of every dump, or of the one --snapshot N names (the capture keeps them all). */
static int
write_whole(struct vmmap_capture *cap, const struct vmmap_args *a, const struct app_source *src,
	    FILE *out, struct diag *err)
{
	size_t i = 0;
	if (a->snapshot && capture_pick_nth(cap->ndumps, a->snapshot, "--snapshot", "vmmap dump",
					    src->path, &i, err) < 0)
		return -1;
	if (a->format == FORMAT_NDJSON) {
		struct ndjson_source origin = kind_ndjson_source(src);
		if (vmmap_ndjson_write(out, cap, &origin, a->snapshot ? i + 1 : 0) < 0)
			return diag_set(err, DIAG_IOERR, NULL, 0, 0, "cannot write output");
		return 0;
	}
	struct vmmap_dump **all = cap->dumps;
	size_t n = cap->ndumps;
	if (a->snapshot) {
		cap->dumps = &all[i];
		cap->ndumps = 1;
	}
	struct vmmap_json_opts jopts = { .path = src->path, .surfaces = a->surfaces };
	int rc = vmmap_json_write(out, cap, &jopts);
	cap->dumps = all;
	cap->ndumps = n;
	if (rc < 0)
		return diag_set(err, DIAG_IOERR, NULL, 0, 0, "cannot write JSON output");
	return 0;
}

/* JSON and ndjson: the whole input read, then checked and written. */
static int
finish_whole(struct vmmap_capture *cap, const struct vmmap_args *a, const struct app_source *src,
	     const struct kind_io *io, struct diag_list *warnings, struct diag *err)
{
	for (size_t i = 0; i < cap->ndumps; i++)
		vmmap_dump_crosscheck(cap->dumps[i], &cap->filter, src->path, warnings);
	diag_write_list(io->err, warnings);
	for (size_t i = 0; a->default_types && a->format != FORMAT_NDJSON && i < cap->ndumps; i++)
		if (!a->snapshot || i + 1 == a->snapshot)
			print_gpu_left_out(cap, cap->dumps[i], src->path, io->err);
	return write_whole(cap, a, src, io->out, err);
}

/* One input: parse, check, write its report or rows. */
static int
read_one(const void *opts, const struct kind_command_args *ka, struct app_source *src,
	 const struct kind_io *io, struct diag *err)
{
	const struct vmmap_opts *run = opts;
	const struct vmmap_args *a = &run->a;
	struct vmmap_capture cap;
	struct diag_list warnings;
	struct vmmap_stream s = { .a = a, .io = io, .path = src->path };
	int rc;

	vmmap_capture_init(&cap);
	(void)ka;
	copy_filter(&cap.filter, &run->filter);
	cap.want_surfaces = a->surfaces;
	diag_list_init(&warnings, 200);
	diag_list_init(&s.checks, 200);
	held_text_init(&s.left_out);
	held_text_init(&s.no_regions);
	if (streams(a)) {
		cap.dump_closed = stream_dump_closed;
		cap.dump_closed_ctx = &s;
	}
	struct vmmap_parse_opts popts = { .strict = a->strict, .report_unparsed = 5 };
	rc = vmmap_parse(&src->reader, &cap, &popts, &warnings, err);
	if (rc < 0) {
		diag_write_list(io->err, &warnings);
		src->refused = true;
		goto out;
	}
	if (streams(a))
		rc = stream_finish(&s, &cap, &warnings, err);
	else
		rc = finish_whole(&cap, a, src, io, &warnings, err);
	if (rc == 0 && cap.partial)
		kind_command_said_partial(io, src);
out:
	held_text_release(&s.left_out);
	held_text_release(&s.no_regions);
	diag_list_release(&s.checks);
	diag_list_release(&warnings);
	vmmap_capture_release(&cap);
	return rc;
}

static void
release(void *opts)
{
	vmmap_filter_release(&((struct vmmap_opts *)opts)->filter);
}

const struct kind_command kind_vmmap_command = {
	.summary = "IOAccelerator/IOSurface memory by purgeable state and size (vmmap dumps)",
	.help = vmmap_help,
	.options = vmmap_options,
	.noptions = ARRAY_SIZE(vmmap_options),
	.formats = FORMAT_BIT(FORMAT_TEXT) | FORMAT_BIT(FORMAT_JSON) | FORMAT_BIT(FORMAT_CSV) |
		   FORMAT_BIT(FORMAT_MARKDOWN) | FORMAT_BIT(FORMAT_NDJSON),
	.no_input = "a vmmap dump file, or '-' for standard input",
	.error_row = vmmap_ndjson_write_error,
	.opts_size = sizeof(struct vmmap_opts),
	.init = init,
	.take = take,
	.check = check,
	.read = read_one,
	.release = release,
};
