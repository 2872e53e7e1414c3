/*
 * The fast paths of ingest/vmmap_line.c (SSE2 address scans, blank scans
 * before the range and after the share mode, integer slot decimals, the
 * four size slots read at once) against the same file built with its plain
 * paths only
 * (VMMAP_LINE_SCALAR, functions renamed ref_*, see meson.build): on
 * generated region lines, both must give the same result, the same reason
 * and the same fields, byte for byte.
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

enum vmmap_line_result ref_vmmap_parse_region_line(const char *p, size_t n,
						   struct vmmap_region *r,
						   const char **why);
bool ref_vmmap_read_size_slots(const char *p, uint64_t v[4], bool *fraction);

/* The same lines on every run. */
#define TEST_RNG_SEED UINT64_C(0x9E3779B97F4A7C15)
#include "test-rng.h"

static void
assert_same_view(const char *line, const char *a, size_t alen, const char *b, size_t blen)
{
	if (!a || !b) {
		assert_ptr_equal(a, b);
		return;
	}
	assert_int_equal(a - line, b - line);
	assert_int_equal(alen, blen);
}

/* Parse `line` both ways; every field must agree. Returns the result. */
static enum vmmap_line_result
check_line(const char *line, size_t n)
{
	struct vmmap_region a, b;
	const char *wa, *wb;
	memset(&a, 0x5a, sizeof(a));
	memset(&b, 0x5a, sizeof(b));
	enum vmmap_line_result ra = vmmap_parse_region_line(line, n, &a, &wa);
	enum vmmap_line_result rb = ref_vmmap_parse_region_line(line, n, &b, &wb);
	if (ra != rb || (wa == NULL) != (wb == NULL) || (wa && strcmp(wa, wb) != 0))
		fail_msg("'%.*s': result %d/%d, why '%s' / '%s'", (int)n, line, ra, rb,
			 wa ? wa : "-", wb ? wb : "-");
	if (ra != VMMAP_LINE_REGION)
		return ra;
	if (a.start != b.start || a.end != b.end || a.vsize != b.vsize ||
	    a.resident != b.resident || a.dirty != b.dirty || a.swapped != b.swapped ||
	    a.has_range != b.has_range || a.zero_padded != b.zero_padded ||
	    a.vsize_rounded != b.vsize_rounded || a.size_columns != b.size_columns ||
	    a.page_counts != b.page_counts || a.purge != b.purge ||
	    a.purge_unknown != b.purge_unknown)
		fail_msg("'%.*s': fields differ (vsize %llu/%llu resident %llu/%llu dirty "
			 "%llu/%llu swapped %llu/%llu start %llx/%llx end %llx/%llx)",
			 (int)n, line, (unsigned long long)a.vsize, (unsigned long long)b.vsize,
			 (unsigned long long)a.resident, (unsigned long long)b.resident,
			 (unsigned long long)a.dirty, (unsigned long long)b.dirty,
			 (unsigned long long)a.swapped, (unsigned long long)b.swapped,
			 (unsigned long long)a.start, (unsigned long long)b.start,
			 (unsigned long long)a.end, (unsigned long long)b.end);
	assert_same_view(line, a.type, a.type_len, b.type, b.type_len);
	assert_same_view(line, a.sizes, a.sizes_len, b.sizes, b.sizes_len);
	assert_same_view(line, a.detail, a.detail_len, b.detail, b.detail_len);
	return ra;
}

static const char *const types[] = {
	"IOAccelerator", "IOAccelerator (graphics)", "IOSurface", "MALLOC_SMALL",
	"MALLOC_MEDIUM (reserved)", "VM_ALLOCATE", "__TEXT", "__DATA_CONST",
	"mapped file", "Kernel Alloc Once", "CG image", "X",
	"a type name of more than thirty-two bytes in all",
	"Memory Tag 255", "MALLOC guard page", "shared memory",
};

