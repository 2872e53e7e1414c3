#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "ingest/vmmap_grammar.h"
#include "ingest/vmmap_read.h"
#include "util/array.h"

#include <stdlib.h>

static enum vmmap_line_result
parse(const char *line, struct vmmap_region *r, const char **why)
{
	return vmmap_parse_region_line(line, strlen(line), r, why);
}

static void
assert_type(const struct vmmap_region *r, const char *want)
{
	assert_int_equal(r->type_len, strlen(want));
	assert_memory_equal(r->type, want, r->type_len);
}

static void
test_modern_line(void **state)
{
	(void)state;
	struct vmmap_region r;
	const char *why;
	assert_int_equal(parse("IOAccelerator (graphics)    10876c000-10877c000    [   64K    64K     0K    64K] rw-/rw- SM=SHM PURGE=N", &r, &why),
			 VMMAP_LINE_REGION);
	assert_type(&r, "IOAccelerator (graphics)");
	assert_true(r.has_range);
	assert_int_equal(r.vsize, 0x10000);
	assert_int_equal(r.resident, 65536);
	assert_int_equal(r.dirty, 0);
	assert_int_equal(r.swapped, 65536);
	assert_int_equal(r.size_columns, 4);
	assert_int_equal(r.purge, VMMAP_PURGE_N);
}

static void
test_exact_size_beats_rounded(void **state)
{
	(void)state;
	struct vmmap_region r;
	const char *why;
	/* VSIZE prints 48.8M; the range says 0x30d8000 bytes exactly. */
	assert_int_equal(parse("IOSurface                   2a7d38000-2aae10000    [ 48.8M     0K     0K  48.8M] rw-/rw- SM=SHM PURGE=N  SurfaceID: 0x5f  2440x5196 (BGRA) 48.8M", &r, &why),
			 VMMAP_LINE_REGION);
	assert_int_equal(r.vsize, 0x2aae10000ull - 0x2a7d38000ull);
	assert_false(r.has_surface);   /* read on demand */
	vmmap_region_read_surface(&r);
	assert_true(r.has_surface);
	assert_int_equal(r.surface.width, 2440);
	assert_int_equal(r.surface.height, 5196);
	assert_string_equal(r.surface.format, "BGRA");
	assert_true(r.surface.bytes_rounded);
}

static void
test_unmapped_uses_printed_size(void **state)
{
	(void)state;
	struct vmmap_region r;
	const char *why;
	assert_int_equal(parse("owned unmapped (graphics)    unmapped-unmapped     [ 22.6M  22.6M     0K     0K] rw-/rw- SM=PRV PURGE=V  owned physical footprint (unmapped) (graphics)", &r, &why),
			 VMMAP_LINE_REGION);
	assert_false(r.has_range);
	assert_true(r.vsize_rounded);
	assert_int_equal(r.vsize, (uint64_t)(22.6 * 1048576.0));
	assert_int_equal(r.purge, VMMAP_PURGE_V);
}

/*
 * Size slots are kept by their text between lines: a slot seen before must
 * give the same figure and rounding, in any column, and a slot that differs
 * in one byte (a unit, a digit, a blank) must not be taken for it. A VSIZE
 * with an M/G/T unit is rounded ("%.1f" or a whole number of the unit).
 */
static void
test_repeated_size_slots(void **state)
{
	(void)state;
	static const struct {
		const char *line;
		uint64_t vsize, resident, dirty, swapped;
		bool rounded;
	} cases[] = {
		{ "owned unmapped   unmapped-unmapped     [  1.5M   16K  1.5M    0K] rw-/rw- SM=PRV",
		  1572864, 16384, 1572864, 0, true },
		{ "owned unmapped   unmapped-unmapped     [   16K  1.5M    0K   16K] rw-/rw- SM=PRV",
		  16384, 1572864, 0, 16384, false },
		{ "owned unmapped   unmapped-unmapped     [   16M  1.5G   16    1.5K] rw-/rw- SM=PRV",
		  16777216, 1610612736, 16, 1536, true },
		{ "owned unmapped   unmapped-unmapped     [  1.5M   16K   160K   0K] rw-/rw- SM=PRV",
		  1572864, 16384, 163840, 0, true },
		{ "owned unmapped   unmapped-unmapped     [   16    16K  1.5G  1.5M] rw-/rw- SM=PRV",
		  16, 16384, 1610612736, 1572864, false },
	};
	for (int round = 0; round < 2; round++) {
		for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
			struct vmmap_region r;
			const char *why;
			assert_int_equal(parse(cases[i].line, &r, &why), VMMAP_LINE_REGION);
			assert_int_equal(r.vsize, cases[i].vsize);
			assert_int_equal(r.resident, cases[i].resident);
			assert_int_equal(r.dirty, cases[i].dirty);
			assert_int_equal(r.swapped, cases[i].swapped);
			assert_int_equal(r.vsize_rounded, cases[i].rounded);
		}
	}
}

