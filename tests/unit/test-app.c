/*
 * The application layer (src/app/) linked alone, as cli/ uses it: pairing
 * two folders or two bundles, expanding a folder or a bundle into inputs,
 * and the kind registry's dispatch. The folders are made here, so what
 * must pair, be listed or be skipped follows from their construction; the
 * bundle cases read fixtures/bundle/, whose manifests say which step
 * produced which capture (complete: classes twice and vmmap; partial: its
 * vmmap step was denied; both skipped track).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "app/bundle_inputs.h"
#include "app/diff_pairs.h"
#include "app/input.h"
#include "app/kernel_view.h"
#include "app/kind.h"
#include "app/kind_text.h"
#include "app/listing.h"
#include "app/report_series.h"
#include "app/series_run.h"
#include "report/bundle_listing_write.h"
#include "app/sources.h"
#include "bundle/manifest.h"
#include "model/classes.h"
#include "model/track.h"
#include "model/vmmap.h"
#include "ingest/bundle.h"
#include "util/linereader.h"
#include "util/strbuf.h"

#define FIXTURES IOTALLY_SOURCE_ROOT "/fixtures"

/* A vmmap dump's first lines: what input_detect() calls INPUT_VMMAP. */
static const char vmmap_text[] =
	"Process:         zsh [4242]\n"
	"Path:            /bin/zsh\n"
	"Physical footprint:         1185K\n"
	"\n"
	"==== Writable regions for process 4242\n";

static void
write_file(const char *dir, const char *name, const char *text)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	FILE *fp = fopen(path, "w");
	assert_non_null(fp);
	fputs(text, fp);
	assert_int_equal(fclose(fp), 0);
}