static void
add_blanks(struct strbuf *sb, unsigned n, bool tabs)
{
	for (unsigned i = 0; i < n; i++)
		strbuf_addch(sb, tabs && below(4) == 0 ? '\t' : ' ');
}

/* An address as some vmmap layout (or a paste) may print it. */
static void
add_address(struct strbuf *sb, uint64_t v)
{
	unsigned digits = 1 + below(17);
	switch (below(12)) {
	case 0:
		strbuf_addf(sb, "0x%llx", (unsigned long long)v);
		return;
	case 1:
		strbuf_addf(sb, "%llX", (unsigned long long)v);
		return;
	case 2:   /* 17 digits and more: refused */
		strbuf_addf(sb, "%0*llx", 17 + (int)below(3), (unsigned long long)v);
		return;
	case 3:
		strbuf_addstr(sb, below(2) ? "unmapped" : "kernel");
		return;
	case 4:   /* vmmap -w and 10.13: 16 digits, zero-padded */
		strbuf_addf(sb, "%016llx", (unsigned long long)v);
		return;
	default:
		strbuf_addf(sb, "%0*llx", (int)digits, (unsigned long long)v & (digits >= 16 ? ~UINT64_C(0) : (UINT64_C(1) << (4 * digits)) - 1));
		return;
	}
}

/* A size as vmmap prints it: K below 10 MiB, else "%.1f" with M, G or T. */
static void
size_text(char *out, size_t outsz)
{
	uint64_t v;
	switch (below(8)) {
	case 0:
		snprintf(out, outsz, "0K");
		return;
	case 1:
		snprintf(out, outsz, "%uK", 4 * below(2560));
		return;
	case 2:
		snprintf(out, outsz, "%u.%uM", below(1000), below(10));
		return;
	case 3:
		snprintf(out, outsz, "%u.%uG", below(1000), below(10));
		return;
	case 4:
		snprintf(out, outsz, "%u.%uT", below(1000), below(10));
		return;
	case 5:
		snprintf(out, outsz, "%u", below(100000));   /* page counts, or a bare number */
		return;
	case 6:
		v = rnd() >> below(64);
		snprintf(out, outsz, "%lluK", (unsigned long long)v);
		return;
	default:
		snprintf(out, outsz, "%u.%u%c", below(10000), below(10), "MGT"[below(3)]);
		return;
	}
}

static void
add_sizes(struct strbuf *sb)
{
	unsigned cols = below(6) ? 4 : 1 + below(4);
	bool slots = below(4) != 0;
	for (unsigned i = 0; i < cols; i++) {
		char t[40];
		size_text(t, sizeof(t));
		if (slots)
			strbuf_addf(sb, "%s%6s", i ? " " : "", t);
		else
			strbuf_addf(sb, "%*s%s", (int)(i ? 1 + below(3) : below(3)), "", t);
	}
}

static const char *const details[] = {
	"", "SurfaceID: 0x5f  2440x5196 (BGRA) 48.8M", "DefaultMallocZone_0x1c6a7ee39",
	"/System/Library/Frameworks/QuartzCore.framework/Versions/A/Frameworks/CoreML.framework/Versions/A/CoreML",
	"MTLHeap 0x7fcd9eb1", "a detail ] rw-/rw- SM=PRV with an anchor in it", "[ 1K 2K]",
};