static void
test_shifted_and_prefixed_lines(void **state)
{
	(void)state;
	struct vmmap_region r;
	const char *why;
	/* One column to the right, as in a real macOS 26.5 capture. */
	assert_int_equal(parse("IOAccelerator                107c58000-107c5c000    [   16K    16K    16K     0K] r--/r-- SM=SHM", &r, &why),
			 VMMAP_LINE_REGION);
	assert_type(&r, "IOAccelerator");
	assert_int_equal(r.purge, VMMAP_PURGE_NONE);
	assert_int_equal(parse("--->  STACK GUARD                 16fecc000-16fed0000    [   16K] ---/rwx SM=NUL  ...for thread 12", &r, &why),
			 VMMAP_LINE_REGION);
	assert_type(&r, "STACK GUARD");
	assert_int_equal(r.size_columns, 1);
	assert_int_equal(parse("    > IOSurface  0x117000000-0x117800000 [ 8192K  1024K  1024K    0K] rw-/rwx SM=S/A PURGE=E  ", &r, &why),
			 VMMAP_LINE_REGION);
	assert_type(&r, "IOSurface");
	assert_int_equal(r.vsize, 0x800000);
	assert_int_equal(r.purge, VMMAP_PURGE_E);
}

static void
test_legacy_layouts(void **state)
{
	(void)state;
	struct vmmap_region r;
	const char *why;
	assert_int_equal(parse("__TEXT                 00001000-00034000 [  204K] r-x/rwx SM=COW", &r, &why),
			 VMMAP_LINE_REGION);
	assert_int_equal(r.vsize, 0x33000);
	assert_int_equal(parse("MALLOC_TINY            00007fe3b8400000-00007fe3b8500000 [ 1024K   12K   12K    0K] rw-/rwx SM=PRV  DefaultMallocZone_0x10f4c4000", &r, &why),
			 VMMAP_LINE_REGION);
	assert_type(&r, "MALLOC_TINY");
	assert_int_equal(r.vsize, 0x100000);
	/* Detail with brackets must not confuse the anchor. */
	assert_int_equal(parse("__DATA                 8fe2e000-8fe30000 [    8K] rw-/rwx SM=COW  commpage [libSystem.B.dylib]", &r, &why),
			 VMMAP_LINE_REGION);
}

static void
test_malformed_lines(void **state)
{
	(void)state;
	struct vmmap_region r;
	const char *why = NULL;
	assert_int_equal(parse("IOAccelerator  10877c000-10876c000 [ 64K 64K 0K 0K] rw-/rw- SM=SHM", &r, &why),
			 VMMAP_LINE_MALFORMED);
	assert_non_null(strstr(why, "below its start"));
	assert_int_equal(parse("IOAccelerator  1000-2000 [ 99999999999T 0K 0K 0K] rw-/rw- SM=SHM", &r, &why),
			 VMMAP_LINE_MALFORMED);
	assert_non_null(strstr(why, "64 bits"));
	assert_int_equal(parse("IOAccelerator (graphics)    10876c000-10877c000    [   64K    6", &r, &why),
			 VMMAP_LINE_MALFORMED);
	assert_int_equal(parse("Process:         Finder [640]", &r, &why), VMMAP_LINE_OTHER);
	assert_int_equal(parse("", &r, &why), VMMAP_LINE_OTHER);
	assert_int_equal(parse("VM Region Info: 0x16fecc000 is in 0x16fecc000-0x16fed0000;  bytes", &r, &why),
			 VMMAP_LINE_OTHER);
}

