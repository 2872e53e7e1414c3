/*
 * The report model and its writers: binary-unit figures worked out by hand,
 * Markdown and HTML escaping of hostile strings, the Markdown size limit on
 * a report far larger than it, and the row cap of the model.
 */

#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "model/diff.h"
#include "model/report.h"
#include "report/diff_report.h"
#include "report/report_html_write.h"
#include "report/report_md_write.h"
#include "report/report_tables_write.h"
#include "report/textfmt.h"
#include "util/size.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

static void
check_binary(uint64_t v, const char *want)
{
	char b[32];
	size_format_binary(v, b);
	assert_string_equal(b, want);
}

static void
check_delta(int64_t v, const char *want)
{
	char b[32];
	size_format_binary_delta(v, b);
	assert_string_equal(b, want);
}

static void
test_binary_units(void **state)
{
	(void)state;
	check_binary(0, "0 B");
	check_binary(1023, "1023 B");
	check_binary(1024, "1 KiB");
	check_binary(1536, "1.5 KiB");                 /* 1.5 * 1024 */
	check_binary(1310720, "1.25 MiB");             /* 1.25 * 2^20 */
	check_binary(402653184, "384 MiB");            /* 3 * 128 MiB */
	/* 1289748 / 2^20 = 1.22999... : rounded to 1.23, so marked. */
	check_binary(1289748, "~1.23 MiB");
	/* 1047552 = 1023 KiB exactly. */
	check_binary(1047552, "1023 KiB");
	/* 2^20 - 1 bytes is 1023.999 KiB: rounds up to 1024.00 and says so. */
	check_binary(1048575, "~1024 KiB");
	check_binary((uint64_t)INT64_MAX, "~8 EiB");
	check_delta(0, "0 B");
	check_delta(-1536, "-1.5 KiB");
	check_delta(1044480, "+1020 KiB");             /* +1 MiB + 8 KiB - 12 KiB */
	check_delta(-1289748, "~-1.23 MiB");
}

static void
check_md(const char *in, const char *want)
{
	struct strbuf sb = STRBUF_INIT;
	report_md_escape(in, 0, &sb);
	assert_string_equal(sb.buf, want);
	strbuf_release(&sb);
}

static void
test_markdown_escape(void **state)
{
	(void)state;
	check_md("A|B", "A\\|B");
	check_md("OSValueObject<void*>", "OSValueObject\\<void\\*\\>");
	check_md("# heading", "\\# heading");
	check_md("#hashtag", "#hashtag");
	check_md("---", "\\---");
	check_md("===", "\\===");
	check_md("- item", "\\- item");
	check_md("-5", "-5");
	check_md("1. Foo", "1\\. Foo");
	check_md("1.2G", "1.2G");
	check_md("> quote", "\\> quote");
	check_md("back\\slash `tick` [link](x) ~s~ &amp;",
		 "back\\\\slash \\`tick\\` \\[link\\](x) \\~s\\~ \\&amp;");
	/* Controls and invalid bytes as \xNN (util/escape.h), its backslash escaped. */
	check_md("a\nb\r\tc", "a\\\\x0ab\\\\x0d\\\\x09c");
	check_md("bad\xff", "bad\\\\xff");
	check_md("osc\x1b]52;c;aGk=\x07", "osc\\\\x1b\\]52;c;aGk=\\\\x07");
	check_md("csi\xc2\x9b" "2J caf\xc3\xa9", "csi\\\\xc2\\\\x9b2J caf\xc3\xa9");
}

static void
check_html(const char *in, const char *want)
{
	struct strbuf sb = STRBUF_INIT;
	report_html_escape(in, 0, &sb);
	assert_string_equal(sb.buf, want);
	strbuf_release(&sb);
}

