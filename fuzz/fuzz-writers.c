/*
 * libFuzzer harness: the text, Markdown and CSV writers fed model objects
 * with hostile names. The input's first byte is a separator, the rest the
 * names it separates (any bytes: controls, C1, invalid UTF-8, formulas).
 * The names become vmmap types and a process, classes, a track record's
 * process, modules and symbols, table cells, and JUnit suite, case and
 * class names and messages; every output is checked:
 *   - valid UTF-8 with no C0 control but the writer's own '\n' (and CR only
 *     in the CSV's "\r\n" record ends), no DEL, no C1 control (U+0080-U+009F);
 *   - every CSV text cell (process, type), unquoted, starts with none of
 *     = + - @ TAB CR;
 *   - the JUnit document holds no '<' or '&' but libxml2's markup and
 *     entities: every name's '<' and '&' is escaped.
 * The checks are written here, apart from util/escape.c: a writer that
 * forgets to escape, or an escape that lets something through, aborts.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/classes.h"
#include "model/track_record.h"
#include "model/vmmap.h"
#include "report/classes_text.h"
#include "report/junit.h"
#include "report/report_html_write.h"
#include "report/report_md_write.h"
#include "report/report_text.h"
#include "report/texttable.h"
#include "report/track_text.h"
#include "report/vmmap_csv.h"
#include "report/vmmap_text.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_NAMES 16

struct names {
	const char *p[MAX_NAMES];
	size_t len[MAX_NAMES];
	char *z[MAX_NAMES];     /* NUL-terminated copies (cut at a NUL byte) */
	size_t n;
};

static void
split(const uint8_t *data, size_t size, struct names *nm)
{
	memset(nm, 0, sizeof(*nm));
	if (size == 0)
		return;
	uint8_t sep = data[0];
	const char *p = (const char *)data + 1, *end = (const char *)data + size;
	while (nm->n < MAX_NAMES) {
		const char *q = memchr(p, sep, (size_t)(end - p));
		if (!q)
			q = end;
		nm->p[nm->n] = p;
		nm->len[nm->n] = (size_t)(q - p);
		nm->z[nm->n] = xmemdup0(p, (size_t)(q - p));
		nm->n++;
		if (q == end)
			break;
		p = q + 1;
	}
}

static void
names_release(struct names *nm)
{
	for (size_t i = 0; i < nm->n; i++)
		free(nm->z[i]);
}

/* Length of the UTF-8 sequence at p (n left) and its code point, or 0 when invalid. */
static size_t
decode(const unsigned char *p, size_t n, uint32_t *cp)
{
	static const uint32_t min[] = { 0, 0, 0x80, 0x800, 0x10000 };
	unsigned c = p[0];
	size_t len = c < 0x80 ? 1 : c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc0 ? 2 : 0;
	if (len == 0 || c > 0xf4 || len > n)
		return 0;
	uint32_t v = len == 1 ? c : c & (0x7fu >> len);
	for (size_t i = 1; i < len; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		v = (v << 6) | (p[i] & 0x3fu);
	}
	if (v < min[len] || v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff))
		return 0;
	*cp = v;
	return len;
}

/* Abort unless out is UTF-8 without controls other than '\n' (and "\r\n" when crlf). */
static void
check_text(const char *what, const char *buf, size_t len, bool crlf)
{
	const unsigned char *p = (const unsigned char *)buf;
	for (size_t i = 0; i < len;) {
		uint32_t cp;
		size_t k = decode(p + i, len - i, &cp);
		if (k == 0) {
			fprintf(stderr, "%s: invalid UTF-8 at byte %zu\n", what, i);
			abort();
		}
		bool own = cp == '\n' || (crlf && cp == '\r' && i + 1 < len && p[i + 1] == '\n');
		if (!own && (cp < 0x20 || (cp >= 0x7f && cp < 0xa0))) {
			fprintf(stderr, "%s: control U+%04X at byte %zu\n", what, (unsigned)cp, i);
			abort();
		}
		i += k;
	}
}

