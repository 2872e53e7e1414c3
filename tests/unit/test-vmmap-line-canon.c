/*
 * The fixed-column pass over vmmap's canonical region line
 * (vmmap_parse_region_canon, ingest/vmmap_line.c) against the general
 * path of the same file built with its plain paths only (VMMAP_LINE_SCALAR,
 * functions renamed ref_*, see meson.build): canonical lines of every
 * address width, digit count, size form and tail must be taken by the
 * pass with the fields the general path gives; every line one edit away
 * from them (each byte replaced by bytes that matter to the grammar, cut
 * at every length, a blank added or a byte removed at every place) must
 * either be turned away by the pass or be given the general path's fields,
 * and the whole-line parse must agree with the reference. Each input sits
 * in an allocation of its exact size, so ASan sees any read past it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ingest/vmmap_grammar.h"
#include "ingest/vmmap_read.h"
#include "util/strbuf.h"
#include "util/view.h"

enum vmmap_line_result ref_vmmap_parse_region_line(const char *p, size_t n,
						   struct vmmap_region *r,
						   const char **why);
enum vmmap_line_result ref_vmmap_parse_region_at(const char *p, const char *end,
						 const char *first_rb, struct vmmap_region *r,
						 const char **why);

/* The pass is built where vmmap_line.c has SSE2 on x86-64. */
#if defined(__SSE2__) && defined(__x86_64__)
#define CANON_BUILT 1
#else
#define CANON_BUILT 0
#endif

/* The same lines on every run (of one build: the order in which
 * a call's arguments draw their numbers is the compiler's). */
#define TEST_RNG_SEED UINT64_C(0x2545F4914F6CDD1D)
#include "test-rng.h"

/* How many edited lines the pass took and turned away (both must occur). */
static unsigned long taken, refused;

static void
assert_same_view(const char *what, const char *line, const char *a, size_t alen,
		 const char *b, size_t blen)
{
	if ((a == NULL) != (b == NULL) || (a && (a - line != b - line || alen != blen)))
		fail_msg("%s differs: %td+%zu / %td+%zu", what, a ? a - line : -1, alen,
			 b ? b - line : -1, blen);
}

/* Every field either parse sets (the surface is not: has_surface is false). */
static void
assert_same_region(const char *line, size_t n, const struct vmmap_region *a,
		   const struct vmmap_region *b)
{
	if (a->start != b->start || a->end != b->end || a->vsize != b->vsize ||
	    a->resident != b->resident || a->dirty != b->dirty || a->swapped != b->swapped ||
	    a->has_range != b->has_range || a->zero_padded != b->zero_padded ||
	    a->vsize_rounded != b->vsize_rounded || a->size_columns != b->size_columns ||
	    a->page_counts != b->page_counts || a->purge != b->purge ||
	    a->purge_unknown != b->purge_unknown || a->has_surface != b->has_surface ||
	    a->line != b->line)
		fail_msg("'%.*s': fields differ (start %llx/%llx end %llx/%llx vsize %llu/%llu "
			 "resident %llu/%llu dirty %llu/%llu swapped %llu/%llu zero_padded %d/%d "
			 "page_counts %d/%d purge %d/%d purge_unknown %d/%d)",
			 (int)n, line, (unsigned long long)a->start, (unsigned long long)b->start,
			 (unsigned long long)a->end, (unsigned long long)b->end,
			 (unsigned long long)a->vsize, (unsigned long long)b->vsize,
			 (unsigned long long)a->resident, (unsigned long long)b->resident,
			 (unsigned long long)a->dirty, (unsigned long long)b->dirty,
			 (unsigned long long)a->swapped, (unsigned long long)b->swapped,
			 a->zero_padded, b->zero_padded, a->page_counts, b->page_counts,
			 (int)a->purge, (int)b->purge, a->purge_unknown, b->purge_unknown);
	assert_same_view("type", line, a->type, a->type_len, b->type, b->type_len);
	assert_same_view("sizes", line, a->sizes, a->sizes_len, b->sizes, b->sizes_len);
	assert_same_view("detail", line, a->detail, a->detail_len, b->detail, b->detail_len);
}