static void
test_html_escape(void **state)
{
	(void)state;
	check_html("<img src=x onerror=alert(1)></script><script>alert(2)</script>",
		   "&lt;img src=x onerror=alert(1)&gt;&lt;/script&gt;&lt;script&gt;alert(2)"
		   "&lt;/script&gt;");
	check_html("\"'&", "&quot;&#39;&amp;");
	check_html("\x01\xc0\x80", "\\x01\\xc0\\x80");
}

static size_t
count(const char *hay, const char *needle)
{
	size_t n = 0;
	for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle))
		n++;
	return n;
}

/* The data JSON cannot close the <script> it is in, nor open a comment. */
static void
test_html_data_neutralised(void **state)
{
	(void)state;
	struct report r;
	report_init(&r, "vmmap", false);
	report_add_verdict(&r, "</script><script>alert(1)</script><!-- x");
	report_add_provenance(&r, "Process", "</SCRIPT>");
	struct strbuf sb = STRBUF_INIT;
	report_html_render(&r, &sb);
	assert_int_equal(count(sb.buf, "</script>"), 1);
	assert_int_equal(count(sb.buf, "<script"), 1);
	assert_int_equal(count(sb.buf, "</SCRIPT>"), 0);
	assert_int_equal(count(sb.buf, "<!--"), 0);
	assert_non_null(strstr(sb.buf, "\\u003c/script\\u003e\\u003cscript\\u003e"));
	strbuf_release(&sb);
	report_release(&r);
}

/* A report of 8 tables x 1000 rows of 300-character names, with backtraces. */
static void
test_markdown_limit(void **state)
{
	(void)state;
	static const char *const cols[] = { "name", "bytes", "delta" };
	char name[301];
	memset(name, 'x', 300);
	name[300] = '\0';
	const char *frames[40];
	for (size_t i = 0; i < 40; i++)
		frames[i] = name;
	struct report r;
	report_init(&r, "track", true);
	struct report_section *s = report_section(&r, REPORT_SEC_TRACK, "Call sites");
	for (int t = 0; t < 8; t++) {
		char id[16];
		snprintf(id, sizeof(id), "t%d", t);
		struct report_table *tab = report_section_add_table(s, id, "Sites", 3, cols);
		for (int i = 0; i < 1005; i++) {
			if (!report_table_row(tab))
				continue;
			report_table_code(tab, name);
			report_table_figure(tab, REPORT_CELL_BYTES, 4096 * (int64_t)i);
			report_table_figure(tab, REPORT_CELL_DBYTES, -4096 * (int64_t)i);
			report_table_detail(tab, frames, 40);
		}
		assert_int_equal(tab->nrows, REPORT_ROWS_MAX);
		assert_int_equal(tab->omitted, 5);
	}
	struct strbuf sb = STRBUF_INIT;
	report_md_render(&r, &sb);
	assert_true(sb.len <= REPORT_MD_LIMIT);
	assert_true(sb.len > REPORT_MD_LIMIT / 4);
	assert_non_null(strstr(sb.buf, "more rows not shown"));
	strbuf_release(&sb);
	report_release(&r);
}

/* text_fixed() must print what printf prints: libc is the reference. */
static void
check_fixed(double v, int width, int decimals)
{
	char got[TEXT_FIXED_MAX], want[TEXT_FIXED_MAX];
	size_t n = text_fixed(got, v, width, decimals);
	snprintf(want, sizeof(want), "%*.*f", width, decimals, v);
	if (strcmp(got, want) != 0 || n != strlen(want))
		fail_msg("%%%d.%df of %a: got '%s', printf '%s'", width, decimals, v, got, want);
}