/* One region line of any layout, sometimes with a byte or two changed. */
static void
gen_line(struct strbuf *sb)
{
	strbuf_reset(sb);
	if (below(8) == 0)
		add_blanks(sb, 1 + below(6), true);   /* a paste's indent */
	strbuf_addstr(sb, types[below(sizeof(types) / sizeof(types[0]))]);
	unsigned pad = below(10) == 0 ? below(3) : 1 + below(30);
	add_blanks(sb, pad, below(5) == 0);
	uint64_t start = rnd() >> below(64), end = start + (rnd() >> below(64));
	if (below(20) == 0)
		end = start - 1;
	add_address(sb, start);
	strbuf_addch(sb, '-');
	add_address(sb, end);
	add_blanks(sb, below(8) == 0 ? 0 : 1 + below(6), below(6) == 0);
	strbuf_addch(sb, '[');
	add_sizes(sb);
	strbuf_addch(sb, ']');
	static const char *const prot[] = { "rw-", "r--", "---", "r-x", "rwx" };
	const char *sep = below(6) ? " " : below(2) ? "  " : "\t";
	strbuf_addf(sb, "%s%s/%s%sSM=%s", sep, prot[below(5)], prot[below(5)], sep,
		    below(8) ? "PRV" : "S/A");
	if (below(3) == 0)
		strbuf_addf(sb, " PURGE=%c", "NVEYX"[below(5)]);
	const char *detail = details[below(sizeof(details) / sizeof(details[0]))];
	if (*detail) {
		add_blanks(sb, 1 + below(12), false);
		strbuf_addstr(sb, detail);
	}
	if (below(8) == 0) {   /* a long detail */
		strbuf_addch(sb, ' ');
		for (unsigned i = 0, n = 100 + below(400); i < n; i++)
			strbuf_addch(sb, (char)('a' + below(26)));
	}
	if (below(10) == 0)
		add_blanks(sb, 1 + below(4), true);
	if (below(10) == 0)
		strbuf_addch(sb, '\r');
	if (below(4) == 0) {   /* a byte changed: the broken lines of real pastes */
		static const char bytes[] = " \t-[]x0fF9/.KMGTg:`@A";
		for (unsigned i = 0, k = 1 + below(2); i < k; i++)
			sb->buf[below((unsigned)sb->len)] = bytes[below(sizeof(bytes) - 1)];
	}
}

static void
test_generated_lines_agree(void **state)
{
	(void)state;
	struct strbuf sb = STRBUF_INIT;
	unsigned regions = 0;
	for (unsigned i = 0; i < 300000; i++) {
		gen_line(&sb);
		regions += check_line(sb.buf, sb.len) == VMMAP_LINE_REGION;
		/* The same line cut short: the scans near the line's start. */
		check_line(sb.buf, below((unsigned)sb.len + 1));
	}
	/* About half the lines are regions (the rest are broken on purpose). */
	assert_true(regions > 100000);
	strbuf_release(&sb);
}

/*
 * Every "%.1f" slot size vmmap prints with M, G or T (tenths below 10^4)
 * in each of the four slots: the integer decimals equal the double ones,
 * both when the block is read at once and, beside a T (which the block
 * read leaves to parse_size_slot), when slot_decimal() reads them.
 */
static void
test_every_slot_decimal(void **state)
{
	(void)state;
	char line[256];
	for (unsigned tenths = 0; tenths < 10000; tenths++) {
		for (int u = 0; u < 3; u++) {
			char t[16];
			snprintf(t, sizeof(t), "%u.%u%c", tenths / 10, tenths % 10, "MGT"[u]);
			int n = snprintf(line, sizeof(line),
					 "MALLOC_SMALL   unmapped-unmapped   [%6s %6s %6s %6s] rw-/rw- SM=PRV",
					 t, "16K", t, t);
			assert_int_equal(check_line(line, (size_t)n), VMMAP_LINE_REGION);
			n = snprintf(line, sizeof(line),
				     "MALLOC_SMALL   unmapped-unmapped   [%6s %6s %6s %6s] rw-/rw- SM=PRV",
				     t, "1.0T", t, t);
			assert_int_equal(check_line(line, (size_t)n), VMMAP_LINE_REGION);
		}
	}
}

/*
 * Whole lines through both parsers: every K size and bare number below
 * 10^5 and every "%.1f" M/G/T size, each in all four slots beside texts
 * that differ from it in one byte ("  123K" against " 1123K", "12.5M"
 * against "12.5G").
 */