/*
 * One input, copied into an allocation of exactly n bytes: the pass against
 * the reference's vmmap_parse_region_at() on the same span, and the whole
 * line both ways. Returns whether the pass took it.
 */
/* The pass over [p, end) against the reference's vmmap_parse_region_at(). */
static bool
check_span(const char *line, size_t n, const char *p, const char *end)
{
	const char *rb = memchr(p, ']', (size_t)(end - p));
	struct vmmap_region a, b;
	const char *wb;
	memset(&a, 0x5a, sizeof(a));
	memset(&b, 0xa5, sizeof(b));
	bool took = vmmap_parse_region_canon(p, end, rb, &a);
	enum vmmap_line_result rb_res = ref_vmmap_parse_region_at(p, end, rb, &b, &wb);
	if (took) {
		if (rb_res != VMMAP_LINE_REGION)
			fail_msg("'%.*s': the pass took a line the general path calls %d ('%s')",
				 (int)n, line, (int)rb_res, wb ? wb : "-");
		assert_same_region(line, n, &a, &b);
	}
	return took;
}

static bool
check_input(const char *text, size_t n)
{
	char *line = malloc(n ? n : 1);
	assert_non_null(line);
	memcpy(line, text, n);

	const char *end = line + view_rtrim(line, n);
	const char *p = vmmap_line_skip_prefix(line, end);
	bool took = check_span(line, n, p, end);
	/* Also from the first byte, prefix and all (a type of blanks only). */
	if (p != line)
		check_span(line, n, line, end);

	/* The whole line, the way the tool parses it. */
	struct vmmap_region a, b;
	const char *wa, *wb;
	memset(&a, 0x5a, sizeof(a));
	memset(&b, 0xa5, sizeof(b));
	enum vmmap_line_result ra = vmmap_parse_region_line(line, n, &a, &wa);
	enum vmmap_line_result rr = ref_vmmap_parse_region_line(line, n, &b, &wb);
	if (ra != rr || (wa == NULL) != (wb == NULL) || (wa && strcmp(wa, wb) != 0))
		fail_msg("'%.*s': result %d/%d, why '%s' / '%s'", (int)n, line, ra, rr,
			 wa ? wa : "-", wb ? wb : "-");
	if (ra == VMMAP_LINE_REGION)
		assert_same_region(line, n, &a, &b);
	free(line);
	return took;
}

static const char *const types[] = {
	"IOAccelerator", "IOAccelerator (graphics)", "IOSurface", "MALLOC_SMALL",
	"MALLOC_MEDIUM (reserved)", "VM_ALLOCATE", "__TEXT", "X", "page table in kernel",
	"AttributeGraph Data (old", "a type name of more than thirty-two bytes", "Memory Tag 255",
	"",   /* blanks only: the general path's "no region type" */
};

static const char *const shares[] = { "COW", "PRV", "NUL", "ALI", "SHM", "ZER", "S/A", "   " };
static const char *const prots[] = { "---", "r--", "-w-", "rw-", "--x", "r-x", "-wx", "rwx" };

static const char *const details[] = {
	"DefaultMallocZone_0x1c6a7ee39",
	"/System/Library/Frameworks/QuartzCore.framework/Versions/A/QuartzCore",
	"SurfaceID: 0x5f  2440x5196 (BGRA) 48.8M  'name', shared with WindowServer[401]",
	"MTLHeap 0x7fcd9eb1", "MTE tagged", "MTE", "MTEx y", "JIT code", "JITs here",
	"TPRO data", "TPROx data", "TPR", "PURGE=N rest", "PURGE=N", "PURGE=Nx tail",
	"Pages of it", "a", "ab", "abcdef", "abcdefg", "M", "J", "T", "P",
	"a detail ] rw-/rw- SM=PRV with an anchor in it", "[ 1K 2K]",
	"detail with\ttab", "x  y",
};