static void
test_fixed_matches_printf(void **state)
{
	(void)state;
	/* Exact ties at every decimal count round to even (0.125 -> 0.12),
	 * and the values the reports print: byte counts over 2^10 and 2^20. */
	static const double edges[] = {
		0.0, 0.05, 0.125, 0.375, 0.25, 0.75, 0.5, 1.5, 2.5, 0.005, 0.015, 0.995,
		9.995, 99.995, 1e-300, 5e-324, 0x1p52, 0x1p53 + 2, 0x1p60, 0x1p61, 1e30,
		-0.0, -1.5, 12345678.125, 4095.9999999,
	};
	for (size_t i = 0; i < sizeof(edges) / sizeof(edges[0]); i++)
		for (int d = 0; d <= 3; d++)
			for (int w = 0; w <= 10; w += 5)
				check_fixed(edges[i], w, d);
	uint64_t x = 0x9E3779B97F4A7C15u;
	for (int i = 0; i < 200000; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		uint64_t bytes = x >> (x & 63);
		check_fixed((double)bytes / 1024.0, 8, 1);
		check_fixed((double)bytes / 1048576.0, 7, 2);
		check_fixed((double)(bytes & ~UINT64_C(0x3ff)) / 1048576.0, 0, 2);
		check_fixed((double)(bytes % 100000) / 1024.0, 8, 1);
		check_fixed((double)(bytes % 100000) / 1048576.0, 7, 2);
	}
}

/* A pair report of 5 rows, rows 1 and 3 unchanged, and 4 provenance rows. */
static void
fold_report(struct report *r, bool all)
{
	static const char *const cols[] = { "name", "delta" };
	report_init(r, "classes", true);
	r->all = all;
	report_add_provenance(r, "iotally", "0.1.0");
	report_add_provenance(r, "Code type", "ARM64");
	report_add_provenance(r, "Input", "after.txt");
	report_add_provenance(r, "Process", "Game");
	struct report_section *s = report_section(r, REPORT_SEC_CLASSES, "Classes");
	struct report_table *t = report_section_add_table(s, "c", "Counts", 2, cols);
	for (int i = 0; i < 5; i++) {
		char name[16];
		snprintf(name, sizeof(name), "Row%d", i);
		report_table_row(t);
		report_table_code(t, name);
		report_table_figure(t, REPORT_CELL_DCOUNT, i % 2 ? 0 : i + 1);
		if (i % 2)
			report_table_unchanged(t);
	}
}

static void
test_fold_markdown(void **state)
{
	(void)state;
	struct report r;
	struct strbuf sb = STRBUF_INIT;
	fold_report(&r, false);
	report_md_render(&r, &sb);
	assert_non_null(strstr(sb.buf, "| Row0 | +1 |\n| Row2 | +3 |\n| Row4 | +5 |\n\n"
				       "*2 unchanged rows left out: `--all` shows them.*\n"));
	assert_null(strstr(sb.buf, "Row1"));
	/* The rows that matter first, in their order; the rest in one line at the end. */
	assert_non_null(strstr(sb.buf, "|---|---|\n| Process | Game |\n| Input | after.txt |\n\n"));
	assert_non_null(strstr(sb.buf, "\nAlso recorded: iotally: 0.1.0 \xc2\xb7 Code type: ARM64\n"));
	report_release(&r);

	sb.len = 0;
	fold_report(&r, true);
	report_md_render(&r, &sb);
	assert_non_null(strstr(sb.buf, "| Row0 | +1 |\n| Row1 | 0 |\n| Row2 | +3 |\n"
				       "| Row3 | 0 |\n| Row4 | +5 |\n\n"));
	assert_null(strstr(sb.buf, "unchanged"));
	assert_null(strstr(sb.buf, "Also recorded"));
	assert_non_null(strstr(sb.buf, "| iotally | 0.1.0 |\n| Code type | ARM64 |\n"));
	report_release(&r);
	strbuf_release(&sb);
}