static char *
make_dir(const char *parent, const char *name)
{
	char path[4096];
	if (parent)
		snprintf(path, sizeof(path), "%s/%s", parent, name);
	else
		snprintf(path, sizeof(path), "%s/iotally-app-XXXXXX",
			 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (parent)
		assert_int_equal(mkdir(path, 0700), 0);
	else
		assert_non_null(mkdtemp(path));
	return strdup(path);
}

static void
remove_tree(const char *dir)
{
	char cmd[4200];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
}

static const char *
after_last_slash(const char *p)
{
	const char *s = strrchr(p, '/');
	return s ? s + 1 : p;
}

/* ---- pairing ------------------------------------------------------------ */

static void
test_pairs_two_folders(void **state)
{
	(void)state;
	char *root = make_dir(NULL, NULL);
	char *b = make_dir(root, "before"), *a = make_dir(root, "after");
	write_file(b, "a.txt", "x\n");
	write_file(b, "b.txt", "x\n");
	write_file(a, "b.txt", "x\n");
	write_file(a, "c.txt", "x\n");
	free(make_dir(b, "sub"));

	struct diff_pairs p;
	struct diag err;
	assert_int_equal(diff_pairs_build(&p, b, a, &err), 0);
	assert_true(p.folders);
	/* b.txt on both sides pairs; a.txt (BEFORE) and c.txt (AFTER) do not. */
	assert_int_equal(p.npairs, 1);
	assert_string_equal(p.pairs[0].name, "b.txt");
	assert_string_equal(after_last_slash(p.pairs[0].before), "b.txt");
	assert_non_null(strstr(p.pairs[0].after, "/after/b.txt"));
	assert_int_equal(p.nunpaired, 2);
	assert_string_equal(after_last_slash(p.unpaired[0].path), "a.txt");
	assert_true(p.unpaired[0].in_before);
	assert_string_equal(after_last_slash(p.unpaired[1].path), "c.txt");
	assert_false(p.unpaired[1].in_before);
	assert_int_equal(p.nskipped_dirs, 1);
	diff_pairs_release(&p);

	/* A folder against a file is a usage error. */
	char file[4200];
	snprintf(file, sizeof(file), "%s/a.txt", b);
	assert_int_equal(diff_pairs_build(&p, b, file, &err), -1);
	assert_int_equal(err.code, DIAG_USAGE);
	diff_pairs_release(&p);

	/* Two files: one pair, no name. */
	assert_int_equal(diff_pairs_build(&p, file, file, &err), 0);
	assert_false(p.folders);
	assert_int_equal(p.npairs, 1);
	assert_null(p.pairs[0].name);
	diff_pairs_release(&p);

	remove_tree(root);
	free(a);
	free(b);
	free(root);
}

static void
test_pairs_two_bundles(void **state)
{
	(void)state;
	struct diff_pairs p;
	struct diag err;
	assert_int_equal(diff_pairs_build(&p, FIXTURES "/bundle/complete",
					  FIXTURES "/bundle/partial", &err), 0);
	/*
	 * By member name: the kernel view once, from the ioreg plist, which covers
	 * ioclasscount's class-names query; partial's vmmap step was denied.
	 */
	assert_int_equal(p.npairs, 1);
	assert_string_equal(p.pairs[0].name, "kernel/ioreg-root.plist");
	for (int side = 0; side < 2; side++) {
		assert_string_equal(p.kernel[side].reference->member, "kernel/ioreg-root.plist");
		assert_int_equal(p.kernel[side].ncovered, 1);
		assert_string_equal(p.kernel[side].covered[0]->member, "kernel/ioclasscount.txt");
	}
	assert_int_equal(p.nunpaired, 1);
	assert_true(p.unpaired[0].in_before);
	assert_non_null(strstr(p.unpaired[0].path, "target/vmmap.txt"));
	assert_non_null(p.bundles[0]);
	assert_non_null(p.bundles[1]);
	diff_pairs_release(&p);

	/* A bundle against a plain folder: a usage error naming which is the bundle. */
	char *root = make_dir(NULL, NULL);
	assert_int_equal(diff_pairs_build(&p, FIXTURES "/bundle/complete", root, &err), -1);
	assert_int_equal(err.code, DIAG_USAGE);
	assert_non_null(strstr(err.msg, "BEFORE is a capture bundle and AFTER is not"));
	diff_pairs_release(&p);
	remove_tree(root);
	free(root);
}

/*
 * A bundle's kernel view (fixtures/bundle-pair/after, tests/capture/make-pair-fixtures.py):
 * the plist is the reference although ioclasscount's step comes later and the
 * ioalloccount listing last; both are covered; the one figure planted to differ is
 * IOSurface, 13 in ioclasscount (taken a second later) against the plist's 12.
 */
static void
test_kernel_view(void **state)
{
	(void)state;
	struct bundle b;
	struct kernel_view v;
	struct diag err;
	assert_int_equal(bundle_open(FIXTURES "/bundle-pair/after", &b, &err), 0);
	kernel_view_pick(&b, &v);
	assert_string_equal(v.reference->member, "kernel/ioreg-root.plist");
	assert_string_equal(v.reference_source, "ioreg-xml");
	assert_int_equal(v.ncovered, 2);
	assert_string_equal(v.covered[0]->member, "kernel/ioclasscount.txt");
	assert_string_equal(v.covered[1]->member, "kernel/ioalloccount.txt");
	assert_true(kernel_view_covers(&v, v.covered[1]));
	assert_false(kernel_view_covers(&v, v.reference));
	assert_int_equal(v.ndisagree, 1);
	assert_int_equal(v.disagree_more, 0);
	assert_string_equal(v.disagree[0].figure, "IOSurface");
	assert_true(v.disagree[0].in_reference);
	assert_int_equal(v.disagree[0].reference, 12);
	assert_int_equal(v.disagree[0].other, 13);
	assert_string_equal(v.disagree[0].source->started_utc, "2026-11-29T11:15:31Z");
	struct strbuf sb = STRBUF_INIT;
	kernel_disagreement_describe(&v, &v.disagree[0], &sb);
	assert_string_equal(sb.buf, "kernel/ioclasscount.txt (taken 2026-11-29T11:15:31Z) says "
			    "IOSurface = 13, kernel/ioreg-root.plist (taken 2026-11-29T11:15:30Z, "
			    "the reference) says 12");
	strbuf_release(&sb);
	kernel_view_release(&v);
	/* The before side agrees: nothing to show. */
	bundle_release(&b);
	assert_int_equal(bundle_open(FIXTURES "/bundle-pair/before", &b, &err), 0);
	kernel_view_pick(&b, &v);
	assert_int_equal(v.ncovered, 2);
	assert_int_equal(v.ndisagree, 0);
	kernel_view_release(&v);
	bundle_release(&b);
	line_reader_unmap_all();
}

/* ---- expansion ---------------------------------------------------------- */

static void
test_sources_folder(void **state)
{
	(void)state;
	char *root = make_dir(NULL, NULL);
	write_file(root, "b-dump.txt", vmmap_text);
	write_file(root, "a.txt", "not a capture\n");
	free(make_dir(root, "sub"));
	char cmd[4300];
	snprintf(cmd, sizeof(cmd), "cp -R '%s' '%s/bundle1'", FIXTURES "/bundle/complete", root);
	assert_int_equal(system(cmd), 0);

	struct app_sources s;
	struct diag_list w;
	app_sources_init(&s);
	diag_list_init(&w, 20);
	app_sources_add_operand(&s, "vmmap", root, &w);
	/* Name order: a.txt, b-dump.txt, then bundle1 (its vmmap capture); sub is not read. */
	assert_int_equal(s.n, 3);
	assert_string_equal(after_last_slash(s.v[0].path), "a.txt");
	assert_string_equal(after_last_slash(s.v[1].path), "b-dump.txt");
	assert_non_null(strstr(s.v[2].path, "bundle1/target/vmmap.txt"));
	for (size_t i = 0; i < s.n; i++) {
		assert_true(s.v[i].in_folder);
		assert_false(s.v[i].failed_early);
	}
	assert_int_equal(s.nskipped_dirs, 1);
	assert_int_equal(s.nnot_captured, 0);
	assert_int_equal(w.len, 0);   /* the copy matches its manifest */

	/* Opening: the dump is read by 'vmmap'. */
	struct diag err;
	assert_int_equal(app_source_open("vmmap", 0, &s.v[1], &err), 0);
	assert_int_equal(s.v[1].in.kind, INPUT_VMMAP);
	line_reader_close(&s.v[1].reader);
	app_sources_release(&s);

	/* For 'classes' the dump in the folder is another kind: skipped (the caller counts it). */
	app_sources_init(&s);
	app_sources_add_operand(&s, "classes", root, &w);
	assert_int_equal(s.n, 3);   /* bundle1 gives its first classes capture */
	assert_non_null(strstr(s.v[2].path, "bundle1/kernel/ioreg-root.plist"));
	assert_int_equal(app_source_open("classes", 0, &s.v[1], &err), 1);
	line_reader_close(&s.v[1].reader);
	app_sources_release(&s);

	/* For 'track' the bundle skipped its step: not captured, not an error. */
	app_sources_init(&s);
	app_sources_add_operand(&s, "track", root, &w);
	assert_int_equal(s.n, 2);
	assert_int_equal(s.nnot_captured, 1);
	app_sources_release(&s);

	diag_list_release(&w);
	remove_tree(root);
	free(root);
}

static void
test_sources_empty_folder(void **state)
{
	(void)state;
	char *root = make_dir(NULL, NULL);
	struct app_sources s;
	struct diag_list w;
	app_sources_init(&s);
	diag_list_init(&w, 20);
	app_sources_add_operand(&s, "vmmap", root, &w);
	/* One source that fails when its turn comes, saying why. */
	assert_int_equal(s.n, 1);
	assert_true(s.v[0].failed_early);
	assert_int_equal(s.v[0].error.code, DIAG_NOINPUT);
	assert_non_null(strstr(s.v[0].error.msg, "the folder holds no capture files"));
	app_sources_release(&s);
	diag_list_release(&w);
	remove_tree(root);
	free(root);
}

static void
test_bundle_operand(void **state)
{
	(void)state;
	struct app_bundles bs;
	struct diag_list w;
	struct diag err;
	const char *capture = NULL;
	app_bundles_init(&bs);
	diag_list_init(&w, 20);
	/* The manifest lists kernel.ioreg_root before kernel.ioclasscount. */
	assert_int_equal(app_bundle_operand("classes", FIXTURES "/bundle/complete", &bs, &capture,
					    &w, &err), 0);
	assert_non_null(strstr(capture, "kernel/ioreg-root.plist"));
	assert_int_equal(w.len, 0);
	/* Its track step was skipped: no input, and the step says why. */
	assert_int_equal(app_bundle_operand("track", FIXTURES "/bundle/complete", &bs, &capture,
					    &w, &err), -1);
	assert_int_equal(err.code, DIAG_NOINPUT);
	assert_non_null(strstr(err.msg, "its step kernel.track was skipped"));
	/* A series stands for no one capture. */
	assert_int_equal(app_bundle_operand("vmmap", FIXTURES "/bundle/series", &bs, &capture,
					    &w, &err), -1);
	assert_int_equal(err.code, DIAG_USAGE);
	/* A partial bundle: read, with a warning. */
	assert_int_equal(app_bundle_operand("classes", FIXTURES "/bundle/partial", &bs, &capture,
					    &w, &err), 0);
	assert_int_equal(w.len, 1);
	assert_non_null(strstr(diag_list_msg(&w, 0), "the capture did not complete"));
	diag_list_release(&w);
	app_bundles_release(&bs);
}

static void
test_trend_inputs_of_series(void **state)
{
	(void)state;
	struct app_bundles bs;
	struct app_bundle_inputs in = { 0 };
	struct diag_list w;
	struct diag err;
	const char *kind = NULL;
	app_bundles_init(&bs);
	diag_list_init(&w, 20);
	/* A plain file stays itself; the series gives one input per sample (two). */
	assert_int_equal(app_bundle_trend_inputs_add(&in, "some.txt", &kind, &bs, &w, &err), 0);
	assert_null(kind);
	assert_int_equal(app_bundle_trend_inputs_add(&in, FIXTURES "/bundle/series", &kind, &bs,
						     &w, &err), 0);
	assert_non_null(kind);   /* the first kind of the registry the first sample holds */
	assert_int_equal(in.n, 3);
	assert_string_equal(in.v[0].path, "some.txt");
	assert_null(in.v[0].time);
	for (size_t i = 1; i < in.n; i++)
		assert_non_null(in.v[i].time);
	app_bundle_inputs_release(&in);
	diag_list_release(&w);
	app_bundles_release(&bs);
}

/*
 * A series' summary (fixtures/series-bundle/leak: fixtures/trend/leak's 20
 * vmmap files as samples 001-020, and 021 whose vmmap step was denied):
 * the verdict is trend's LEAK of IOSurface N; the cost is sample 020's
 * (021 says nothing of the end); and the overview's last total, summed
 * from trend's per-type, per-state metrics, is the same bytes as that
 * cost, read from the dump by another path (model/summary.c).
 */
static void
test_series_summary(void **state)
{
	(void)state;
	const char *path = FIXTURES "/series-bundle/leak";
	struct app_bundles bs;
	struct diag_list notes;
	struct diag err;
	app_bundles_init(&bs);
	diag_list_init(&notes, 50);
	const struct bundle *b = app_bundles_open(&bs, path, &err);
	assert_non_null(b);
	assert_int_equal(b->nsamples, 21);
	struct summary_facts f;
	summary_facts_init(&f, false);
	assert_int_equal(app_series_summary(b, 1, &f, &notes, &err), 0);
	assert_non_null(f.verdict);
	assert_true(strncmp(f.verdict, "LEAK, vmmap:IOSurface:N.dirty", 29) == 0);
	assert_int_equal(summary_cost_source(&f), SUMMARY_SRC_VMMAP);
	uint64_t cost = f.cost[SUMMARY_SRC_VMMAP][1].value;

	struct app_series_run run;
	assert_int_equal(app_series_run(&run, &path, 1, 1, &bs, &notes, &err), 0);
	struct report r;
	report_init(&r, "series", false);
	report_series_build(&r, run.reps, run.ok);
	const struct report_section *gpu = &r.sections[REPORT_SEC_GPU];
	assert_non_null(gpu->title);
	assert_int_equal(gpu->ntables, 1);
	assert_int_equal(gpu->ncharts, 1);
	const struct report_table *t = gpu->tables[0];
	assert_int_equal(t->nrows, 20);   /* 21 samples, 021 left out; 20 <= 24 drawn */
	const struct report_cell *total = report_table_cell(t, t->nrows - 1, t->ncols - 1);
	assert_int_equal(total->value, (int64_t)cost);
	assert_int_equal(gpu->charts[0]->nitems, 20);
	report_release(&r);
	app_series_run_release(&run);

	/* The listing's view of a sample borrows the manifest's words. */
	struct listing_bundle v;
	app_listing_bundle_view(&b->samples[20], &v);
	assert_false(v.complete);
	assert_int_equal(v.ncaptures, 0);
	assert_int_equal(v.nmissed, 1);
	assert_string_equal(v.missed[0].step, "denied");
	app_listing_bundle_view_release(&v);

	summary_facts_release(&f);
	diag_list_release(&notes);
	app_bundles_release(&bs);
}

/* ---- the kind registry -------------------------------------------------- */

static void
test_registry_dispatch(void **state)
{
	(void)state;
	/* Order: vmmap, classes, track, footprint, heap (a bundle offers its captures so). */
	const struct kind *k = kind_first();
	assert_string_equal(k->name, "vmmap");
	assert_string_equal((k = kind_next(k))->name, "classes");
	assert_string_equal((k = kind_next(k))->name, "track");
	assert_string_equal((k = kind_next(k))->name, "footprint");
	assert_string_equal((k = kind_next(k))->name, "heap");
	assert_null(kind_next(k));
	/* One row for each capture kind a bundle may hold, in the bundle's order. */
	k = kind_first();
	for (int b = 0; b < BUNDLE_NKINDS; b++, k = kind_next(k)) {
		assert_non_null(k);
		assert_string_equal(k->name, bundle_kind_name((enum bundle_kind)b));
	}
	assert_null(k);
	assert_null(bundle_kind_name(BUNDLE_KIND_NONE));
	assert_true(bundle_kind_known("footprint"));
	assert_false(bundle_kind_known("ioreg"));

	static const struct {
		enum input_kind in;
		const char *command;
	} reads[] = {
		{ INPUT_VMMAP, "vmmap" },
		{ INPUT_IOREG_TEXT, "classes" },
		{ INPUT_XML_PLIST, "classes" },
		{ INPUT_BPLIST, "classes" },
		{ INPUT_IOCLASSCOUNT, "classes" },
		{ INPUT_TRACK, "track" },
		{ INPUT_FOOTPRINT, "footprint" },
		{ INPUT_HEAP, "heap" },
		{ INPUT_IOTALLY_JSON, NULL },
		{ INPUT_TOOL_REPORT, NULL },
		{ INPUT_TEXT, NULL },
		{ INPUT_JSON, NULL },
	};
	for (size_t i = 0; i < sizeof(reads) / sizeof(reads[0]); i++) {
		const char *c = app_command_for_kind(reads[i].in);
		if (reads[i].command)
			assert_string_equal(c, reads[i].command);
		else
			assert_null(c);
	}
	assert_string_equal(kind_for_input(INPUT_VMMAP, NULL)->name, "vmmap");
	assert_string_equal(kind_for_input(INPUT_IOTALLY_JSON, VMMAP_SCHEMA)->name, "vmmap");
	assert_string_equal(kind_for_input(INPUT_IOTALLY_JSON, CLASSES_SCHEMA)->name, "classes");
	assert_string_equal(kind_for_input(INPUT_IOTALLY_JSON, TRACK_SCHEMA)->name, "track");
	assert_null(kind_for_input(INPUT_IOTALLY_JSON, "iotally.diff/1"));
	/* footprint's JSON is an output only: no kind reads it back. */
	assert_null(kind_for_input(INPUT_IOTALLY_JSON, "iotally.footprint/1"));
	assert_string_equal(kind_for_input(INPUT_FOOTPRINT, NULL)->name, "footprint");
	assert_null(kind_for_input(INPUT_IOTALLY_JSON, NULL));

	/* Gate prefixes: alloc belongs to classes; gpu is a vmmap field, not a kind. */
	assert_string_equal(kind_for_metric("alloc")->name, "classes");
	assert_string_equal(kind_for_metric("vmmap")->name, "vmmap");
	assert_null(kind_for_metric("gpu"));

	/* Options: --folded is track's only, --dump not track's. */
	const struct kind *vmmap = kind_for_input(INPUT_VMMAP, NULL);
	const struct kind *track = kind_for_input(INPUT_TRACK, NULL);
	assert_string_equal(kind_refused_option(vmmap, KIND_ACCEPTS_FOLDED), "--folded");
	assert_null(kind_refused_option(track, KIND_ACCEPTS_FOLDED | KIND_ACCEPTS_MATCH_OFFSETS));
	assert_string_equal(kind_refused_option(track, KIND_ACCEPTS_DUMP), "--dump");
}

static void
test_registry_open(void **state)
{
	(void)state;
	struct kind_input in;
	const struct kind *k = NULL;
	char schema[64];
	enum input_kind raw;
	struct diag err;

	memset(&in, 0, sizeof(in));
	assert_int_equal(kind_open(&in, FIXTURES "/bundle/complete/target/vmmap.txt", "diff", &k,
				   schema, sizeof(schema), &raw, &err), 0);
	assert_string_equal(k->name, "vmmap");
	assert_int_equal(raw, INPUT_VMMAP);
	assert_false(in.json);
	line_reader_close(&in.reader);

	/* Another tool's report (footprint's JSON): refused with the one sentence every command says. */
	memset(&in, 0, sizeof(in));
	assert_int_equal(kind_open(&in, FIXTURES "/foreign/footprint-zsh.json", "diff", &k, schema,
				   sizeof(schema), &raw, &err), -1);
	assert_int_equal(err.code, DIAG_DATA);
	assert_non_null(strstr(err.msg, "which iotally does not read"));
	line_reader_close(&in.reader);
}

/* The kinds in sentences come from the rows: joins, picks and placeholders. */
static void
test_kind_text(void **state)
{
	(void)state;
	struct strbuf sb = STRBUF_INIT;
	kind_names_join(&sb, KIND_PICK_ALL, ", ", " or ");
	assert_string_equal(sb.buf, "vmmap, classes, track, footprint or heap");
	strbuf_reset(&sb);
	kind_names_join(&sb, KIND_PICK_ALL, "|", "|");
	assert_string_equal(sb.buf, "vmmap|classes|track|footprint|heap");
	strbuf_reset(&sb);
	/* the rows with a schema; those with a step on the target process */
	kind_names_join(&sb, KIND_PICK_READ_BACK, ", ", " and ");
	assert_string_equal(sb.buf, "vmmap, classes and track");
	strbuf_reset(&sb);
	kind_names_join(&sb, KIND_PICK_TARGET, ", ", ", ");
	assert_string_equal(sb.buf, "vmmap, footprint");
	strbuf_reset(&sb);
	/* placeholders expanded; an unknown one and a lone brace copied */
	kind_text_expand(&sb, "of {kinds and} ({kinds}) {other} {");
	assert_string_equal(sb.buf, "of vmmap, classes, track, footprint and heap "
			    "(vmmap, classes, track, footprint, heap) {other} {");
	strbuf_reset(&sb);
	/* each row's gate grammar a line, wrapped before column 76 */
	kind_text_expand(&sb, "Gates:\n{gate grammar}end\n");
	assert_string_equal(sb.buf,
		"Gates:\n"
		"  vmmap:<Type>[:<N|V|E|->].<vsize|resident|dirty> (without a state, all\n"
		"    states summed), vmmap:footprint\n"
		"  classes:<Class>, alloc:<instance|container|iomalloc|pageable>\n"
		"  track:total, track:<module>\n"
		"  footprint:gpu.dirty, footprint:phys_footprint, footprint:<Category>.dirty\n"
		"  heap:nodes, heap:bytes\n"
		"end\n");
	strbuf_release(&sb);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pairs_two_folders),
		cmocka_unit_test(test_pairs_two_bundles),
		cmocka_unit_test(test_kernel_view),
		cmocka_unit_test(test_sources_folder),
		cmocka_unit_test(test_sources_empty_folder),
		cmocka_unit_test(test_bundle_operand),
		cmocka_unit_test(test_trend_inputs_of_series),
		cmocka_unit_test(test_series_summary),
		cmocka_unit_test(test_registry_dispatch),
		cmocka_unit_test(test_registry_open),
		cmocka_unit_test(test_kind_text),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
