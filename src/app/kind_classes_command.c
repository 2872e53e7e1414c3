/*
 * `iotally classes`: what ioclasscount (and ioalloccount) would have
 * printed on the Mac a saved IOKitDiagnostics capture came from, plus
 * direct counts and the inheritance tree when a class hierarchy is
 * available. The kind's command row (app/kind_command.h); cli/cmd_kind.c
 * runs it.
 */

#include "app/kind_command.h"

#include "app/sources.h"
#include "model/report_classes.h"
#include "ingest/classes_read.h"
#include "model/classes.h"
#include "model/pick.h"
#include "model/hierarchy.h"
#include "report/classes_json_write.h"
#include "report/classes_ndjson_write.h"
#include "report/classes_text.h"
#include "util/array.h"
#include "util/diag.h"
#include "util/diag_write.h"
#include "util/linereader.h"
#include "util/optval.h"
#include "util/regex.h"
#include "util/size.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char classes_help[] =
	"usage: iotally classes [options] FILE|- [CLASS...]\n"
	"       iotally classes --format ndjson [options] FILE|FOLDER|BUNDLE|-...\n"
	"\n"
	"Prints what ioclasscount would have printed on the Mac the capture comes\n"
	"from: every class 'Name = N', sorted as ioclasscount sorts (case-insensitive,\n"
	"'_' before letters), counts as the 64-bit tool prints them. With CLASS names,\n"
	"one line 'A = 1, B = <no such class>' in argument order. A saved line of\n"
	"that kind is printed again as it was, '<no such class>' answers included.\n"
	"\n"
	"FILE is recognised from its content: ioreg -l text (any plane, -x, -d1),\n"
	"an ioreg -a XML property list, a kext-info property list (OSBundleClasses),\n"
	"or saved ioclasscount / ioalloccount output. Each IOKitDiagnostics in it is\n"
	"a snapshot.\n"
	"\n"
	"Options:\n"
	"  --alloc            print the ioalloccount lines (allocation totals) instead\n"
	"  --match REGEX      only classes whose name matches REGEX: a PCRE2 pattern,\n"
	"                     unanchored and case-sensitive ('(?i)IOSurface' ignores\n"
	"                     case); repeatable, a class matching any of them is kept\n"
	"  --nonzero          leave out classes whose count is 0\n"
	"  --top N            the N largest counts, largest first\n"
	"  --format F         text (default), json (schema iotally.classes/1),\n"
	"                     markdown (the listing by count as GitHub tables, as\n"
	"                     'iotally report' writes it) or ndjson (rows for DuckDB,\n"
	"                     Spark or BigQuery: docs/json/classes-ndjson.md)\n"
	"  --snapshot N       use the Nth snapshot of the input (default: the first);\n"
	"                     --dump N is the same\n"
	"  --strict           a capture that was cut short is an error (exit 65)\n"
	"                     instead of a warning over the classes read before the cut\n"
	"  --partial          read a capture that was cut short (the default; kept\n"
	"                     for scripts that name it)\n"
	"  --hierarchy FILE   the class hierarchy: a kext-info property list\n"
	"                     (OSBundleClasses) or ioreg -i output (text or XML);\n"
	"                     default: FILE itself, when it records one\n"
	"  --direct           direct instance counts: a count minus the direct\n"
	"                     subclasses that have instances (needs a hierarchy)\n"
	"  --tree             the inheritance tree with counts and direct counts,\n"
	"                     under each CLASS given, or whole (needs a hierarchy)\n"
	"  -j, --jobs N       read N inputs at once (--format ndjson; default: one\n"
	"                     per processor, 1: one after the other); the output is\n"
	"                     the same\n"
	"  -h, --help         show this help\n"
	"\n"
	"Several inputs: --format ndjson takes any number of files, folders of\n"
	"captures (read in name order; captures of other kinds in them are\n"
	"skipped with a note) and capture bundles, and writes one row per line:\n"
	"an 'input' row per input, a 'snapshot' row (allocation totals) and one\n"
	"'class' row per class shown (--match, --nonzero and --top apply). Every\n"
	"operand is then an input (no CLASS names). An input that cannot be read\n"
	"is said on standard error and gets an 'input' row with status 'error';\n"
	"the others are still read, and the exit status is the first error's.\n"
	"The other formats read one input (a folder is a usage error).\n"
	"\n"
	"A negative count (an over-released object) prints as the 64-bit tool prints\n"
	"it (18446744073709551615 for -1) and gets a warning on standard error.\n"
	"\n"
	"Examples:\n"
	"  iotally classes fixtures/ioreg/darwindumped_MacBook8-1_osx10.11.4_xnu-3248_ioreg-l.txt\n"
	"  iotally classes fixtures/ioreg/darwindumped_MacBook8-1_osx10.11.4_xnu-3248_ioreg-l.txt IOPCIDevice AppleTestPCI\n"
	"  iotally classes --nonzero --match '^IOSurface' fixtures/classes/synthetic-ioreg-a-3000.plist\n"
	"  iotally classes --tree --hierarchy fixtures/classes/synthetic-kextinfo-3000.plist fixtures/classes/synthetic-ioreg-a-3000.plist IONetworkController\n"
	"  ioreg -l -w0 -d1 | iotally classes -\n"
	"  iotally classes --format ndjson --nonzero fixtures/diff-folders/before fixtures/diff-folders/after\n"
	"\n"
	"Exit status: 0 success (a truncated capture too, with a warning), 64 usage\n"
	"error, 65 malformed input (or truncated, with --strict),\n"
	"66 input cannot be opened, 74 output cannot be written; with several\n"
	"inputs, the first error's.\n";