static void
test_fold_html(void **state)
{
	(void)state;
	struct report r;
	struct strbuf sb = STRBUF_INIT;
	fold_report(&r, false);
	report_html_render(&r, &sb);
	const char *fold = strstr(sb.buf, "<details class=\"unchanged\"><summary>2 unchanged rows");
	assert_non_null(fold);
	const char *row1 = strstr(sb.buf, ">Row1<"), *row3 = strstr(sb.buf, ">Row3<");
	const char *row4 = strstr(sb.buf, ">Row4<");
	assert_true(row1 > fold && row3 > fold && row4 < fold);
	assert_non_null(strstr(sb.buf, "<details class=\"provenance-rest\"><summary>2 more "
				       "provenance rows"));
	report_release(&r);

	sb.len = 0;
	fold_report(&r, true);
	report_html_render(&r, &sb);
	/* --all: nothing folded; the provenance, below the data, stands open. */
	assert_null(strstr(sb.buf, "<details class=\"unchanged\""));
	assert_null(strstr(sb.buf, "<details class=\"provenance-rest\""));
	assert_non_null(strstr(sb.buf, "<details class=\"provenance\" open>"));
	report_release(&r);
	strbuf_release(&sb);
}

/* Unchanged rows past the row cap are counted as folded, not as rows cut. */
static void
test_fold_past_cap(void **state)
{
	(void)state;
	static const char *const cols[] = { "name" };
	struct report r;
	report_init(&r, "track", true);
	struct report_section *s = report_section(&r, REPORT_SEC_TRACK, "Sites");
	struct report_table *t = report_section_add_table(s, "s", "Sites", 1, cols);
	for (int i = 0; i < REPORT_ROWS_MAX + 30; i++) {
		report_table_row(t);
		report_table_text(t, "x");
		if (i >= REPORT_ROWS_MAX - 10)
			report_table_unchanged(t);
	}
	assert_int_equal(t->nunchanged, 10);
	assert_int_equal(t->omitted, 30);
	assert_int_equal(t->omitted_unchanged, 30);
	assert_int_equal(report_table_folded(t, false), 40);
	assert_int_equal(report_table_omitted_open(t, false), 0);
	assert_int_equal(report_table_omitted_open(t, true), 30);
	struct strbuf sb = STRBUF_INIT;
	report_md_render(&r, &sb);
	assert_non_null(strstr(sb.buf, "*40 unchanged rows left out: `--all` shows them.*"));
	assert_non_null(strstr(sb.buf, "*890 more rows not shown"));
	strbuf_release(&sb);
	report_release(&r);
}

/*
 * Diff's tables (every_changed_row): past the cap every changed row stays,
 * in order with its cells and detail; an unchanged row past it is dropped
 * again, its detail freed, and counted as folded. Rows alternate changed
 * and unchanged, so a dropped row sits between two kept ones.
 */
static void
test_every_changed_row(void **state)
{
	(void)state;
	static const char *const cols[] = { "name", "delta" };
	static const char *const frame[] = { "frame" };
	const int n = 3 * REPORT_ROWS_MAX;
	struct report r;
	report_init(&r, "track", true);
	r.every_changed_row = true;
	struct report_section *s = report_section(&r, REPORT_SEC_TRACK, "Sites");
	struct report_table *t = report_section_add_table(s, "s", "Sites", 2, cols);
	for (int i = 0; i < n; i++) {
		assert_true(report_table_row(t));
		report_table_textf(t, "row %d", i);
		report_table_figure(t, REPORT_CELL_DCOUNT, i);
		report_table_detail(t, frame, 1);
		if (i % 2)
			report_table_unchanged(t);
	}
	/* Rows 0..cap-1 all kept (half of them unchanged), then only the even ones. */
	size_t kept_past = (size_t)(n - REPORT_ROWS_MAX) / 2;
	assert_int_equal(t->nrows, REPORT_ROWS_MAX + kept_past);
	assert_int_equal(t->nunchanged, REPORT_ROWS_MAX / 2);
	assert_int_equal(t->omitted, kept_past);
	assert_int_equal(t->omitted_unchanged, kept_past);
	assert_int_equal(report_table_omitted_open(t, false), 0);
	for (size_t row = REPORT_ROWS_MAX; row < t->nrows; row++) {
		int64_t want = REPORT_ROWS_MAX + 2 * (int64_t)(row - REPORT_ROWS_MAX);
		assert_int_equal(report_table_cell(t, row, 1)->value, want);
		assert_non_null(t->details[row]);
		assert_false(report_table_row_folded(t, row, false));
	}
	report_release(&r);

	/* Without it the cap holds as before. */
	report_init(&r, "track", true);
	s = report_section(&r, REPORT_SEC_TRACK, "Sites");
	t = report_section_add_table(s, "s", "Sites", 2, cols);
	for (int i = 0; i < n; i++) {
		report_table_row(t);
		report_table_textf(t, "row %d", i);
	}
	assert_int_equal(t->nrows, REPORT_ROWS_MAX);
	assert_int_equal(t->omitted, n - REPORT_ROWS_MAX);
	report_release(&r);
}