/* One size slot's text, of every form vmmap prints and some it does not. */
static void
slot_text(char *out, size_t outsz)
{
	switch (below(10)) {
	case 0:
		snprintf(out, outsz, "0K");
		return;
	case 1:
		snprintf(out, outsz, "%uK", below(100000));
		return;
	case 2:
		snprintf(out, outsz, "%uK", 4 * below(2560));
		return;
	case 3:
		snprintf(out, outsz, "%u.%uM", below(1000), below(10));
		return;
	case 4:
		snprintf(out, outsz, "%u.%uG", below(1000), below(10));
		return;
	case 5:
		snprintf(out, outsz, "%u.%uT", below(1000), below(10));   /* general path */
		return;
	case 6:
		snprintf(out, outsz, "%u", below(1000000));   /* page counts */
		return;
	case 7:
		snprintf(out, outsz, "%u", below(10));
		return;
	case 8:
		snprintf(out, outsz, "%uB", below(100000));
		return;
	default:
		snprintf(out, outsz, "%u.%uM", below(10), below(10));
		return;
	}
}

/* A value of exactly `digits` hex digits (1 to 16). */
static uint64_t
hex_of_digits(unsigned digits)
{
	uint64_t top = UINT64_C(1) << (4 * (digits - 1));
	uint64_t span = digits == 16 ? ~UINT64_C(0) - top : 15 * top;
	return top + rnd() % span;
}

/*
 * A region line as vmmap prints it: w = 12 or 16 mostly (the widths the
 * pass reads), sometimes other widths, numbers wider than the column,
 * END below START, zero-padded START.
 */
static void
gen_canonical(struct strbuf *sb)
{
	static const unsigned widths[] = { 12, 12, 12, 16, 16, 8, 9, 10 };
	unsigned w = widths[below(sizeof(widths) / sizeof(widths[0]))];
	strbuf_reset(sb);
	const char *type = types[below(sizeof(types) / sizeof(types[0]))];
	strbuf_addf(sb, "%-24s ", type);
	unsigned ns = 1 + below(w < 16 ? w + (below(8) == 0) : 16);
	unsigned ne = 1 + below(w < 16 ? w + (below(8) == 0) : 16);
	if (ne < ns && below(2))
		ne = ns;
	uint64_t start = below(40) == 0 ? 0 : hex_of_digits(ns);
	uint64_t stop = below(2) || ne > ns ? hex_of_digits(ne) : start + rnd() % 0x100000;
	if (below(16) == 0)
		stop = start;
	if (below(10) == 0)
		strbuf_addf(sb, "%0*llx-%-*llx [", (int)w, (unsigned long long)start, (int)w,
			    (unsigned long long)stop);
	else
		strbuf_addf(sb, "%*llx-%-*llx [", (int)w, (unsigned long long)start, (int)w,
			    (unsigned long long)stop);
	for (unsigned i = 0; i < 4; i++) {
		char t[32];
		slot_text(t, sizeof(t));
		strbuf_addf(sb, "%s%6s", i ? " " : "", t);
	}
	strbuf_addf(sb, "] %s/%s SM=%s", prots[below(8)], prots[below(8)], shares[below(8)]);
	unsigned purge = below(3);
	bool has_detail = below(4) != 0;
	if (purge == 0)
		strbuf_addf(sb, " PURGE=%c", "NVE?X"[below(5)]);
	else if (has_detail)
		strbuf_addstr(sb, "        ");
	if (has_detail) {
		strbuf_addstr(sb, "  ");
		strbuf_addstr(sb, details[below(sizeof(details) / sizeof(details[0]))]);
	}
	if (below(6) == 0)
		strbuf_addstr(sb, "  ");
}

/* Is the line one the pass must take: its widths, its slot forms, its tail? */
static bool
must_take(const struct strbuf *sb)
{
	const char *rb = strchr(sb->buf, ']'), *lb = rb - 28;
	if (sb->buf[0] == ' ')
		return false;   /* no type */
	int w = lb[-14] == '-' ? 12 : lb[-18] == '-' ? 16 : 0;
	if (w == 0 || lb[-1] != ' ' || lb[-w - 1] == ' ' || lb[-2 * w - 3] != ' ')
		return false;   /* another width, or a number wider than its column */
	if (sb->buf + view_rtrim(sb->buf, sb->len) - rb < 16)
		return false;   /* an unknown share mode's blanks trimmed at the end */
	for (const char *s = lb + 1; s < rb; s += 7) {
		char last = s[5];
		if (last != 'K' && last != 'M' && last != 'G' && (last < '0' || last > '9'))
			return false;
	}
	return true;
}