/* Pastes collapse or widen the blanks around PRT/MAX, or turn them into tabs. */
static void
test_blanks_around_prot(void **state)
{
	(void)state;
	static const char *const lines[] = {
		"IOSurface  123e8c000-123e90000  [   16K     0K     0K     0K]  r--/r-- SM=SHM PURGE=N",
		"IOSurface  123e8c000-123e90000  [   16K     0K     0K     0K]\tr--/r-- SM=SHM PURGE=N",
		"IOSurface  123e8c000-123e90000  [   16K     0K     0K     0K]r--/r-- SM=SHM PURGE=N",
		"IOSurface  123e8c000-123e90000  [   16K     0K     0K     0K] r--/r--\t SM=SHM PURGE=N",
		"IOSurface\t123e8c000-123e90000\t[   16K     0K     0K     0K]   r--/r--   SM=SHM PURGE=N",
	};
	for (size_t i = 0; i < ARRAY_SIZE(lines); i++) {
		struct vmmap_region r;
		const char *why;
		assert_int_equal(parse(lines[i], &r, &why), VMMAP_LINE_REGION);
		assert_type(&r, "IOSurface");
		assert_int_equal(r.vsize, 0x4000);
		assert_int_equal(r.purge, VMMAP_PURGE_N);
	}
	/* No blank at all between PRT/MAX and SM= is not the anchor. */
	struct vmmap_region r;
	const char *why;
	assert_int_equal(parse("IOSurface  1000-2000  [ 4K 0K 0K 0K] r--/r--SM=SHM", &r, &why),
			 VMMAP_LINE_MALFORMED);
}

/* Header values with '-' are names, not START-END address ranges. */
static void
test_names_with_dashes(void **state)
{
	(void)state;
	struct vmmap_region r;
	const char *why;
	assert_int_equal(parse("Process:         llama-server [52794]", &r, &why), VMMAP_LINE_OTHER);
	assert_int_equal(parse("Parent Process:  ssh-agent [52790]", &r, &why), VMMAP_LINE_OTHER);
	assert_int_equal(parse("Responsible:     iTerm2-nightly [52001]", &r, &why), VMMAP_LINE_OTHER);
	/* A broken line with an address range before '[' is still meant as a region. */
	assert_int_equal(parse("IOSurface  123e8c000-123e90000  [   16K", &r, &why), VMMAP_LINE_MALFORMED);
}

/*
 * vmmap_line_evidence_other() skips checks by a line's first byte, by
 * whether it holds a '[' or '=', and by its length: lines at each edge of
 * those gates, with the verdict every check run in turn gives.
 */
static void
test_line_evidence_gates(void **state)
{
	(void)state;
	static const struct {
		const char *line;
		enum vmmap_evidence want;
	} cases[] = {
		/* The shortest full summary row (17 bytes), and one byte less. */
		{ "X 1 2 3 4 5 6 7 8", VMMAP_EVIDENCE_DUMP },
		{ "X 1 2 3 4 5 6 78", VMMAP_EVIDENCE_NONE },
		{ "> X 1 2 3 4 5 6 7 8   ", VMMAP_EVIDENCE_DUMP },
		/* Rows whose names start with a byte a fixed-start check looks for. */
		{ "Analysis 1 2 3 4 5 6 7 8", VMMAP_EVIDENCE_DUMP },
		{ "REGION 1K 2K 3K 4K 5K 6K 7K 8", VMMAP_EVIDENCE_DUMP },
		{ "vmmapish 1 2 3 4 5 6 7 8", VMMAP_EVIDENCE_DUMP },
		{ "Virtual 1 2 3 4 5 6 7 8", VMMAP_EVIDENCE_DUMP },
		{ "= 1 2 3 4 5 6 7 8", VMMAP_EVIDENCE_DUMP },
		{ "\"q\" 1 2 3 4 5 6 7 8", VMMAP_EVIDENCE_DUMP },
		/* Not JSON, not a fixed start: the whole-line checks still decide. */
		{ "{x 100-200 [ 4K", VMMAP_EVIDENCE_REGION_LIKE },
		{ "Analysis Tool:", VMMAP_EVIDENCE_NONE },
		{ "Analysis Tool:   /usr/bin/vmmap", VMMAP_EVIDENCE_DUMP },
		{ "> ==== Legend", VMMAP_EVIDENCE_DUMP },
		{ "===========   =======", VMMAP_EVIDENCE_NONE },
		{ "vmmap: cannot examine process 1", VMMAP_EVIDENCE_FAILURE },
		/* Region-like by " SM=" alone (no '['), by the '[' alone. */
		{ "TYPE 100-200 r--/r-- SM=COW", VMMAP_EVIDENCE_REGION_LIKE },
		{ "TYPE 100-200 [ 4K", VMMAP_EVIDENCE_REGION_LIKE },
		{ "TYPE 100-200 4K", VMMAP_EVIDENCE_NONE },
		{ "Process:         Python [44698]", VMMAP_EVIDENCE_NONE },
		{ "", VMMAP_EVIDENCE_NONE },
		{ "   ", VMMAP_EVIDENCE_NONE },
	};
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		size_t n = strlen(cases[i].line);
		assert_int_equal(vmmap_line_evidence_other(cases[i].line, n), cases[i].want);
		/* The start alone: the same, less what only the whole-line checks
		 * say (REGION_LIKE, or DUMP for a row without a header). */
		enum vmmap_evidence s = vmmap_line_evidence_start(cases[i].line, n);
		if (s != cases[i].want &&
		    !(s == VMMAP_EVIDENCE_NONE && (cases[i].want == VMMAP_EVIDENCE_REGION_LIKE ||
						   cases[i].want == VMMAP_EVIDENCE_DUMP)))
			fail_msg("'%s': start %d, whole line %d", cases[i].line, s, cases[i].want);
	}
	/* What the start decides, it decides alone. */
	assert_int_equal(vmmap_line_evidence_start("> ==== Legend", 13), VMMAP_EVIDENCE_DUMP);
	assert_int_equal(vmmap_line_evidence_start("vmmap: cannot examine process 1", 31),
			 VMMAP_EVIDENCE_FAILURE);
	assert_int_equal(vmmap_line_evidence_start("Analysis Tool:   /usr/bin/leaks", 31),
			 VMMAP_EVIDENCE_OTHER_TOOL);
	assert_int_equal(vmmap_line_evidence_start("X 1 2 3 4 5 6 7 8", 17), VMMAP_EVIDENCE_NONE);
}