/* Every CSV record after the header: the text cells (columns 2 and 4) are no formula. */
static void
check_csv(const char *buf, size_t len)
{
	size_t i = 0, col = 0;
	bool header = true;
	while (i < len) {
		/* One cell. */
		struct strbuf cell = STRBUF_INIT;
		if (buf[i] == '"') {
			for (i++; i < len; i++) {
				if (buf[i] == '"' && i + 1 < len && buf[i + 1] == '"') {
					strbuf_addch(&cell, '"');
					i++;
				} else if (buf[i] == '"') {
					i++;
					break;
				} else {
					strbuf_addch(&cell, buf[i]);
				}
			}
		} else {
			while (i < len && buf[i] != ',' && buf[i] != '\r')
				strbuf_addch(&cell, buf[i++]);
		}
		col++;
		if (!header && (col == 2 || col == 4) && cell.len &&
		    strchr("=+-@\t\r", cell.buf[0])) {
			fprintf(stderr, "csv: formula cell '%s'\n", cell.buf);
			abort();
		}
		strbuf_release(&cell);
		if (i < len && buf[i] == ',') {
			i++;
		} else if (i + 1 < len && buf[i] == '\r' && buf[i + 1] == '\n') {
			i += 2;
			if (!header && col != 10) {
				fprintf(stderr, "csv: a record of %zu cells\n", col);
				abort();
			}
			header = false;
			col = 0;
		} else if (i < len) {
			fprintf(stderr, "csv: stray byte after a cell at %zu\n", i);
			abort();
		}
	}
}

static FILE *
mem_open(char **buf, size_t *len)
{
	FILE *f = open_memstream(buf, len);
	if (!f)
		abort();
	return f;
}

static void
fuzz_vmmap(const struct names *nm)
{
	struct vmmap_capture cap;
	struct diag err;
	vmmap_capture_init(&cap);
	cap.filter.all = true;   /* every type is reported */
	struct vmmap_dump *d = vmmap_capture_new_dump(&cap, 1);
	if (nm->n > 0)
		vmmap_dump_set_field(d, "Physical footprint", 18, nm->p[0], nm->len[0]);
	free(d->process);
	d->process = xstrdup(nm->n > 0 ? nm->z[0] : "");
	d->has_pid = true;
	d->pid = 42;
	for (size_t i = 1; i < nm->n; i++) {
		struct vmmap_amounts a = { 1, 16384 * (i + 1), 16384, 0, 0 };
		uint64_t purge[VMMAP_PURGE_STATES] = { 0 };
		purge[i % VMMAP_PURGE_STATES] = 1;
		vmmap_dump_add_group(&cap, d, nm->z[i], strlen(nm->z[i]),
				     (enum vmmap_purge)(i % VMMAP_PURGE_STATES), &a, "fuzz", &err);
		vmmap_dump_add_bucket(&cap, d, nm->z[i], strlen(nm->z[i]), 16384 * (i + 1), purge,
				      "fuzz", &err);
		struct vmmap_summary_row row = { .name = nm->z[i], .name_len = strlen(nm->z[i]),
						 .present = 1,
						 .value = { 16384 } };
		vmmap_dump_add_summary_row(d, &row);
	}
	struct vmmap_text_opts opts = { .heading = true, .surfaces = true };

	char *buf = NULL;
	size_t len = 0;
	FILE *f = mem_open(&buf, &len);
	vmmap_text_write_dump(f, d, &opts, &cap.filter);
	fclose(f);
	check_text("vmmap text", buf, len, false);
	free(buf);

	f = mem_open(&buf, &len);
	vmmap_csv_write(f, &cap);
	fclose(f);
	check_text("vmmap csv", buf, len, true);
	check_csv(buf, len);
	free(buf);

	vmmap_capture_release(&cap);
}

/*
 * Every name as a suite, a case's classname, name and message, through each
 * outcome. The markup iotally writes holds no '<' or '&' but its own, so
 * counting elements proves the names' were escaped: a name's raw '<' would
 * open one more.
 */
static void
fuzz_junit(const struct names *nm)
{
	struct junit_case cases[MAX_NAMES];
	struct junit_suite suites[MAX_NAMES];
	size_t n = nm->n;
	for (size_t i = 0; i < n; i++) {
		cases[i] = (struct junit_case){ nm->z[i], nm->z[(i + 1) % n], i % 2 == 1,
						nm->z[(i + 2) % n], (enum junit_state)(i % 3) };
		suites[i] = (struct junit_suite){ nm->z[i], &cases[i], 1 };
	}
	char *buf = NULL;
	size_t len = 0;
	struct diag err;
	FILE *f = mem_open(&buf, &len);
	if (junit_write_suites(f, suites, n, &err) < 0)
		abort();
	fclose(f);
	check_text("junit", buf, len, false);
	size_t opens = 0;
	for (size_t i = 0; i < len; i++)
		opens += buf[i] == '<' && i + 1 < len && buf[i + 1] != '/';
	/* the declaration, <testsuites>, and per suite <testsuite>, <testcase>
	 * and its outcome (<system-out> when passed, <failure>, <error>, <skipped>) */
	if (opens != 2 + 3 * n) {
		fprintf(stderr, "junit: %zu elements opened for %zu suites: a name's '<' is raw\n",
			opens, n);
		abort();
	}
	free(buf);
}