static void
test_slot_sizes_in_lines(void **state)
{
	(void)state;
	char line[256], t[4][16];
	for (unsigned v = 0; v < 100000; v++) {
		snprintf(t[0], sizeof(t[0]), "%uK", v);
		snprintf(t[1], sizeof(t[1]), "%uK", (v + 10000) % 100000);
		snprintf(t[2], sizeof(t[2]), "%u", v);
		snprintf(t[3], sizeof(t[3]), "%u.%u%c", v % 10000 / 10, v % 10, "MGT"[v % 3]);
		for (unsigned k = 0; k < 4; k++) {
			int n = snprintf(line, sizeof(line),
					 "MALLOC_SMALL   1000-%x   [%6s %6s %6s %6s] rw-/rw- SM=PRV",
					 0x1000 + v, t[k], t[(k + 1) % 4], t[(k + 2) % 4], t[(k + 3) % 4]);
			check_line(line, (size_t)n);
		}
	}
}

/*
 * The size block alone: vmmap_read_size_slots() (fast) against its
 * reference, which reads each slot with parse_size_slot(). Both must agree
 * on success and, when they succeed, on the four values and the first
 * slot's rounding flag. The block is copied to a buffer of exactly 27
 * bytes, so that a read past its end is caught under AddressSanitizer.
 * Returns whether the block was read.
 */
static unsigned slot_blocks_read, slot_blocks_refused;

static bool
check_slots(const char block[27])
{
	char *p = malloc(27);
	assert_non_null(p);
	memcpy(p, block, 27);
	uint64_t a[4], b[4];
	bool fa = false, fb = false;
	memset(a, 0x5a, sizeof(a));
	memset(b, 0x5a, sizeof(b));
	bool ra = vmmap_read_size_slots(p, a, &fa);
	bool rb = ref_vmmap_read_size_slots(p, b, &fb);
	if (ra != rb || (ra && (fa != fb || memcmp(a, b, sizeof(a)) != 0)))
		fail_msg("[%.27s]: read %d/%d, rounded %d/%d, values %llu %llu %llu %llu / "
			 "%llu %llu %llu %llu", p, ra, rb, fa, fb, (unsigned long long)a[0],
			 (unsigned long long)a[1], (unsigned long long)a[2],
			 (unsigned long long)a[3], (unsigned long long)b[0],
			 (unsigned long long)b[1], (unsigned long long)b[2],
			 (unsigned long long)b[3]);
	free(p);
	if (ra)
		slot_blocks_read++;
	else
		slot_blocks_refused++;
	return ra;
}

/* Put six bytes into slot i of a block whose separators are blanks. */
static void
put_slot(char block[27], unsigned i, const char six[6])
{
	memcpy(block + 7 * i, six, 6);
	if (i < 3)
		block[7 * i + 6] = ' ';
}

/* The text right-aligned in six bytes ("%6s"); false when it is longer. */
static bool
slot_text(char six[6], const char *t)
{
	size_t n = strlen(t);
	if (n > 6)
		return false;
	memset(six, ' ', 6);
	memcpy(six + 6 - n, t, n);
	return true;
}

/* Slots that the fast path reads, for the places around a slot under test. */
static const char *const good_slots[] = {
	"    0K", "   16K", "99999K", "     7", "999999", " 12.5M", "999.9G", "  0.0M",
	"  1.0T", "    4K",
};

/* The six bytes in slot 0 and in slot 1 + (turn % 3), the others good. */
static void
check_slot_everywhere(const char six[6], unsigned turn)
{
	char block[27];
	for (unsigned i = 0; i < 4; i++) {
		char g[6];
		slot_text(g, good_slots[(turn + i) % (sizeof(good_slots) / sizeof(good_slots[0]))]);
		put_slot(block, i, g);
	}
	put_slot(block, 0, six);
	check_slots(block);
	put_slot(block, 0, "   16K");
	put_slot(block, 1 + turn % 3, six);
	check_slots(block);
}