/* The limit as printed is the limit: digits grouped by threes with commas. */
static void
test_markdown_limit_shown(void **state)
{
	(void)state;
	char digits[32], grouped[48];
	int n = snprintf(digits, sizeof(digits), "%d", REPORT_MD_LIMIT), g = 0;
	for (int i = 0; i < n; i++) {
		if (i > 0 && (n - i) % 3 == 0)
			grouped[g++] = ',';
		grouped[g++] = digits[i];
	}
	grouped[g] = '\0';
	assert_string_equal(grouped, REPORT_MD_LIMIT_SHOWN);
}

/*
 * A gate's delta one byte past its limit looks like the limit in binary units
 * (1048577 B is ~1 MiB); the page must show the bytes that decide it.
 * Figures by hand: 2^20 = 1048576; 10485760 = 10 MiB; 11534337 = 10485760 +
 * 1048577.
 */
static void
gate_report(struct report *r, struct diff_gate g[3])
{
	struct diag err;
	report_init(r, "classes", true);
	assert_int_equal(diff_gate_parse("alloc:instance > +1MiB", &g[0], &err), 0);
	assert_int_equal(diff_gate_parse("alloc:iomalloc > +1MiB", &g[1], &err), 0);
	assert_int_equal(diff_gate_parse("classes:IOSurface > +4", &g[2], &err), 0);
	g[0].bytes = g[1].bytes = true;
	assert_int_equal(diff_gate_check(&g[0], 10485760, 11534336, &err), 0);
	assert_int_equal(diff_gate_check(&g[1], 10485760, 11534337, &err), 0);
	assert_int_equal(diff_gate_check(&g[2], 7, 12, &err), 0);
	assert_false(g[0].tripped);
	assert_true(g[1].tripped && g[2].tripped);
	report_add_gates(r, g, 3);
}

static void
test_gate_figures_exact_beside(void **state)
{
	(void)state;
	struct report r;
	struct diff_gate g[3];
	struct strbuf sb = STRBUF_INIT;
	memset(g, 0, sizeof(g));
	gate_report(&r, g);
	report_md_render(&r, &sb);
	assert_non_null(strstr(sb.buf, "| alloc:instance \\> +1MiB | 10 MiB (10485760 bytes) | "
				       "11 MiB (11534336 bytes) | +1 MiB (+1048576 bytes) | "
				       "\\> +1MiB (+1048576 bytes) | passed |\n"));
	assert_non_null(strstr(sb.buf, "| alloc:iomalloc \\> +1MiB | 10 MiB (10485760 bytes) | "
				       "~11 MiB (11534337 bytes) | ~+1 MiB (+1048577 bytes) | "
				       "\\> +1MiB (+1048576 bytes) | TRIPPED |\n"));
	/* A count stays an integer, its limit as given. */
	assert_non_null(strstr(sb.buf, "| classes:IOSurface \\> +4 | 7 | 12 | +5 | \\> +4 | TRIPPED |\n"));
	sb.len = 0;
	report_html_render(&r, &sb);
	assert_non_null(strstr(sb.buf, "<td class=\"num\" title=\"+1048577 bytes\">~+1 MiB "
				       "(+1048577 bytes)</td>"));
	assert_non_null(strstr(sb.buf, "<td class=\"num\" title=\"+5\">+5</td>"));
	report_release(&r);
	for (int i = 0; i < 3; i++)
		diff_gate_release(&g[i]);
	strbuf_release(&sb);
}