enum {
	OPT_ALLOC = 1,
	OPT_MATCH,
	OPT_NONZERO,
	OPT_TOP,
	OPT_SNAPSHOT,
	OPT_PARTIAL,
	OPT_STRICT,
	OPT_HIERARCHY,
	OPT_DIRECT,
	OPT_TREE,
};

static const struct kind_command_option classes_options[] = {
	{ "alloc", 0, false, OPT_ALLOC },
	{ "match", 0, true, OPT_MATCH },
	{ "nonzero", 0, false, OPT_NONZERO },
	{ "top", 0, true, OPT_TOP },
	{ "format", 0, true, KIND_OPT_FORMAT },
	{ "snapshot", 0, true, OPT_SNAPSHOT },
	{ "partial", 0, false, OPT_PARTIAL },
	{ "strict", 0, false, OPT_STRICT },
	{ "jobs", 'j', true, KIND_OPT_JOBS },
	{ "dump", 0, true, OPT_SNAPSHOT },
	{ "hierarchy", 0, true, OPT_HIERARCHY },
	{ "direct", 0, false, OPT_DIRECT },
	{ "tree", 0, false, OPT_TREE },
	{ "help", 'h', false, KIND_OPT_HELP },
};

#define WARN_LIMIT 10

struct classes_args {
	const char *path;         /* the input being read */
	struct ndjson_source origin;   /* its rows' source, side and pair */
	FILE *out, *msgs;         /* where its report and diagnostics go */
	bool ndjson;
	const char *const *names;
	size_t nnames;
	bool alloc, nonzero, strict, direct, tree, json;
	const char **match;       /* --match patterns, in order */
	struct regex **re;        /* compiled, a slot each */
	size_t nmatch;
	bool has_top;
	uint64_t top;
	uint64_t snapshot;        /* 1-based; 0: not given */
	const char *hierarchy;
	bool markdown;            /* --format markdown */
	bool hierarchy_is_input;  /* --hierarchy named FILE itself: read once */
};