static void
test_line_evidence(void **state)
{
	(void)state;
	static const struct {
		const char *line;
		enum vmmap_evidence want;
	} cases[] = {
		{ "Analysis Tool:   /usr/bin/vmmap", VMMAP_EVIDENCE_DUMP },
		{ "Analysis Tool:   /Applications/Xcode.app/Contents/Developer/usr/bin/vmmap32",
		  VMMAP_EVIDENCE_DUMP },
		{ "Analysis Tool:   /usr/bin/leaks", VMMAP_EVIDENCE_OTHER_TOOL },
		{ "Virtual Memory Map of process 44698 (Python)", VMMAP_EVIDENCE_DUMP },
		{ "==== Summary for process 44254", VMMAP_EVIDENCE_DUMP },
		{ "> REGION TYPE  VIRTUAL RESIDENT DIRTY SWAPPED VOLATILE NONVOL EMPTY REGION",
		  VMMAP_EVIDENCE_DUMP },
		{ "IOSurface  2.6G  2.6G  2.6G  0K  0K  2.6G  0K  662", VMMAP_EVIDENCE_DUMP },
		{ "IOSurface  606.3M  606.3M  0K", VMMAP_EVIDENCE_NONE },
		{ "IOSurface  123e8c000-123e90000  [ 16K 0K 0K 0K]  r--/r-- SM=SHM", VMMAP_EVIDENCE_DUMP },
		{ "IOSurface  123e90000-123e8c000  [ 16K 0K 0K 0K] r--/r-- SM=SHM",
		  VMMAP_EVIDENCE_REGION_LIKE },
		{ "vmmap[40148]: vmmap cannot examine process 999999 (with name like '999999')",
		  VMMAP_EVIDENCE_FAILURE },
		{ "Process:         Python [44698]", VMMAP_EVIDENCE_NONE },
		{ "Physical footprint:         1.9G", VMMAP_EVIDENCE_NONE },
		/* A crash report's JSON Full Report quotes region lines: not evidence. */
		{ "  \"vmRegionInfo\" : \"0x0 is not in any region.\\n      __TEXT  1040c4000-104594000    [ 4928K] r-x/r-x SM=COW  x\",",
		  VMMAP_EVIDENCE_NONE },
	};
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++)
		assert_int_equal(vmmap_line_evidence(cases[i].line, strlen(cases[i].line)),
				 cases[i].want);
	const char buf[] = "Process: leaks-demo [1]\nAnalysis Tool: /usr/bin/leaks\n";
	assert_int_equal(vmmap_recognise(buf, sizeof(buf) - 1), VMMAP_EVIDENCE_OTHER_TOOL);
	const char both[] = "vmmap: cannot examine process 1\nVirtual Memory Map of process 2 (x)\n";
	assert_int_equal(vmmap_recognise(both, sizeof(both) - 1), VMMAP_EVIDENCE_DUMP);
}