static void
fuzz_classes(const struct names *nm)
{
	struct classes_capture cap;
	classes_capture_init(&cap);
	struct classes_snapshot *s = classes_capture_add(&cap, CLASSES_SRC_IOCLASSCOUNT, 1);
	for (size_t i = 0; i < nm->n; i++)
		classes_snapshot_add(s, nm->p[i], nm->len[i], (int64_t)i - 1,
				     i == 3 ? CLASS_COUNT_UNREADABLE : CLASS_COUNT_OK, i + 1);
	const struct class_count **v;
	size_t n = classes_snapshot_sorted(s, &v);
	char *buf = NULL;
	size_t len = 0;
	FILE *f = mem_open(&buf, &len);
	classes_text_listing(f, v, n);
	classes_text_saved_query(f, s);
	classes_text_query(f, s, nm->z, nm->n);
	fclose(f);
	check_text("classes", buf, len, false);
	free(buf);
	free(v);
	classes_capture_release(&cap);
}

static void
fuzz_track(const struct names *nm)
{
	struct track_record r;
	track_record_init(&r);
	r.type = nm->n % 2 ? TRACK_RECORD_MAP : TRACK_RECORD_ALLOC;
	r.bytes = 4096;
	r.size[0] = 4096;
	r.count = 1;
	r.map_process = track_record_add_text(&r, nm->n ? nm->p[0] : "", nm->n ? nm->len[0] : 0);
	r.has_trailer = true;
	r.trailer_process = r.map_process;
	for (size_t i = 1; i + 1 < nm->n; i += 2) {
		struct track_frame *fr = track_record_add_frame(&r);
		fr->index = i;
		fr->address = 0xfffffff007000000ull + i;
		fr->module = track_record_add_text(&r, nm->p[i], nm->len[i]);
		fr->symbol = track_record_add_text(&r, nm->p[i + 1], nm->len[i + 1]);
		fr->has_source = i % 4 == 1;
		fr->source = fr->symbol;
	}
	r.trailer_at = r.nframes;
	for (int layout = TRACK_LAYOUT_105; layout <= TRACK_LAYOUT_108; layout++) {
		struct strbuf out = STRBUF_INIT;
		track_record_format_shown(&r, (enum track_layout)layout, &out);
		check_text("track record", out.buf, out.len, false);
		strbuf_release(&out);
	}
	track_record_release(&r);
}

static void
fuzz_tables(const struct names *nm)
{
	static const char *const headers[] = { "NAME", "BYTES" };
	struct text_table t;
	text_table_init(&t, 2, headers, "lr");
	for (size_t i = 0; i < nm->n; i++) {
		text_table_add(&t, nm->z[i]);
		text_table_addf(&t, "%zu", i);
	}
	for (int md = 0; md < 2; md++) {
		char *buf = NULL;
		size_t len = 0;
		FILE *f = mem_open(&buf, &len);
		text_table_write_section(f, &t, md, "Table");
		fclose(f);
		check_text(md ? "markdown table" : "text table", buf, len, false);
		free(buf);
	}
	text_table_release(&t);

	struct strbuf sb = STRBUF_INIT;
	for (size_t i = 0; i < nm->n; i++) {
		strbuf_reset(&sb);
		report_md_escape(nm->z[i], i % 3 ? 0 : 7, &sb);
		check_text("report md", sb.buf, sb.len, false);
		if (memchr(sb.buf, '\n', sb.len))
			abort();   /* one cell, one line */
		strbuf_reset(&sb);
		report_html_escape(nm->z[i], i % 2 ? 0 : 5, &sb);
		check_text("report html", sb.buf, sb.len, false);
		if (memchr(sb.buf, '<', sb.len) || memchr(sb.buf, '\n', sb.len))
			abort();
	}
	strbuf_release(&sb);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct names nm;
	if (size > 4096)
		return 0;
	split(data, size, &nm);
	fuzz_vmmap(&nm);
	fuzz_classes(&nm);
	fuzz_track(&nm);
	fuzz_tables(&nm);
	fuzz_junit(&nm);
	names_release(&nm);
	return 0;
}