static int
check_combinations(const struct classes_args *a, struct diag *err)
{
	bool filters = a->nmatch || a->nonzero || a->has_top;
	if (a->direct && a->tree)
		return diag_set(err, DIAG_USAGE, NULL, 0, 0, "--direct and --tree are exclusive");
	if (a->alloc && (a->nnames || a->direct || a->tree || filters))
		return diag_set(err, DIAG_USAGE, NULL, 0, 0,
				"--alloc prints the allocation totals only; it takes no class "
				"names, filters, --direct or --tree");
	if (a->nnames && !a->tree && (filters || a->direct))
		return diag_set(err, DIAG_USAGE, NULL, 0, 0,
				"class names select their own line; --match, --nonzero, --top "
				"and --direct apply to the full listing");
	if (a->ndjson && (a->alloc || a->direct || a->tree))
		return diag_set(err, DIAG_USAGE, NULL, 0, 0,
				"--format ndjson writes the class counts and allocation totals "
				"of each input; it takes no --alloc, --direct or --tree");
	if (a->tree && (a->nmatch || a->has_top || a->json))
		return diag_set(err, DIAG_USAGE, NULL, 0, 0,
				"--tree prints text and takes --nonzero only (not --match, "
				"--top or --format json)");
	if (a->markdown && (a->nnames || a->alloc || a->direct || a->tree))
		return diag_set(err, DIAG_USAGE, NULL, 0, 0,
				"--format markdown reports the listing by count (with --match, "
				"--nonzero, --top) and the allocation totals; it takes no class "
				"names, --alloc, --direct or --tree");
	if (a->hierarchy && !a->direct && !a->tree)
		return diag_set(err, DIAG_USAGE, NULL, 0, 0,
				"--hierarchy is used by --direct and --tree only");
	return 0;
}

static int
take(void *opts, int id, const char *arg, struct diag *err)
{
	struct classes_args *a = opts;
	switch (id) {
	case OPT_ALLOC:
		a->alloc = true;
		return 0;
	case OPT_MATCH:
		a->match = xrealloc(a->match, (a->nmatch + 1) * sizeof(*a->match));
		a->match[a->nmatch++] = arg;
		return 0;
	case OPT_NONZERO:
		a->nonzero = true;
		return 0;
	case OPT_TOP:
		a->has_top = true;
		return optval_positive_count("--top", arg, &a->top, err);
	case OPT_SNAPSHOT:
		return optval_positive_count("--snapshot", arg, &a->snapshot, err);
	case OPT_STRICT:
		a->strict = true;
		return 0;
	case OPT_HIERARCHY:
		a->hierarchy = arg;
		return 0;
	case OPT_DIRECT:
		a->direct = true;
		return 0;
	case OPT_TREE:
		a->tree = true;
		return 0;
	case OPT_PARTIAL:
	default:
		return 0;
	}
}

static int
check(void *opts, const struct kind_command_args *ka, struct diag *err)
{
	struct classes_args *a = opts;
	a->json = ka->format == FORMAT_JSON;
	a->markdown = ka->format == FORMAT_MARKDOWN;
	a->ndjson = ka->format == FORMAT_NDJSON;
	a->names = ka->names;
	a->nnames = ka->nnames;
	return check_combinations(a, err);
}