/* vmmap -pages: page counts, told apart from bytes and converted exactly. */
static void
test_page_counts(void **state)
{
	(void)state;
	struct vmmap_region r;
	const char *why;
	uint64_t v;
	assert_int_equal(parse("IOSurface  104878000-105af8000  [    1184     1184     1184        0] rw-/rw- SM=SHM PURGE=N", &r, &why),
			 VMMAP_LINE_REGION);
	assert_true(r.page_counts);
	assert_int_equal(vmmap_region_pages_to_bytes(&r, 16384, &why), 0);
	assert_int_equal(r.vsize, 0x105af8000ull - 0x104878000ull);
	assert_int_equal(r.resident, 1184ull * 16384);
	assert_int_equal(r.swapped, 0);
	/* Bytes: units everywhere but on sub-4K sizes of sub-page ranges. */
	assert_int_equal(parse("__DATA_CONST  1de418000-1de418f10 [  3856   3856     0K   824] r--/rw- SM=COW", &r, &why),
			 VMMAP_LINE_REGION);
	assert_false(r.page_counts);
	assert_int_equal(parse("IOSurface  104878000-105af8000  [ 18.5M  18.5M  18.5M     0K] rw-/rw- SM=SHM", &r, &why),
			 VMMAP_LINE_REGION);
	assert_false(r.page_counts);
	assert_int_equal(parse("owned unmapped (graphics) unmapped-unmapped [    2.50        0        0        0] rw-/rw- SM=PRV", &r, &why),
			 VMMAP_LINE_REGION);
	assert_true(r.page_counts);
	assert_int_equal(vmmap_region_pages_to_bytes(&r, 16384, &why), 0);
	assert_int_equal(r.vsize, 40960);
	assert_int_equal(vmmap_pages_to_bytes("0.25", 4, 4096, &v), 0);
	assert_int_equal(v, 1024);
	assert_int_equal(vmmap_pages_to_bytes("99999999999999999", 17, 16384, &v), -1);
	assert_int_equal(vmmap_pages_to_bytes("12K", 3, 16384, &v), -1);
	assert_int_equal(vmmap_pages_to_bytes("12", 2, 0, &v), -1);
}

static void
layout(struct vmmap_table_layout *t, const char *above, const char *head)
{
	vmmap_table_layout_from(t, above, strlen(above), head, strlen(head));
}

static void
assert_row_name(const struct vmmap_summary_row *row, const char *name)
{
	assert_int_equal(row->name_len, strlen(name));
	assert_memory_equal(row->name, name, row->name_len);
}

/* The one-line header names the count column as a second REGION word. */
static void
test_summary_one_line_header(void **state)
{
	(void)state;
	struct vmmap_table_layout t;
	struct vmmap_summary_row row;
	const char *why = NULL;
	const char *line = "IOAccelerator (graphics)           1.9G     1.5G     1.5G       0K       0K     1.5G     160K     1454";

	layout(&t, "", "REGION TYPE  VIRTUAL RESIDENT DIRTY SWAPPED VOLATILE NONVOL EMPTY REGION");
	assert_int_equal(t.ncols, 7);
	assert_true(t.has_count);
	assert_int_equal(vmmap_table_parse_row(line, strlen(line), &t, &row, &why), 0);
	assert_row_name(&row, "IOAccelerator (graphics)");
	assert_int_equal(row.value[VMMAP_COL_VIRTUAL], (uint64_t)(1.9 * 1073741824.0));
	assert_int_equal(row.value[VMMAP_COL_EMPTY], 160 * 1024);
	assert_true(row.has_count);
	assert_int_equal(row.count, 1454);

	/* The two-line header: the count is named by COUNT on the second line. */
	layout(&t, "                                VIRTUAL RESIDENT    DIRTY  SWAPPED VOLATILE   NONVOL    EMPTY   REGION ",
	       "REGION TYPE                        SIZE     SIZE     SIZE     SIZE     SIZE     SIZE     SIZE    COUNT (non-coalesced) ");
	assert_int_equal(t.ncols, 7);
	assert_true(t.has_count);

	/* A header that names one column fewer than the row has: never a
	 * type name ending in "1.9G", the row is refused. */
	layout(&t, "", "REGION TYPE  VIRTUAL RESIDENT DIRTY SWAPPED VOLATILE NONVOL EMPTY");
	assert_false(t.has_count);
	assert_int_equal(vmmap_table_parse_row(line, strlen(line), &t, &row, &why), -1);
	assert_non_null(strstr(why, "more figures"));

	/* A type name may end in a plain number. */
	const char *tag = "Memory Tag 22                     64.0M      32K      32K      32K       0K       0K       0K        1 ";
	layout(&t, "", "REGION TYPE  VIRTUAL RESIDENT DIRTY SWAPPED VOLATILE NONVOL EMPTY REGION");
	assert_int_equal(vmmap_table_parse_row(tag, strlen(tag), &t, &row, &why), 0);
	assert_row_name(&row, "Memory Tag 22");
	assert_int_equal(row.count, 1);
}