/*
 * Every form the fast path reads, at every width it fits in six bytes:
 * bare numbers 0 to 999999, K counts 0 to 99999, and "%u.%u" with M, G
 * and T (T is left to the reference: the double path) for wholes 0 to 999,
 * and the same digits with leading zeros ("000016K": a slot holds six
 * digits at most, longer sizes are the tokenizer's, see gen_line).
 */
static void
test_slot_forms_one_by_one(void **state)
{
	(void)state;
	char t[16], six[6];
	unsigned turn = 0;
	for (unsigned v = 0; v < 1000000; v++) {
		snprintf(t, sizeof(t), "%u", v);
		slot_text(six, t);
		check_slot_everywhere(six, turn++);
		if (v < 100000) {
			snprintf(t, sizeof(t), "%uK", v);
			slot_text(six, t);
			check_slot_everywhere(six, turn++);
		}
		if (v < 10000) {
			snprintf(t, sizeof(t), "%u.%u%c", v / 10, v % 10, "MGT"[v % 3]);
			slot_text(six, t);
			check_slot_everywhere(six, turn++);
			snprintf(t, sizeof(t), "%u.%u%c", v / 10, v % 10, "GTM"[v % 3]);
			slot_text(six, t);
			check_slot_everywhere(six, turn++);
		}
		if (v < 1000) {   /* leading zeros, and every width of zeros */
			snprintf(t, sizeof(t), "%06u", v);
			slot_text(six, t);
			check_slot_everywhere(six, turn++);
			snprintf(t, sizeof(t), "%05uK", v);
			slot_text(six, t);
			check_slot_everywhere(six, turn++);
			snprintf(t, sizeof(t), "%03u.%uM", v / 10, v % 10);
			slot_text(six, t);
			check_slot_everywhere(six, turn++);
		}
	}
	/* Each form was read by the fast path and a T or a bad slot refused. */
	assert_true(slot_blocks_read > 2000000);
}

/*
 * Every six-byte text over ten bytes that decide the forms: a blank, three
 * digits, '.', K, M, G, T and a NUL. Digits after a blank, a blank inside
 * the number, '.' anywhere, two units, a unit first: 10^6 texts, each in
 * slot 0 and in one other slot.
 */
static void
test_slot_texts_of_ten_bytes(void **state)
{
	(void)state;
	static const char bytes[10] = { ' ', '0', '5', '9', '.', 'K', 'M', 'G', 'T', '\0' };
	char six[6];
	unsigned before = slot_blocks_read;
	for (unsigned n = 0; n < 1000000; n++) {
		unsigned k = n;
		for (unsigned j = 0; j < 6; j++, k /= 10)
			six[5 - j] = bytes[k % 10];
		check_slot_everywhere(six, n);
	}
	assert_true(slot_blocks_read - before > 10000);
}

/* A byte of the kinds that decide a slot, or any byte at all. */
static char
adversarial_byte(void)
{
	static const char kinds[] = " 0123456789.KMGTBkmgtb\t\r-+eE,x[]";
	if (below(4) == 0)
		return (char)below(256);   /* NUL, high bytes, '0' + 0x80 ... */
	return kinds[below(sizeof(kinds) - 1)];
}

/* A random slot: a good form, one with a byte changed, or random bytes. */
static void
random_slot(char six[6])
{
	char t[16];
	size_text(t, sizeof(t));
	if (!slot_text(six, t))
		slot_text(six, good_slots[below(sizeof(good_slots) / sizeof(good_slots[0]))]);
	switch (below(6)) {
	case 0:
	case 1:
	case 2:
		return;
	case 3:
		six[below(6)] = adversarial_byte();
		return;
	case 4:   /* a byte swapped with its neighbour: '.' and blanks in odd places */
	{
		unsigned i = below(5);
		char c = six[i];
		six[i] = six[i + 1];
		six[i + 1] = c;
		return;
	}
	default:
		for (unsigned i = 0; i < 6; i++)
			six[i] = below(2) ? adversarial_byte() : six[i];
		return;
	}
}