static void
print_diag_at(FILE *msgs, enum diag_severity sev, const char *path, uint64_t line,
	      const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* A diagnostic of at most DIAG_MSG_MAX bytes, as a struct diag holds it. */
static void
print_diag_at(FILE *msgs, enum diag_severity sev, const char *path, uint64_t line,
	      const char *fmt, ...)
{
	struct diag d;
	va_list ap;
	diag_clear(&d);
	d.severity = sev;
	diag_set_path(&d, path);
	d.line = line;
	va_start(ap, fmt);
	vsnprintf(d.msg, sizeof(d.msg), fmt, ap);
	va_end(ap);
	diag_write(msgs, &d);
}

/* A class name from the input, quoted for a message (control bytes as \xNN). */
static const char *
quoted(struct strbuf *sb, const char *name, size_t len)
{
	strbuf_reset(sb);
	diag_quote(sb, name, len, 200);
	return sb->buf;
}

/* Negative and unreadable counts among the classes shown: what a leak hunter looks for. */
static void
warn_counts(FILE *msgs, const char *path, const struct class_count *const *v, size_t n)
{
	size_t shown = 0, more = 0;
	struct strbuf q = STRBUF_INIT;
	for (size_t i = 0; i < n; i++) {
		const struct class_count *c = v[i];
		int32_t x = 0;
		enum class_count_problem problem = class_count_problem(c, &x);
		if (problem == CLASS_COUNT_FINE)
			continue;
		if (shown++ >= WARN_LIMIT) {
			more++;
			continue;
		}
		if (problem == CLASS_COUNT_OVER_RELEASED)
			print_diag_at(msgs, DIAG_WARNING, path, c->line,
				      "class '%s' has a negative count (%" PRId32 "): an "
				      "over-released object; ioclasscount prints it as %" PRIu64,
				      quoted(&q, c->name, c->len), x, (uint64_t)(int64_t)x);
		else
			print_diag_at(msgs, DIAG_WARNING, path, c->line,
				      "the count of class '%s' (%" PRId64 ") is not a 32-bit number; "
				      "ioclasscount prints '?? (error reading/converting value)'",
				      quoted(&q, c->name, c->len), c->value);
	}
	strbuf_release(&q);
	if (more)
		print_diag_at(msgs, DIAG_WARNING, path, 0, "%zu more negative or unreadable counts", more);
}

/* Negative allocation totals, where the totals are shown. */
static void
warn_negative_allocs(FILE *msgs, const char *path, const struct classes_snapshot *s)
{
	for (int k = 0; k < ALLOC_KINDS; k++) {
		struct strbuf sb = STRBUF_INIT;
		if (classes_alloc_negative_message(s, (enum alloc_kind)k, &sb))
			print_diag_at(msgs, DIAG_WARNING, path, s->line, "%s", sb.buf);
		strbuf_release(&sb);
	}
}

static void
note_snapshots(FILE *msgs, const char *path, const struct classes_capture *cap,
	       uint64_t chosen)
{
	if (cap->nsnapshots < 2 || chosen)
		return;
	struct strbuf sb = STRBUF_INIT;
	for (size_t i = 0; i < cap->nsnapshots && i < 8; i++)
		strbuf_addf(&sb, "%s%" PRIu64, i ? ", " : "", cap->snapshots[i]->line);
	if (cap->nsnapshots > 8)
		strbuf_addstr(&sb, ", ...");
	print_diag_at(msgs, DIAG_NOTE, path, 0,
		      "the input holds %zu snapshots (at lines %s); this is the first: "
		      "choose another with --snapshot N", cap->nsnapshots, sb.buf);
	strbuf_release(&sb);
}

static const struct classes_snapshot *
choose_snapshot(const struct classes_args *a, const struct classes_capture *cap,
		struct diag *err)
{
	size_t i;
	if (capture_pick_nth(cap->nsnapshots, a->snapshot, "--snapshot",
			     "class-count snapshot", a->path, &i, err) < 0)
		return NULL;
	note_snapshots(a->msgs, a->path, cap, a->snapshot);
	return cap->snapshots[i];
}

/* The hierarchy for --direct / --tree, from --hierarchy FILE or from the input itself. */
static int
load_hierarchy(const struct classes_args *a, struct hierarchy *h, struct diag_list *warnings,
	       struct diag *err)
{
	if (!a->hierarchy) {
		if (!hierarchy_empty(h))
			return 0;
		if (a->hierarchy_is_input)
			return diag_set(err, DIAG_DATA, a->path, 0, 0,
					"this input records no class hierarchy; one comes from a "
					"kext-info property list (OSBundleClasses, from "
					"OSKextCopyLoadedKextInfo) or from 'ioreg -i' output "
					"(text or -a XML)");
		return diag_set(err, DIAG_USAGE, NULL, 0, 0,
				"%s needs a class hierarchy and '%s' records none: name one with "
				"--hierarchy FILE, a kext-info property list (OSBundleClasses from "
				"OSKextCopyLoadedKextInfo) or 'ioreg -i' output (text or -a XML)",
				a->direct ? "--direct" : "--tree", diag_display_path(a->path));
	}
	struct classes_capture ignored;
	struct classes_read_opts ropts = { .partial = true, .want_hierarchy = true,
					   .need_hierarchy = true };
	classes_capture_init(&ignored);
	hierarchy_release(h);
	int rc = classes_read_file(a->hierarchy, &ignored, h, &ropts, warnings, err);
	classes_capture_release(&ignored);
	return rc;
}

static void
check_hierarchy(FILE *msgs, const char *path, const struct hierarchy *h,
		const struct classes_snapshot *s)
{
	struct hier_identity_failure *f;
	struct strbuf q = STRBUF_INIT;
	size_t nf = hierarchy_check_identity(h, s, &f), first;
	for (size_t i = 0; i < nf && i < WARN_LIMIT; i++)
		print_diag_at(msgs, DIAG_WARNING, path, 0,
			      "class '%s' has count %" PRId64 " but %" PRIu64 " direct subclasses "
			      "with instances: count = direct + subclasses in use fails (the counts "
			      "and the hierarchy disagree, or a count was over-released)",
			      quoted(&q, h->classes[f[i].cls].name, h->classes[f[i].cls].len),
			      f[i].count, f[i].live_subclasses);
	if (nf > WARN_LIMIT)
		print_diag_at(msgs, DIAG_WARNING, path, 0, "%zu more classes fail the identity",
			      nf - WARN_LIMIT);
	free(f);
	size_t nm = hierarchy_tracking_mismatches(h, s, &first);
	if (nm)
		print_diag_at(msgs, DIAG_NOTE, path, 0,
			      "%zu classes have another count in the hierarchy capture (first: "
			      "'%s' = %" PRId64 "): the captures were taken at different times",
			      nm, quoted(&q, h->classes[first].name, h->classes[first].len),
			      h->classes[first].tracking);
	if (h->conflicts)
		print_diag_at(msgs, DIAG_NOTE, path, 0,
			      "%" PRIu64 " classes were given a second, different superclass; "
			      "the first was kept", h->conflicts);
	if (!(h->sources & HIER_FROM_KEXT_INFO))
		print_diag_at(msgs, DIAG_NOTE, path, 0,
			      "this hierarchy comes from ioreg -i, which records only classes that "
			      "have registry entries: a direct count is too high when other "
			      "subclasses have instances");
	if (h->unreachable)
		print_diag_at(msgs, DIAG_WARNING, path, 0,
			      "%zu classes form a superclass cycle and are left out of the tree",
			      h->unreachable);
	strbuf_release(&q);
}

static int
write_tree(const struct classes_args *a, const struct hierarchy *h,
	   const struct classes_snapshot *s, struct diag *err)
{
	if (!a->nnames) {
		classes_text_tree(a->out, h, s, HIER_NONE, a->nonzero);
		return 0;
	}
	for (size_t i = 0; i < a->nnames; i++)
		if (hierarchy_find(h, a->names[i], strlen(a->names[i])) == HIER_NONE)
			return diag_set(err, DIAG_DATA, NULL, 0, 0,
					"--tree: class '%s' is not in the hierarchy", a->names[i]);
	for (size_t i = 0; i < a->nnames; i++)
		classes_text_tree(a->out, h, s, hierarchy_find(h, a->names[i], strlen(a->names[i])),
				  a->nonzero);
	return 0;
}

static void
note_left_out(const struct classes_args *a, size_t left_out)
{
	FILE *msgs = a->msgs;
	if (left_out)
		print_diag_at(msgs, DIAG_NOTE, a->path, 0,
			      "%zu classes are not in the hierarchy and have no direct count", left_out);
}

static int
write_output(const struct classes_args *a, const struct classes_capture *cap,
	     const struct classes_snapshot *s, const struct hierarchy *h,
	     const struct regex *const *re, struct diag *err)
{
	struct classes_filter f = { .match = re, .nmatch = a->nmatch, .nonzero = a->nonzero,
				    .has_top = a->has_top, .top = a->top };
	bool filtered = a->nmatch || a->nonzero || a->has_top;
	const struct class_count **v;
	size_t n = classes_snapshot_select(s, &f, &v);
	FILE *msgs = a->msgs, *out = a->out;
	int rc = 0;

	if (a->nnames && !a->tree) {
		for (size_t i = 0; i < a->nnames; i++) {
			const struct class_count *c =
				classes_snapshot_find(s, a->names[i], strlen(a->names[i]));
			if (c)
				warn_counts(msgs, a->path, &c, 1);
		}
	} else if (!a->alloc && !a->tree) {
		warn_counts(msgs, a->path, v, n);
	}
	if (a->alloc || a->json || a->markdown)
		warn_negative_allocs(msgs, a->path, s);
	if (a->ndjson) {
		struct classes_ndjson_input in = {
			.src = &a->origin, .index = a->snapshot ? (size_t)a->snapshot : 1,
			.s = s, .v = v, .n = n,
		};
		if (classes_ndjson_write(out, &in) < 0)
			rc = diag_set(err, DIAG_IOERR, NULL, 0, 0, "cannot write output");
	} else if (a->markdown) {
		struct report r;
		report_init(&r, "classes", false);
		classes_sort_by_count(v, n);
		report_add_classes(&r, s, v, n);
		kind_report_provenance(&r, &a->path, 1);
		struct kind_io io = { .out = out, .err = msgs };
		if (kind_report_write_markdown(&io, &r) != 0)
			rc = diag_set(err, DIAG_IOERR, NULL, 0, 0, "cannot write output");
		report_release(&r);
	} else if (a->json) {
		struct classes_json_opts jo = {
			.path = a->path, .nsnapshots = cap->nsnapshots,
			.index = a->snapshot ? (size_t)a->snapshot : 1,
			.v = v, .n = n, .query = (char *const *)a->names, .nquery = a->nnames,
			.direct = a->direct ? h : NULL,
		};
		if (classes_json_write(out, s, &jo) < 0)
			rc = diag_set(err, DIAG_IOERR, NULL, 0, 0, "cannot write JSON output");
	} else if (a->alloc) {
		classes_text_alloc(out, s);
		if (!s->alloc_present[ALLOC_INSTANCE] && !s->alloc_present[ALLOC_CONTAINER] &&
		    !s->alloc_present[ALLOC_IOMALLOC] && !s->alloc_present[ALLOC_PAGEABLE])
			print_diag_at(msgs, DIAG_NOTE, a->path, s->line,
				      "this snapshot records no allocation totals");
	} else if (a->tree) {
		rc = write_tree(a, h, s, err);
	} else if (a->direct) {
		note_left_out(a, classes_text_direct(out, h, s, v, n));
	} else if (a->nnames) {
		classes_text_query(out, s, (char *const *)a->names, a->nnames);
	} else if (s->query && !filtered) {
		classes_text_saved_query(out, s);
	} else {
		classes_text_listing(out, v, n);
		if (!s->has_classes)
			print_diag_at(msgs, DIAG_NOTE, a->path, s->line,
				      "this snapshot holds allocation totals only (ioalloccount "
				      "output); see them with --alloc");
	}
	if (s->query && !a->nnames && !a->alloc)
		print_diag_at(msgs, DIAG_NOTE, a->path, s->line,
			      "this snapshot is a saved class-names query: it holds only the "
			      "classes that were asked for");
	free(v);
	return rc;
}

/*
 * Every --match pattern compiled (a->re has a.nmatch slots, NULL after a
 * failure); the same file (standard input above all) named as the input
 * and its hierarchy is read once, for both.
 */
static int
prepare(void *opts, const struct kind_command_args *ka, struct diag *err)
{
	struct classes_args *a = opts;
	if (a->nmatch) {
		a->re = xcalloc(a->nmatch, sizeof(*a->re));
		for (size_t i = 0; i < a->nmatch; i++)
			if (!(a->re[i] = regex_compile(a->match[i], err)))
				return -1;
	}
	if (a->hierarchy && ka->path && strcmp(a->hierarchy, ka->path) == 0) {
		a->hierarchy = NULL;
		a->hierarchy_is_input = true;
	}
	return 0;
}

/* The input's error, and what was read before a cut. The exit status. */
static int
print_failure(const struct classes_args *a, const struct app_source *src,
	      const struct classes_capture *cap, const struct kind_io *io, const struct diag *err)
{
	FILE *msgs = a->msgs;
	int status = io->say_failure("classes", src, err);
	if (err->code == DIAG_USAGE)
		return status;
	if (cap->nsnapshots && cap->snapshots[cap->nsnapshots - 1]->truncated)
		print_diag_at(msgs, DIAG_NOTE, a->path, 0,
			      "without --strict the %zu classes read before the cut are "
			      "printed, with a warning",
			      cap->snapshots[cap->nsnapshots - 1]->nclasses);
	return status;
}

/* One input: read it (and its hierarchy), write the chosen snapshot. */
static int
read_one(const void *opts, const struct kind_command_args *ka, struct app_source *src,
	 const struct kind_io *io, struct diag *err)
{
	/* A copy: a->path is this input's, and -j N reads several at once. */
	struct classes_args args = *(const struct classes_args *)opts;
	struct classes_args *a = &args;
	struct classes_capture cap;
	struct hierarchy h;
	struct diag_list warnings;
	int status = 0;

	(void)ka;
	a->path = src->path;
	a->origin = kind_ndjson_source(src);
	a->out = io->out;
	a->msgs = io->err;
	classes_capture_init(&cap);
	hierarchy_init(&h);
	diag_list_init(&warnings, 200);
	struct classes_read_opts ropts = {
		.partial = !a->strict,
		.want_hierarchy = (a->direct || a->tree) && !a->hierarchy,
		.need_counts = true,
	};
	int rc = classes_read(&src->reader, &cap, &h, &ropts, &warnings, err);
	src->refused = rc < 0;
	if (rc == 0 && (a->direct || a->tree))
		rc = load_hierarchy(a, &h, &warnings, err);
	diag_write_list(io->err, &warnings);
	const struct classes_snapshot *s = rc == 0 ? choose_snapshot(a, &cap, err) : NULL;
	if (!s) {
		status = print_failure(a, src, &cap, io, err);
		goto out;
	}
	if (a->direct || a->tree)
		check_hierarchy(a->msgs, a->hierarchy ? a->hierarchy : a->path, &h, s);
	if (write_output(a, &cap, s, &h, (const struct regex *const *)a->re, err) < 0) {
		diag_write(io->err, err);
		status = err->code;
	}
	if (s->truncated)
		print_diag_at(a->msgs, DIAG_WARNING, a->path, s->line,
			      "results are partial: the capture was cut short");
out:
	diag_list_release(&warnings);
	hierarchy_release(&h);
	classes_capture_release(&cap);
	return status;
}

static void
release(void *opts)
{
	struct classes_args *a = opts;
	for (size_t i = 0; a->re && i < a->nmatch; i++)
		regex_free(a->re[i]);
	free(a->re);
	free(a->match);
}

const struct kind_command kind_classes_command = {
	.summary = "IOKit instance counts as ioclasscount prints them (ioreg, ioclasscount captures)",
	.help = classes_help,
	.options = classes_options,
	.noptions = ARRAY_SIZE(classes_options),
	.formats = FORMAT_BIT(FORMAT_TEXT) | FORMAT_BIT(FORMAT_JSON) | FORMAT_BIT(FORMAT_MARKDOWN) |
		   FORMAT_BIT(FORMAT_NDJSON),
	.no_input = "an ioreg, ioclasscount or kext-info capture, or '-' for standard input",
	.names_what = "class name",
	.error_row = classes_ndjson_write_error,
	.opts_size = sizeof(struct classes_args),
	.take = take,
	.check = check,
	.prepare = prepare,
	.read = read_one,
	.release = release,
};