/*
 * A row is read from its right end when its columns end it; otherwise (a
 * note after them, more tokens than the split keeps) by the split of the
 * whole row. Both give the same row.
 */
static void
test_summary_row_ends(void **state)
{
	(void)state;
	struct vmmap_table_layout t;
	struct vmmap_summary_row row;
	const char *why;
	layout(&t, "", "REGION TYPE  VIRTUAL RESIDENT DIRTY SWAPPED VOLATILE NONVOL EMPTY REGION");

	/* A note after the count: the columns are found before it. */
	const char *note = "IOSurface   2.6G  2.6G  2.6G  0K  0K  2.6G  0K  662  (see below)";
	assert_int_equal(vmmap_table_parse_row(note, strlen(note), &t, &row, &why), 0);
	assert_row_name(&row, "IOSurface");
	assert_int_equal(row.count, 662);
	assert_int_equal(row.value[VMMAP_COL_NONVOL], (uint64_t)(2.6 * 1073741824.0));

	/* Brackets: a token does not start with '[' but may hold one; the name
	 * is the text before the first column, less the '[' that opens them. */
	const char *br = "[ IOKit[x]  [ 16K] 8K 8K 0K 0K 0K 0K  3]";
	assert_int_equal(vmmap_table_parse_row(br, strlen(br), &t, &row, &why), 0);
	assert_row_name(&row, "[ IOKit[x]");
	assert_int_equal(row.value[VMMAP_COL_VIRTUAL], 16 * 1024);
	assert_int_equal(row.count, 3);

	/* A name of 70 words: the split keeps 64 tokens, so the columns at the
	 * end are not among them, and the row is not read (as before the right
	 * end was read first). */
	char longrow[1024];
	size_t n = 0;
	for (int i = 0; i < 70; i++)
		n += (size_t)snprintf(longrow + n, sizeof(longrow) - n, "w ");
	snprintf(longrow + n, sizeof(longrow) - n, "16K 8K 8K 0K 0K 0K 0K 3");
	assert_int_equal(vmmap_table_parse_row(longrow, strlen(longrow), &t, &row, &why), -2);

	/* A name of 40 words fits: read from the right. */
	n = 0;
	for (int i = 0; i < 40; i++)
		n += (size_t)snprintf(longrow + n, sizeof(longrow) - n, "w ");
	snprintf(longrow + n, sizeof(longrow) - n, "16K 8K 8K 0K 0K 0K 0K 3");
	assert_int_equal(vmmap_table_parse_row(longrow, strlen(longrow), &t, &row, &why), 0);
	assert_int_equal(row.name_len, 40 * 2 - 1);
	assert_int_equal(row.count, 3);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_modern_line),
		cmocka_unit_test(test_summary_row_ends),
		cmocka_unit_test(test_exact_size_beats_rounded),
		cmocka_unit_test(test_unmapped_uses_printed_size),
		cmocka_unit_test(test_repeated_size_slots),
		cmocka_unit_test(test_shifted_and_prefixed_lines),
		cmocka_unit_test(test_legacy_layouts),
		cmocka_unit_test(test_malformed_lines),
		cmocka_unit_test(test_summary_one_line_header),
		cmocka_unit_test(test_blanks_around_prot),
		cmocka_unit_test(test_names_with_dashes),
		cmocka_unit_test(test_line_evidence),
		cmocka_unit_test(test_line_evidence_gates),
		cmocka_unit_test(test_page_counts),
	};
	return cmocka_run_group_tests_name("vmmap-parse", tests, NULL, NULL);
}