/* A gate a capture could not evaluate: no figures, not counted as passed. */
static void
test_gate_not_evaluable(void **state)
{
	(void)state;
	struct report r;
	struct diff_gate g;
	struct diag err;
	struct strbuf sb = STRBUF_INIT;
	memset(&g, 0, sizeof(g));
	report_init(&r, "vmmap", true);
	assert_int_equal(diff_gate_parse("vmmap:Stack.resident > +0", &g, &err), 0);
	g.unevaluable = true;
	g.reason = xstrdup("BEFORE has no resident figure");
	report_add_gates(&r, &g, 1);
	report_md_render(&r, &sb);
	assert_non_null(strstr(sb.buf, "| vmmap:Stack.resident \\> +0 | \xe2\x80\x93 | "
				       "\xe2\x80\x93 | \xe2\x80\x93 | \\> +0 | not evaluable |\n"));
	assert_non_null(strstr(sb.buf, "0 of 1 gate tripped, 1 not evaluable."));
	assert_non_null(strstr(sb.buf, "**gates passed: 0 of 1, 1 not evaluable**"));
	assert_non_null(strstr(sb.buf, "not evaluable: BEFORE has no resident figure."));
	report_release(&r);
	diff_gate_release(&g);
	strbuf_release(&sb);
}

/*
 * A delta exactly equal to a limit typed in a unit: '>' passes it, '>='
 * trips, and report's limit cell and diff's message say that limit the
 * same way, its bytes beside the unit (5M = 5 x 2^20 = 5242880), so the
 * reader sees delta and limit are equal.
 */
static void
test_gate_limit_equal_one_form(void **state)
{
	(void)state;
	static const char *const texts[2] = { "vmmap:gpu.dirty > +5M", "vmmap:gpu.dirty >= +5M" };
	struct diff_gate g[2];
	struct diag err;
	struct report r;
	struct strbuf page = STRBUF_INIT;
	report_init(&r, "vmmap", true);
	for (int i = 0; i < 2; i++) {
		assert_int_equal(diff_gate_parse(texts[i], &g[i], &err), 0);
		g[i].bytes = true;
		assert_int_equal(diff_gate_check(&g[i], 104890368, 110133248, &err), 0);
		assert_int_equal(g[i].delta, 5242880);
	}
	assert_false(g[0].tripped);
	assert_true(g[1].tripped);
	report_add_gates(&r, g, 2);
	report_md_render(&r, &page);
	for (int i = 0; i < 2; i++) {
		struct strbuf msg = STRBUF_INIT, limit = STRBUF_INIT, row = STRBUF_INIT;
		diff_gate_describe(&g[i], &msg);
		diff_gate_limit_text(&g[i], &limit);
		assert_string_equal(limit.buf, i ? ">= +5M (+5242880 bytes)" : "> +5M (+5242880 bytes)");
		/* diff's message ends with the limit... */
		assert_string_equal(msg.buf, i ? "delta +5242880 (+5 MiB), before 104890368 "
						 "(~100.03 MiB), after 110133248 (~105.03 MiB), "
						 "fails when >= +5M (+5242880 bytes)"
					       : "delta +5242880 (+5 MiB), before 104890368 "
						 "(~100.03 MiB), after 110133248 (~105.03 MiB), "
						 "fails when > +5M (+5242880 bytes)");
		/* ...and report's row shows the same limit (Markdown-escaped). */
		strbuf_addf(&row, "| +5 MiB (+5242880 bytes) | \\%s | %s |\n", limit.buf,
			    i ? "TRIPPED" : "passed");
		assert_non_null(strstr(page.buf, row.buf));
		strbuf_release(&msg);
		strbuf_release(&limit);
		strbuf_release(&row);
	}
	report_release(&r);
	for (int i = 0; i < 2; i++)
		diff_gate_release(&g[i]);
	strbuf_release(&page);
}