/* Blocks of four random slots, and separators that are no blank. */
static void
test_slot_blocks_random(void **state)
{
	(void)state;
	char block[27], six[6];
	unsigned before = slot_blocks_read;
	for (unsigned n = 0; n < 1000000; n++) {
		for (unsigned i = 0; i < 4; i++) {
			random_slot(six);
			put_slot(block, i, six);
		}
		if (below(50) == 0)
			block[6 + 7 * below(3)] = adversarial_byte();
		check_slots(block);
	}
	/* Both ways are taken often: about half the blocks are read. */
	assert_true(slot_blocks_read - before > 200000);
	assert_true(slot_blocks_read - before < 900000);
}

/*
 * The blanks after the share mode and after PURGE=X (skipped 16 bytes at
 * once): runs of 0 to 40 spaces and tabs before a detail, an attribute
 * word, PURGE= or the line's end, at every distance from the line's end.
 */
static void
test_tail_blank_runs(void **state)
{
	(void)state;
	static const char *const after[] = {
		"", "x", "MTE", "JIT TPRO  MallocZone", "PURGE=V", "PURGE=E  detail", "PURGE=Q x",
		"/System/Library/Frameworks/Metal.framework/Versions/A/Metal",
	};
	struct strbuf sb = STRBUF_INIT;
	for (unsigned a = 0; a < sizeof(after) / sizeof(after[0]); a++)
		for (unsigned run = 0; run <= 40; run++)
			for (unsigned tabs = 0; tabs < 3; tabs++)
				for (unsigned mid = 0; mid <= 20; mid += 4) {
					strbuf_reset(&sb);
					strbuf_addstr(&sb, "MALLOC_TINY  1000-2000  [ 4K 4K 4K 0K] rw-/rw- SM=PRV");
					for (unsigned i = 0; i < run; i++)
						strbuf_addch(&sb, tabs && i % (tabs + 1) == 0 ? '\t' : ' ');
					strbuf_addstr(&sb, after[a]);
					for (unsigned i = 0; i < mid; i++)
						strbuf_addch(&sb, i % 3 ? ' ' : '\t');
					if (mid)
						strbuf_addstr(&sb, "tail");
					assert_int_equal(check_line(sb.buf, sb.len), VMMAP_LINE_REGION);
				}
	strbuf_release(&sb);
}

/* Addresses of every length from 1 to 18 digits at every distance from the line's start. */
static void
test_address_lengths_and_offsets(void **state)
{
	(void)state;
	char line[256];
	for (int ds = 1; ds <= 18; ds++)
		for (int de = 1; de <= 18; de++)
			for (int pad = 0; pad <= 20; pad++) {
				uint64_t v = rnd();
				int n = snprintf(line, sizeof(line),
						 "T%*s%0*llx-%0*llx [ 16K 0K 0K 0K] rw-/rw- SM=PRV",
						 pad, "", ds, (unsigned long long)(v >> (ds < 16 ? 64 - 4 * ds : 0)),
						 de, (unsigned long long)(rnd() >> (de < 16 ? 64 - 4 * de : 0)));
				check_line(line, (size_t)n);
			}
}

/*
 * The "] PRT/MAX SM=" anchor read as one 16-byte compare, and the '[' of
 * the size slots looked for in two: every byte of the anchor and of the 27
 * slot bytes replaced by each byte the compare tells apart (the other
 * protection letters, blanks, '[' and ']'), each line also cut at every
 * length from its ']' on, so that 13 to 16 bytes and fewer are left.
 */