static void
test_canonical_lines_taken(void **state)
{
	(void)state;
	struct strbuf sb = STRBUF_INIT;
	unsigned long musts = 0;
	for (unsigned i = 0; i < 400000; i++) {
		gen_canonical(&sb);
		bool took = check_input(sb.buf, sb.len);
		if (must_take(&sb)) {
			musts++;
			/* END below START is the general path's error to report */
			struct vmmap_region r;
			const char *why;
			bool backwards = vmmap_parse_region_line(sb.buf, sb.len, &r, &why) !=
					 VMMAP_LINE_REGION;
			if (CANON_BUILT && !took && !backwards)
				fail_msg("'%s': a canonical line the pass did not take", sb.buf);
		}
	}
	printf("canonical: %lu of 400000 lines of the forms the pass takes\n", musts);
	assert_true(musts > 50000);
	strbuf_release(&sb);
}

/* Every line one edit away from a canonical one. */
static void
test_near_misses(void **state)
{
	(void)state;
	static const char bytes[] = " \t-[]09afgAFxKMGT./PS=>\r\n";
	struct strbuf sb = STRBUF_INIT;
	char *buf = NULL;
	taken = refused = 0;
	for (unsigned k = 0; k < 160; k++) {
		do
			gen_canonical(&sb);
		while (!must_take(&sb) && below(4) != 0);
		size_t n = sb.len;
		buf = realloc(buf, n + 1);
		assert_non_null(buf);
		for (size_t i = 0; i < n; i++) {
			/* each byte replaced */
			for (size_t j = 0; j < sizeof(bytes) - 1 + 3; j++) {
				memcpy(buf, sb.buf, n);
				buf[i] = j < sizeof(bytes) - 1 ? bytes[j] : "\0\x80\xff"[j - (sizeof(bytes) - 1)];
				if (buf[i] == sb.buf[i])
					continue;
				if (check_input(buf, n))
					taken++;
				else
					refused++;
			}
			/* a blank added before byte i */
			memcpy(buf, sb.buf, i);
			buf[i] = below(2) ? ' ' : '\t';
			memcpy(buf + i + 1, sb.buf + i, n - i);
			check_input(buf, n + 1);
			/* byte i removed */
			memcpy(buf, sb.buf, i);
			memcpy(buf + i, sb.buf + i + 1, n - i - 1);
			check_input(buf, n - 1);
		}
		/* cut at every length */
		for (size_t len = 0; len <= n; len++)
			check_input(sb.buf, len);
	}
	printf("edited lines: %lu taken by the pass, %lu turned away\n", taken, refused);
	/* Both outcomes occur: the edits reach the pass's every check. */
	if (CANON_BUILT) {
		assert_true(taken > 1000);
		assert_true(refused > 1000);
	}
	free(buf);
	strbuf_release(&sb);
}

/* Indents, quotes and random bytes around canonical lines. */
static void
test_prefixes_and_noise(void **state)
{
	(void)state;
	struct strbuf sb = STRBUF_INIT, line = STRBUF_INIT;
	for (unsigned i = 0; i < 100000; i++) {
		gen_canonical(&sb);
		strbuf_reset(&line);
		static const char *const pre[] = { "", "  ", "> ", "\t", "--->", ">> " };
		strbuf_addstr(&line, pre[below(6)]);
		strbuf_add(&line, sb.buf, sb.len);
		for (unsigned k = below(3); k > 0; k--)
			line.buf[below((unsigned)line.len)] = (char)below(256);
		check_input(line.buf, line.len);
	}
	strbuf_release(&sb);
	strbuf_release(&line);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_canonical_lines_taken),
		cmocka_unit_test(test_near_misses),
		cmocka_unit_test(test_prefixes_and_noise),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