/*
 * diff's tables are the report's (report_tables_write.h): each figure by its
 * cell's kind, a rounded table's bytes marked "~", an unchanged row counted
 * instead of shown, a table without rows left out, the note under the table.
 */
static void
test_tables_markdown(void **state)
{
	(void)state;
	static const char *const cols[] = { "name", "count", "bytes", "\xce\x94 bytes" };
	struct report r;
	report_init(&r, "heap", true);
	struct report_section *s = report_section_named(&r, REPORT_SEC_HEAP, "heap", "Heap");
	report_section_add_paragraph(s, "Total 1 KiB.");
	struct report_table *t = report_section_add_table(s, "t", "Things (x|y)", 4, cols);
	report_table_row(t);
	report_table_code(t, "a");
	report_table_figure(t, REPORT_CELL_COUNT, 3);
	report_table_figure(t, REPORT_CELL_BYTES, 1536);
	report_table_figure(t, REPORT_CELL_DBYTES, 1024);
	report_table_row(t);
	report_table_code(t, "b");
	report_table_figure(t, REPORT_CELL_DCOUNT, 0);
	report_table_empty(t);
	report_table_figure(t, REPORT_CELL_DBYTES, 0);
	report_table_unchanged(t);
	report_table_row(t);
	report_table_code(t, "c");
	report_table_figure(t, REPORT_CELL_DCOUNT, 5);
	report_table_figure(t, REPORT_CELL_BYTES, 0);
	report_table_empty(t);
	t->note = xstrdup("a note");
	report_section_add_table(s, "empty", "Nothing", 4, cols);
	t = report_section_add_table(s, "r", "Rounded", 4, cols);
	t->rounded = true;
	report_table_row(t);
	report_table_code(t, "d");
	report_table_figure(t, REPORT_CELL_COUNT, 1);
	report_table_figure(t, REPORT_CELL_BYTES, 2048);
	report_table_figure(t, REPORT_CELL_DBYTES, -2048);
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	assert_non_null(out);
	report_tables_write(out, &r, true);
	fclose(out);
	assert_string_equal(buf,
		"Total 1 KiB.\n\n"
		"### Things (x\\|y)\n\n"
		"| NAME | COUNT | BYTES | \xce\x94 BYTES |\n"
		"|:---|---:|---:|---:|\n"
		"| a | 3 | 1.5 KiB | +1 KiB |\n"
		"| c | +5 | 0 B | \\- |\n"
		"\n1 unchanged row not shown\n"
		"\na note\n\n"
		"### Rounded\n\n"
		"| NAME | COUNT | BYTES | \xce\x94 BYTES |\n"
		"|:---|---:|---:|---:|\n"
		"| d | 1 | \\~2 KiB | \\~-2 KiB |\n\n");
	free(buf);
	report_release(&r);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_binary_units),
		cmocka_unit_test(test_markdown_escape),
		cmocka_unit_test(test_html_escape),
		cmocka_unit_test(test_html_data_neutralised),
		cmocka_unit_test(test_markdown_limit),
		cmocka_unit_test(test_fixed_matches_printf),
		cmocka_unit_test(test_fold_markdown),
		cmocka_unit_test(test_fold_html),
		cmocka_unit_test(test_fold_past_cap),
		cmocka_unit_test(test_every_changed_row),
		cmocka_unit_test(test_markdown_limit_shown),
		cmocka_unit_test(test_gate_figures_exact_beside),
		cmocka_unit_test(test_gate_not_evaluable),
		cmocka_unit_test(test_gate_limit_equal_one_form),
		cmocka_unit_test(test_tables_markdown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