static void
test_anchor_and_slot_bytes(void **state)
{
	(void)state;
	static const char base[] =
		"MALLOC_TINY   1000-2000  [    4K     4K     4K     0K] r-x/rw- SM=PRV  detail";
	static const char subst[] = "rwx-/ \tSM=[]aRW0";
	const char *rb = strchr(base, ']');
	size_t rbo = (size_t)(rb - base), lbo = (size_t)(strchr(base, '[') - base);
	char line[sizeof(base)];
	for (size_t at = lbo; at < rbo + 16; at++)
		for (size_t k = 0; k < sizeof(subst) - 1; k++) {
			memcpy(line, base, sizeof(base));
			line[at] = subst[k];
			for (size_t n = rbo; n <= sizeof(base) - 1; n++)
				check_line(line, n);
		}
	memcpy(line, base, sizeof(base));
	assert_int_equal(check_line(line, sizeof(base) - 1), VMMAP_LINE_REGION);
}

/* vmmap_line_skip_prefix() as a plain loop, without its one-compare exit. */
static const char *
plain_skip_prefix(const char *p, const char *end)
{
	for (;;) {
		while (p < end && (*p == ' ' || *p == '\t'))
			p++;
		if (p < end && *p == '>') {
			p++;
			continue;
		}
		if (end - p >= 4 && memcmp(p, "--->", 4) == 0) {
			p += 4;
			continue;
		}
		return p;
	}
}

/*
 * The prefix skip's early exit (a first byte above '>'): every first
 * byte, followed by each prefix and text, at every length.
 */
static void
test_skip_prefix_every_first_byte(void **state)
{
	(void)state;
	static const char *const rest[] = {
		"", " ", ">", "> > x", "--->", "---> T", "--", "-x", "\t> --->x", "IOKit",
	};
	char line[32];
	for (unsigned c = 0; c < 256; c++)
		for (size_t k = 0; k < sizeof(rest) / sizeof(rest[0]); k++) {
			line[0] = (char)c;
			size_t n = 1 + strlen(rest[k]);
			memcpy(line + 1, rest[k], n - 1);
			for (size_t len = 0; len <= n; len++)
				assert_ptr_equal(vmmap_line_skip_prefix(line, line + len),
						 plain_skip_prefix(line, line + len));
		}
}

/*
 * vmmap_line_looks_like_region() on lines without a '[', where only a
 * " SM=" in the line makes it true: against a plain search for those four
 * bytes, on 200,000 lines of blanks, "S", "M", "=" and letters of every
 * length to 40, each in an allocation of its exact size (a read before
 * the line's first byte or past its last shows under AddressSanitizer).
 */
static void
test_share_mode_found_as_plain_search(void **state)
{
	(void)state;
	static const char bytes[] = { ' ', 'S', 'M', '=', 'a', '\t', '-' };
	unsigned found = 0;
	for (int i = 0; i < 200000; i++) {
		size_t n = (size_t)below(41);
		char *line = malloc(n ? n : 1);
		assert_non_null(line);
		for (size_t k = 0; k < n; k++)
			line[k] = bytes[below(sizeof(bytes))];
		bool want = false;
		for (size_t k = 0; k + 4 <= n && !want; k++)
			want = memcmp(line + k, " SM=", 4) == 0;
		assert_int_equal(vmmap_line_looks_like_region(line, line + n), want);
		found += want;
		free(line);
	}
	assert_true(found > 500);   /* both answers were asked for (some 1,400) */
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_generated_lines_agree),
		cmocka_unit_test(test_every_slot_decimal),
		cmocka_unit_test(test_address_lengths_and_offsets),
		cmocka_unit_test(test_slot_sizes_in_lines),
		cmocka_unit_test(test_slot_forms_one_by_one),
		cmocka_unit_test(test_slot_texts_of_ten_bytes),
		cmocka_unit_test(test_slot_blocks_random),
		cmocka_unit_test(test_tail_blank_runs),
		cmocka_unit_test(test_anchor_and_slot_bytes),
		cmocka_unit_test(test_skip_prefix_every_first_byte),
		cmocka_unit_test(test_share_mode_found_as_plain_search),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
