/*
 * One vmmap region line: the grammar of every layout from report format 2.0
 * to macOS 26. This is the hot path of `iotally vmmap` (every line of a
 * dump goes through vmmap_parse_region_line), hence the hand-written scanners.
 *
 * Each fast path (SSE2 scans, integer decimals, the fixed-column pass over
 * vmmap's canonical line) has a plain form beside it
 * that gives the same results. VMMAP_LINE_SCALAR builds the plain forms
 * only: tests/unit builds this file so, under other names, as the
 * reference the fast paths are compared with on generated lines.
 */

#include "ingest/vmmap_read.h"
#include "ingest/vmmap_grammar.h"

#include "util/bytes.h"
#include "util/scan.h"
#include "util/size.h"
#include "util/view.h"

#include <stdint.h>
#include <string.h>

#if defined(__SSE2__) && !defined(VMMAP_LINE_SCALAR)
#define VMMAP_LINE_SSE2 1
#endif

#if defined(__GNUC__)
#define ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define ALWAYS_INLINE inline
#endif

static bool
is_prot(const char *p)
{
	return (p[0] == 'r' || p[0] == '-') && (p[1] == 'w' || p[1] == '-') &&
	       (p[2] == 'x' || p[2] == '-');
}

static bool
is_blank(char c)
{
	return c == ' ' || c == '\t';
}

#if defined(VMMAP_LINE_SSE2)
/*
 * vmmap's own form of the anchor at rb (16 readable bytes), as one compare:
 * each of the 13 bytes is the byte of "] rwx/rwx SM=" or of "] ---/--- SM="
 * at its place, which is prot_block_end()'s plain test (the slots of "/"
 * and "SM=" are the same in both).
 */
static inline bool
prot_block_canonical(const char *rb)
{
	__m128i v = _mm_loadu_si128((const __m128i *)(const void *)rb);
	__m128i ok = _mm_or_si128(
		_mm_cmpeq_epi8(v, _mm_setr_epi8(']', ' ', 'r', 'w', 'x', '/', 'r', 'w', 'x', ' ',
						'S', 'M', '=', 0, 0, 0)),
		_mm_cmpeq_epi8(v, _mm_setr_epi8(']', ' ', '-', '-', '-', '/', '-', '-', '-', ' ',
						'S', 'M', '=', 0, 0, 0)));
	return (_mm_movemask_epi8(ok) & 0x1fff) == 0x1fff;
}
#endif

/*
 * Does "] rwx/rwx SM=" start at rb (the anchor of every region line)? vmmap
 * prints one space on each side of PRT/MAX; pastes collapse or widen that
 * to any run of blanks. Returns the byte after "SM=", or NULL.
 */
static const char *
prot_block_end(const char *rb, const char *end)
{
#if defined(VMMAP_LINE_SSE2)
	/* The plain test below runs for fewer than 16 bytes and other forms. */
	if (end - rb >= 16 && prot_block_canonical(rb))
		return rb + 13;
#endif
	if (end - rb >= 13 && rb[1] == ' ' && is_prot(rb + 2) && rb[5] == '/' &&
	    is_prot(rb + 6) && rb[9] == ' ' && memcmp(rb + 10, "SM=", 3) == 0)
		return rb + 13;
	const char *p = rb + 1;
	while (p < end && is_blank(*p))
		p++;
	if (end - p < 7 || !is_prot(p) || p[3] != '/' || !is_prot(p + 4))
		return NULL;
	p += 7;
	const char *b = p;
	while (p < end && is_blank(*p))
		p++;
	if (p == b || end - p < 3 || memcmp(p, "SM=", 3) != 0)
		return NULL;
	return p + 3;
}

/* "START-END": hex (optionally 0x-prefixed) or the unmapped/kernel tokens. */
static int
parse_address(const char *p, size_t n, uint64_t *v, bool *symbolic)
{
	*symbolic = false;
	if ((n == 8 && memcmp(p, "unmapped", 8) == 0) ||
	    (n == 6 && memcmp(p, "kernel", 6) == 0)) {
		*symbolic = true;
		return 0;
	}
	if (n > 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
		p += 2;
		n -= 2;
	}
	return parse_u64_hex(p, n, v) == SIZE_OK ? 0 : -1;
}

const char vmmap_why_before_2_0[] =
	"a START address without -END, as vmmap printed before report format 2.0 "
	"(Mac OS X 10.4 and older); that layout is not supported";

/* One side of "START-END" as a broken line may still show it: hex or a symbolic address. */
static bool
is_address_like(const char *p, const char *end)
{
	size_t n = (size_t)(end - p);
	if ((n == 8 && memcmp(p, "unmapped", 8) == 0) || (n == 6 && memcmp(p, "kernel", 6) == 0))
		return true;
	if (n > 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
		p += 2;
	if (p == end)
		return false;
	for (; p < end; p++)
		if (!((*p >= '0' && *p <= '9') || ((*p | 0x20) >= 'a' && (*p | 0x20) <= 'f')))
			return false;
	return true;
}

static int
parse_range(const char *p, size_t n, struct vmmap_region *r, const char **why)
{
	const char *dash = memchr(p, '-', n);
	if (!dash) {
		*why = is_address_like(p, p + n) ? vmmap_why_before_2_0 :
						    "no START-END address range before '['";
		return -1;
	}
	size_t ln = (size_t)(dash - p), rn = n - ln - 1;
	bool sym_start, sym_end;
	if (parse_address(p, ln, &r->start, &sym_start) < 0 ||
	    parse_address(dash + 1, rn, &r->end, &sym_end) < 0) {
		*why = "address range is not hexadecimal START-END";
		return -1;
	}
	if (sym_start != sym_end) {
		*why = "address range mixes a symbolic and a numeric address";
		return -1;
	}
	r->has_range = !sym_start;
	r->zero_padded = r->has_range && ln > 1 && p[0] == '0' && p[1] != 'x' && p[1] != 'X';
	if (r->has_range && r->end < r->start) {
		*why = "address range ends below its start";
		return -1;
	}
	return 0;
}

static bool
is_size_sep(char c)
{
	return c == ' ' || c == '/' || c == '\t';
}

/*
 * One size token at *pp, scanned and converted in a single pass (this runs
 * four times per region line). Whole numbers with no unit or a K unit are
 * converted exactly here; anything else goes through size_parse_vmmap().
 */
static int
scan_size_token(const char **pp, const char *end, uint64_t *v, bool *rounded)
{
	const char *t = *pp, *p = t;
	uint64_t whole = 0;
	while (p < end && (unsigned)(*p - '0') <= 9 && p - t < 15)
		whole = whole * 10 + (uint64_t)(*p++ - '0');
	bool simple = p > t && (p == end || *p == ' ' || *p == '/' ||
				(*p == 'K' && (p + 1 == end || p[1] == ' ' || p[1] == '/')));
	if (simple) {
		if (p < end && *p == 'K') {
			whole <<= 10;
			p++;
		}
		*v = whole;
		*rounded = false;
		*pp = p;
		return SIZE_OK;
	}
	while (p < end && !is_size_sep(*p))
		p++;
	*pp = p;
	*rounded = true;
	return size_parse_vmmap(t, (size_t)(p - t), v);
}

#define SIZE_SLOTS_LEN 27    /* "%6s %6s %6s %6s" */

/*
 * A slot's "%.1f" size with a unit, as size_parse_vmmap() computes it:
 * tenths / 10 as a double, times the unit, truncated. For M and G the
 * integer floor(tenths * unit / 10) is the same number, without a
 * division: tenths is below 10^5 (a six-byte slot), so the value is below
 * 2^47 and the double's relative error (2^-53) is below 2^-6 in absolute
 * terms. A tenths not divisible by 5 leaves a fraction of 1/5 to 4/5,
 * which that error cannot carry across an integer; one divisible by 5
 * gives tenths / 10 = k / 2, exact in a double. For T (2^40) the bound
 * fails, so T keeps the double.
 */
static uint64_t
slot_decimal(uint64_t tenths, char unit)
{
#if !defined(VMMAP_LINE_SCALAR)
	if (unit == 'M')
		return (tenths << 20) / 10;
	if (unit == 'G')
		return (tenths << 30) / 10;
#endif
	return (uint64_t)((double)tenths / 10.0 *
			  (unit == 'M' ? 1048576.0 : unit == 'G' ? 1073741824.0 : 1099511627776.0));
}

/* One right-aligned six-byte size slot; *fraction when it was rounded. */
static bool
parse_size_slot(const char *f, uint64_t *v, bool *fraction)
{
	const char *fe = f + 6;
	while (f < fe && *f == ' ')
		f++;
	if (f == fe)
		return false;
	uint64_t whole = 0;
	const char *d = f;
	while (d < fe && (unsigned)(*d - '0') <= 9)
		whole = whole * 10 + (uint64_t)(*d++ - '0');
	if (d == f)
		return false;
	*fraction = false;
	if (d == fe) {
		*v = whole;
	} else if (d + 1 == fe && *d == 'K') {
		*v = whole << 10;
	} else if (d + 3 == fe && *d == '.' && (unsigned)(d[1] - '0') <= 9 &&
		   (d[2] == 'M' || d[2] == 'G' || d[2] == 'T')) {
		*v = slot_decimal(whole * 10 + (uint64_t)(d[1] - '0'), d[2]);
		*fraction = true;
	} else {
		if (size_parse_vmmap(f, (size_t)(fe - f), v) != SIZE_OK)
			return false;
		*fraction = true;
	}
	return true;
}

#if defined(VMMAP_LINE_SSE2)
/*
 * The four slots at once, without a table of slot texts (a memo of 4096
 * texts, 64 KiB, was twice the L1 data cache: its load was the hottest
 * instruction of the parse). Nearly every slot has one of three forms:
 *
 *   int  blanks, then digits to the end          "  4096"
 *   K    blanks, digits, 'K'                     "   16K"
 *   dec  blanks, 1 to 3 digits, '.', digit, M/G  " 12.5M"
 *
 * Two overlapping 16-byte loads (p and p + 11: nothing past the last slot
 * is read) are spread so that slot i fills bytes 0-5 of 64-bit lane i.
 * Every byte is classified at once; in the masks, bit 8i + j is byte j of
 * slot i. A slot's last byte gives its form and so the bytes its number
 * covers, and the whole block is checked in a few word operations. Any
 * other slot (T, B, lowercase units, a digit after a blank, ...) sends all
 * four to parse_size_slot(), the reference.
 */
#define SLOT_FIRST UINT32_C(0x01010101)
#define SLOT_DEC_LAST (1u << 2)

/*
 * How a slot of a valid form is read, by its last byte. R is the slot read
 * as "%06u" with every byte that is no digit taken as 0: the int itself,
 * 10 x the K count (k = 1), 1000 x the whole of a dec plus 10 x its tenth
 * (k = 3). (R * recip) >> 32 is floor(R / 10^k): recip = ceil(2^32 / 10^k)
 * is above 2^32 / 10^k by less than 1, so the product is above
 * R / 10^k by less than R / 2^32 < 2^-12, and R / 10^k is an integer (K)
 * or at least 0.91 below the next one (dec: R mod 1000 is 10 x the tenth).
 */
struct slot_form {
	uint64_t recip;          /* ceil(2^32 / 10^k) */
	const uint64_t *tenths;  /* by the tenth's digit: zeros for the forms without one */
	uint8_t unit_shift;      /* log2 of the unit */
	uint8_t last;            /* the bit of the number's last byte; 0: no size ends so */
};

/*
 * floor(d * unit / 10) for the tenth d (by its byte's low four bits).
 * slot_decimal() gives floor(tenths * unit / 10) with tenths = 10 * whole
 * + d, which is whole * unit + floor(d * unit / 10), whole * unit being an
 * integer.
 */
#define SLOT_TENTHS(s)                                                        \
	{ 0, (UINT64_C(1) << (s)) / 10, (UINT64_C(2) << (s)) / 10,            \
	  (UINT64_C(3) << (s)) / 10, (UINT64_C(4) << (s)) / 10,               \
	  (UINT64_C(5) << (s)) / 10, (UINT64_C(6) << (s)) / 10,               \
	  (UINT64_C(7) << (s)) / 10, (UINT64_C(8) << (s)) / 10,               \
	  (UINT64_C(9) << (s)) / 10 }
static const uint64_t slot_tenths[3][16] = { { 0 }, SLOT_TENTHS(20), SLOT_TENTHS(30) };

#define SLOT_FORM_INT { UINT64_C(1) << 32, slot_tenths[0], 0, 1u << 5 }
static const struct slot_form slot_forms[256] = {
	['0'] = SLOT_FORM_INT, ['1'] = SLOT_FORM_INT, ['2'] = SLOT_FORM_INT,
	['3'] = SLOT_FORM_INT, ['4'] = SLOT_FORM_INT, ['5'] = SLOT_FORM_INT,
	['6'] = SLOT_FORM_INT, ['7'] = SLOT_FORM_INT, ['8'] = SLOT_FORM_INT,
	['9'] = SLOT_FORM_INT,
	['K'] = { 429496730, slot_tenths[0], 10, 1u << 4 },
	['M'] = { 4294968, slot_tenths[1], 20, SLOT_DEC_LAST },
	['G'] = { 4294968, slot_tenths[2], 30, SLOT_DEC_LAST },
};

static const struct slot_form *
slot_form_of(const char *f)
{
	return &slot_forms[(unsigned char)f[5]];
}

static inline uint64_t
slot_value(const struct slot_form *form, const char *f, uint32_t r)
{
	return ((r * form->recip) >> 32 << form->unit_shift) + form->tenths[f[4] & 15];
}

static uint32_t
slot_mask(__m128i s01, __m128i s23)
{
	return (uint32_t)_mm_movemask_epi8(s01) | (uint32_t)_mm_movemask_epi8(s23) << 16;
}

static __m128i
bytes_equal(__m128i c, char b)
{
	return _mm_cmpeq_epi8(c, _mm_set1_epi8(b));
}

/*
 * Two slots' R (lanes 0 and 2: "%06u" of bytes 0-5 of each 64-bit lane of
 * digit values): pairs, then 10^4, 10^2, 1 times the pairs (lanes 1, 3 hold
 * the last pair; the caller adds them).
 */
static __m128i
slot_pair_reads(__m128i z)
{
	const __m128i zero = _mm_setzero_si128();
	const __m128i tens = _mm_setr_epi16(10, 1, 10, 1, 10, 1, 0, 0);
	__m128i a = _mm_madd_epi16(_mm_unpacklo_epi8(z, zero), tens);
	__m128i b = _mm_madd_epi16(_mm_unpackhi_epi8(z, zero), tens);
	return _mm_madd_epi16(_mm_packs_epi32(a, b),
			      _mm_setr_epi16(10000, 100, 1, 0, 10000, 100, 1, 0));
}

/* All four slots when each has one of the three forms; else false.
 * Inlined into its two callers (the canonical pass, vmmap_read_size_slots):
 * the call's register saves were ~12 instructions of every region line. */
static ALWAYS_INLINE bool
read_common_slots(const char *p, uint64_t v[4], bool *fraction)
{
	__m128i lo = _mm_loadu_si128((const __m128i *)(const void *)p);
	__m128i hi = _mm_loadu_si128((const __m128i *)(const void *)(p + 11));
	__m128i s01 = _mm_unpacklo_epi64(lo, _mm_srli_si128(lo, 7));
	__m128i s23 = _mm_unpacklo_epi64(_mm_srli_si128(hi, 3), _mm_srli_si128(hi, 10));
	/* '0'..'9' become 0..9 and no other byte does. */
	__m128i x01 = _mm_xor_si128(s01, _mm_set1_epi8('0'));
	__m128i x23 = _mm_xor_si128(s23, _mm_set1_epi8('0'));
	__m128i d01 = _mm_cmpeq_epi8(_mm_min_epu8(x01, _mm_set1_epi8(9)), x01);
	__m128i d23 = _mm_cmpeq_epi8(_mm_min_epu8(x23, _mm_set1_epi8(9)), x23);
	uint32_t digit = slot_mask(d01, d23);
	uint32_t blank = slot_mask(bytes_equal(s01, ' '), bytes_equal(s23, ' '));
	uint32_t dot = slot_mask(bytes_equal(s01, '.'), bytes_equal(s23, '.'));
	const struct slot_form *form[4] = {
		slot_form_of(p), slot_form_of(p + 7), slot_form_of(p + 14), slot_form_of(p + 21),
	};
	/*
	 * Each slot's last digit of the number (by its last byte), which
	 * must be a digit, and the bytes before it, blanks then digits.
	 */
	uint32_t last = form[0]->last | (uint32_t)form[1]->last << 8 |
			(uint32_t)form[2]->last << 16 | (uint32_t)form[3]->last << 24;
	if (((last + SLOT_FIRST * 0x7f) & SLOT_FIRST << 7) != SLOT_FIRST << 7)
		return false;   /* a last byte that no form has (each byte is 0 or 4 to 32) */
	uint32_t dec = last & SLOT_FIRST * SLOT_DEC_LAST;
	uint32_t before = last - SLOT_FIRST;
	uint32_t bad = (before & ~(digit | blank)) |   /* a byte that is neither */
		       (digit << 1 & blank & before) |  /* a blank after a digit */
		       ((last | dec << 2) & ~digit) |   /* no digit at the end, or no tenth */
		       (dec << 1 & ~dot);               /* no '.' before the tenth */
	if (bad)
		return false;

	__m128i r01 = slot_pair_reads(_mm_and_si128(x01, d01));
	__m128i r23 = slot_pair_reads(_mm_and_si128(x23, d23));
	__m128 f01 = _mm_castsi128_ps(r01), f23 = _mm_castsi128_ps(r23);
	__m128i r = _mm_add_epi32(_mm_castps_si128(_mm_shuffle_ps(f01, f23, _MM_SHUFFLE(2, 0, 2, 0))),
				  _mm_castps_si128(_mm_shuffle_ps(f01, f23, _MM_SHUFFLE(3, 1, 3, 1))));
	uint64_t r01w = (uint64_t)_mm_cvtsi128_si64(r);
	uint64_t r23w = (uint64_t)_mm_cvtsi128_si64(_mm_unpackhi_epi64(r, r));
	v[0] = slot_value(form[0], p, (uint32_t)r01w);
	v[1] = slot_value(form[1], p + 7, (uint32_t)(r01w >> 32));
	v[2] = slot_value(form[2], p + 14, (uint32_t)r23w);
	v[3] = slot_value(form[3], p + 21, (uint32_t)(r23w >> 32));
	*fraction = (dec & 0xff) != 0;
	return true;
}
#endif

/* Each slot by parse_size_slot(): the reference, and the rare forms. */
#if defined(VMMAP_LINE_SSE2) && defined(__GNUC__)
__attribute__((noinline))   /* keeps its registers out of the fast path */
#endif
static bool
read_plain_slots(const char *p, uint64_t v[4], bool *fraction)
{
	bool rounded[4];
	for (int i = 0; i < 4; i++)
		if (!parse_size_slot(p + 7 * i, &v[i], &rounded[i]))
			return false;
	*fraction = rounded[0];
	return true;
}

/*
 * The four slots of "%6s %6s %6s %6s" at p; *fraction when the first was
 * rounded. VMMAP_LINE_SCALAR (the reference of tests/unit) and targets
 * without SSE2 read every slot with parse_size_slot().
 */
bool
vmmap_read_size_slots(const char *p, uint64_t v[4], bool *fraction)
{
#if defined(VMMAP_LINE_SSE2)
	if (read_common_slots(p, v, fraction))
		return true;
#endif
	return read_plain_slots(p, v, fraction);
}

/*
 * vmmap prints the four sizes as "%6s %6s %6s %6s". When the bracket holds
 * exactly that shape, each field is a right-aligned six-byte slot: parse
 * the slots directly. Returns false (nothing consumed) for any other shape,
 * which the general tokenizer below handles.
 */
static bool
parse_size_slots(const char *p, const char *end, uint64_t *dst[4], bool *fraction)
{
	if (end - p != SIZE_SLOTS_LEN || p[6] != ' ' || p[13] != ' ' || p[20] != ' ')
		return false;
	uint64_t v[4];
	if (!vmmap_read_size_slots(p, v, fraction))
		return false;
	for (int i = 0; i < 4; i++)
		*dst[i] = v[i];
	return true;
}

/* The "[ VSIZE RSDNT DIRTY SWAP]" block; fewer columns in old layouts. */
static int
parse_sizes(const char *p, const char *end, struct vmmap_region *r,
	    uint64_t *vsize_printed, bool *vsize_fraction, const char **why)
{
	uint64_t *dst[4] = { vsize_printed, &r->resident, &r->dirty, &r->swapped };
	uint64_t ignored;
	unsigned n = 0;
	*vsize_fraction = false;
	if (parse_size_slots(p, end, dst, vsize_fraction)) {
		r->size_columns = 4;
		return 0;
	}
	for (;;) {
		while (p < end && *p == ' ')
			p++;
		if (p == end)
			break;
		if (is_size_sep(*p)) {
			p++;
			continue;
		}
		bool rounded;
		int rc = scan_size_token(&p, end, n < 4 ? dst[n] : &ignored, &rounded);
		if (rc == SIZE_OVERFLOW) {
			*why = "a size does not fit in 64 bits";
			return -1;
		}
		if (rc != SIZE_OK) {
			*why = "a size inside [...] is not a number with a K/M/G/T unit";
			return -1;
		}
		if (n == 0)
			*vsize_fraction = rounded;
		n++;
	}
	if (n == 0) {
		*why = "no sizes inside [...]";
		return -1;
	}
	r->size_columns = n < 4 ? n : 4;
	return 0;
}

int
vmmap_pages_to_bytes(const char *p, size_t n, uint64_t page_size, uint64_t *out)
{
	const char *end = p + n, *dot = memchr(p, '.', n);
	const char *wend = dot ? dot : end;
	uint64_t whole, frac = 0, scale = 1, bytes, part;
	if (page_size == 0 || wend == p || parse_u64_dec(p, (size_t)(wend - p), &whole) != SIZE_OK)
		return -1;
	if (dot) {
		if (end - dot - 1 < 1 || end - dot - 1 > 6 ||
		    parse_u64_dec(dot + 1, (size_t)(end - dot - 1), &frac) != SIZE_OK)
			return -1;
		for (const char *c = dot + 1; c < end; c++)
			scale *= 10;
	}
	if (__builtin_mul_overflow(whole, page_size, &bytes) ||
	    __builtin_mul_overflow(frac, page_size, &part) ||
	    __builtin_add_overflow(bytes, part / scale, &bytes) || bytes > BYTES_MAX)
		return -1;
	*out = bytes;
	return 0;
}

int
vmmap_region_pages_to_bytes(struct vmmap_region *r, uint64_t page_size, const char **why)
{
	uint64_t *dst[4] = { NULL, &r->resident, &r->dirty, &r->swapped };
	uint64_t v;
	const char *p = r->sizes, *end = r->sizes + r->sizes_len;
	for (unsigned i = 0; i < 4; i++) {
		while (p < end && is_size_sep(*p))
			p++;
		if (p == end)
			break;
		const char *t = p;
		while (p < end && !is_size_sep(*p))
			p++;
		if (vmmap_pages_to_bytes(t, (size_t)(p - t), page_size, &v) < 0) {
			*why = "a page count inside [...] is not a number of pages below 2^63 bytes";
			return -1;
		}
		if (i == 0 && !r->has_range)
			r->vsize = v;
		else if (i > 0)
			*dst[i] = v;
	}
	r->vsize_rounded = false;
	return 0;
}

static bool
has_unit(const char *p, const char *e)
{
	return e > p && (e[-1] == 'K' || e[-1] == 'M' || e[-1] == 'G' || e[-1] == 'T' ||
			 e[-1] == 'B');
}

/*
 * Sizes only vmmap -pages prints: a bare "0" (bytes print "0K"), a
 * fraction without a unit, or a range of a page or more whose VSIZE is a
 * bare number (bytes print sizes from 4K on with a unit).
 */
static bool
sizes_are_page_counts(const struct vmmap_region *r)
{
	const char *p = r->sizes, *end = r->sizes + r->sizes_len;
	for (unsigned i = 0; p < end; i++) {
		while (p < end && is_size_sep(*p))
			p++;
		const char *t = p;
		while (p < end && !is_size_sep(*p))
			p++;
		if (t == p || has_unit(t, p))
			continue;
		if ((p - t == 1 && *t == '0') || memchr(t, '.', (size_t)(p - t)))
			return true;
		if (i == 0 && r->has_range && r->end - r->start >= 4096)
			return true;
	}
	return false;
}

/* "SurfaceID: 0x74  2080x2330 (BGRA) 18.5M  'name', shared with ..." */
void
vmmap_region_read_surface(struct vmmap_region *r)
{
	const char *p = r->detail, *end = r->detail + r->detail_len;
	static const char tag[] = "SurfaceID: 0x";
	size_t tl = sizeof(tag) - 1;
	struct vmmap_surface *s = &r->surface;
	if ((size_t)(end - p) < tl || memcmp(p, tag, tl) != 0)
		return;
	p += tl;
	const char *t = p;
	while (p < end && *p != ' ')
		p++;
	if (parse_u64_hex(t, (size_t)(p - t), &s->id) != SIZE_OK)
		return;
	p = view_ltrim(p, end);
	uint64_t w, h;
	t = p;
	while (p < end && *p >= '0' && *p <= '9')
		p++;
	if (p == end || *p != 'x' || parse_u64_dec(t, (size_t)(p - t), &w) != SIZE_OK)
		return;
	t = ++p;
	while (p < end && *p >= '0' && *p <= '9')
		p++;
	if (parse_u64_dec(t, (size_t)(p - t), &h) != SIZE_OK || w > UINT32_MAX || h > UINT32_MAX)
		return;
	p = view_ltrim(p, end);
	if (p == end || *p != '(')
		return;
	const char *close = memchr(p, ')', (size_t)(end - p));
	if (!close || close - p - 1 >= (ptrdiff_t)sizeof(s->format) || close == p + 1)
		return;
	memcpy(s->format, p + 1, (size_t)(close - p - 1));
	s->format[close - p - 1] = '\0';
	p = view_ltrim(close + 1, end);
	t = p;
	while (p < end && *p != ' ')
		p++;
	if (size_parse_vmmap(t, (size_t)(p - t), &s->bytes) != SIZE_OK)
		return;
	s->bytes_rounded = memchr(t, '.', (size_t)(p - t)) != NULL;
	s->width = (uint32_t)w;
	s->height = (uint32_t)h;
	r->has_surface = true;
}

/* Tokens an ATTRIBUTES column may put between SM=XXX and PURGE=. */
static bool
is_attribute_word(const char *p, size_t n)
{
	return (n == 3 && memcmp(p, "MTE", 3) == 0) ||
	       (n == 4 && memcmp(p, "TPRO", 4) == 0) ||
	       (n == 3 && memcmp(p, "JIT", 3) == 0);
}

/*
 * The first byte at or after p that is not a blank (space, tab), or end.
 * vmmap pads the share mode to the detail's column with about ten
 * blanks; 16 bytes are looked at at once where the line has them.
 */
static const char *
skip_blanks_forward(const char *p, const char *end)
{
#if defined(VMMAP_LINE_SSE2)
	while (end - p >= 16) {
		__m128i c = _mm_loadu_si128((const __m128i *)(const void *)p);
		unsigned blank = (unsigned)_mm_movemask_epi8(
			_mm_or_si128(_mm_cmpeq_epi8(c, _mm_set1_epi8(' ')),
				     _mm_cmpeq_epi8(c, _mm_set1_epi8('\t'))));
		unsigned other = ~blank & 0xffffu;
		if (other)
			return p + __builtin_ctz(other);
		p += 16;
	}
#endif
	return view_ltrim(p, end);
}

/* After "SM=XXX": optional attributes, optional " PURGE=X", the detail. */
static void
parse_tail(const char *p, const char *end, struct vmmap_region *r)
{
	r->purge = VMMAP_PURGE_NONE;
	for (;;) {
		p = skip_blanks_forward(p, end);
		if (p == end || (*p != 'M' && *p != 'T' && *p != 'J'))
			break;
		const char *t = p;
		while (p < end && *p != ' ')
			p++;
		if (t < p && is_attribute_word(t, (size_t)(p - t)))
			continue;
		p = t;
		break;
	}
	if (end - p >= 7 && memcmp(p, "PURGE=", 6) == 0 &&
	    (p + 7 == end || p[7] == ' ')) {
		int state = vmmap_purge_from_char(p[6]);
		if (state < 0 || state == VMMAP_PURGE_NONE)
			r->purge_unknown = true;
		else
			r->purge = (enum vmmap_purge)state;
		p = skip_blanks_forward(p + 7, end);
	}
	r->detail = p;
	r->detail_len = (size_t)(end - p);
}

/*
 * Does [p, p + n) hold " SM="? Found from its '=', which few lines hold:
 * a search from the blank stopped at every blank of a line, some ten
 * library calls for each line of a summary table.
 */
static bool
has_share_mode(const char *p, size_t n)
{
	if (n < 4)
		return false;
	const char *end = p + n;
	for (const char *q = p + 3; q < end; q++) {
		q = memchr(q, '=', (size_t)(end - q));
		if (!q)
			return false;
		if (q[-1] == 'M' && q[-2] == 'S' && q[-3] == ' ')
			return true;
	}
	return false;
}

/*
 * Heuristic for lines that failed the grammar: is this meant as a region?
 * Either the " SM=" of the anchor, or a START-END address token before a
 * '[' (not a name such as "llama-server [52794]").
 */
bool
vmmap_line_looks_like_region(const char *p, const char *end)
{
	size_t n = (size_t)(end - p);
	if (has_share_mode(p, n))
		return true;
	const char *lb = memchr(p, '[', n);
	if (!lb)
		return false;
	const char *q = lb;
	while (q > p && view_is_space(q[-1]))
		q--;
	const char *tok_end = q;
	while (q > p && !view_is_space(q[-1]))
		q--;
	const char *dash = memchr(q, '-', (size_t)(tok_end - q));
	return dash && is_address_like(q, dash) && is_address_like(dash + 1, tok_end);
}

/* Lowercase hex digit values by byte; X marks a byte that is not one. */
#define X 0xff
static const unsigned char lower_hex_value[256] = {
	X, X, X, X, X, X, X, X, X, X, X, X, X, X, X, X,
	X, X, X, X, X, X, X, X, X, X, X, X, X, X, X, X,
	X, X, X, X, X, X, X, X, X, X, X, X, X, X, X, X,
	0, 1, 2, 3, 4, 5, 6, 7, 8, 9, X, X, X, X, X, X,
	X, X, X, X, X, X, X, X, X, X, X, X, X, X, X, X,
	X, X, X, X, X, X, X, X, X, X, X, X, X, X, X, X,
	X, 10, 11, 12, 13, 14, 15, X, X, X, X, X, X, X, X, X,
	X, X, X, X, X, X, X, X, X, X, X, X, X, X, X, X,
	X, X, X, X, X, X, X, X, X, X, X, X, X, X, X, X,
	X, X, X, X, X, X, X, X, X, X, X, X, X, X, X, X,
	X, X, X, X, X, X, X, X, X, X, X, X, X, X, X, X,
	X, X, X, X, X, X, X, X, X, X, X, X, X, X, X, X,
	X, X, X, X, X, X, X, X, X, X, X, X, X, X, X, X,
	X, X, X, X, X, X, X, X, X, X, X, X, X, X, X, X,
	X, X, X, X, X, X, X, X, X, X, X, X, X, X, X, X,
	X, X, X, X, X, X, X, X, X, X, X, X, X, X, X, X,
};
#undef X

/*
 * Lowercase hex digits ending at *qp, read right to left (every region
 * line has two addresses, so this is the hottest loop of the tool).
 * Returns the digit count, 0 if none, or 17 for too many.
 */
static unsigned
hex_backward(const char *p, const char **qp, uint64_t *v)
{
	const char *q = *qp;
	unsigned n = 0;
	uint64_t acc = 0;
	while (q > p) {
		unsigned d = lower_hex_value[(unsigned char)q[-1]];
		if (d == 0xff)
			break;
		if (n == 16)
			return 17;
		acc |= (uint64_t)d << (4 * n);
		n++;
		q--;
	}
	*qp = q;
	*v = acc;
	return n;
}

#if defined(VMMAP_LINE_SSE2) && defined(__x86_64__)
/* 16 bytes read at offset n (0..16) have their last n bytes set. */
static const unsigned char last_bytes_mask[32] = {
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
};

/*
 * hex_backward() over the 16 bytes before q, all of them in the line: each
 * byte classified and converted at once, the run of digits that ends at q
 * found from the mask, its nibbles packed pairwise into the eight bytes of
 * a big-endian number. A wide (-w) line has two 16-digit addresses, so
 * the byte loop ran 32 times per line. The same results as the loop.
 */
static unsigned
hex_backward16(const char *p, const char **qp, uint64_t *v)
{
	const char *q = *qp;
	const __m128i zero = _mm_setzero_si128();
	__m128i c = _mm_loadu_si128((const __m128i *)(const void *)(q - 16));
	__m128i dig = _mm_sub_epi8(c, _mm_set1_epi8('0'));
	__m128i let = _mm_sub_epi8(c, _mm_set1_epi8('a'));
	/* x <= k as unsigned bytes: x minus k, saturated, is zero */
	__m128i is_dig = _mm_cmpeq_epi8(_mm_subs_epu8(dig, _mm_set1_epi8(9)), zero);
	__m128i is_let = _mm_cmpeq_epi8(_mm_subs_epu8(let, _mm_set1_epi8(5)), zero);
	unsigned bad = ~(unsigned)_mm_movemask_epi8(_mm_or_si128(is_dig, is_let)) & 0xffffu;
	unsigned n = bad ? 15u - (31u - (unsigned)__builtin_clz(bad)) : 16u;
	if (n == 16 && q - 16 > p && lower_hex_value[(unsigned char)q[-17]] != 0xff)
		return 17;
	__m128i val = _mm_or_si128(_mm_and_si128(is_dig, dig),
				   _mm_and_si128(is_let, _mm_add_epi8(let, _mm_set1_epi8(10))));
	/* Bytes before the run are zero: leading zeros of the number. The mask
	 * of the run's n bytes is read from a table at an offset (one load, where
	 * comparing with a broadcast n took four dependent steps). */
	val = _mm_and_si128(val, _mm_loadu_si128((const __m128i *)(const void *)
						 (last_bytes_mask + n)));
	/* Each 16-bit lane holds digits 2i (low byte, higher nibble) and 2i+1. */
	__m128i pair = _mm_or_si128(_mm_slli_epi16(_mm_and_si128(val, _mm_set1_epi16(0xff)), 4),
				    _mm_srli_epi16(val, 8));
	uint64_t be = (uint64_t)_mm_cvtsi128_si64(_mm_packus_epi16(pair, pair));
	*v = __builtin_bswap64(be);
	*qp = q - n;
	return n;
}
#endif

/*
 * hex_backward(), 16 bytes at once where the line has them before *qp and
 * the address has ten digits or more (-w's 16): on the common 9-digit
 * addresses the byte loop measured as fast, and cheaper on the dump of
 * the project's own generator.
 */
static unsigned
hex_scan_backward(const char *p, const char **qp, uint64_t *v)
{
#if defined(VMMAP_LINE_SSE2) && defined(__x86_64__)
	if (*qp - p >= 16 && lower_hex_value[(unsigned char)(*qp)[-10]] != 0xff)
		return hex_backward16(p, qp, v);
#endif
	return hex_backward(p, qp, v);
}

/*
 * The first byte after the blanks (spaces, tabs) that end [p, q): q moved
 * back over them. Types are padded to their column with blanks, often 10
 * to 20 of them; 16 bytes are looked at at once where the line has them.
 */
static const char *
skip_blanks_backward(const char *p, const char *q)
{
#if defined(VMMAP_LINE_SSE2)
	while (q - p >= 16) {
		__m128i c = _mm_loadu_si128((const __m128i *)(const void *)(q - 16));
		unsigned blank = (unsigned)_mm_movemask_epi8(
			_mm_or_si128(_mm_cmpeq_epi8(c, _mm_set1_epi8(' ')),
				     _mm_cmpeq_epi8(c, _mm_set1_epi8('\t'))));
		unsigned other = ~blank & 0xffffu;
		if (other)
			return q - 16 + (32 - __builtin_clz(other));
		q -= 16;
	}
#endif
	while (q > p && view_is_space(q[-1]))
		q--;
	return q;
}

/*
 * The common "start-end" of plain lowercase hex, parsed while finding where
 * it starts. Anything else (0x prefixes, uppercase, unmapped/kernel, too
 * many digits) returns false with *qp unchanged, for the general path.
 */
static bool
scan_hex_range_backward(const char *p, const char **qp, struct vmmap_region *r)
{
	const char *q = *qp;
	uint64_t start, end;
	unsigned ne = hex_scan_backward(p, &q, &end);
	if (ne == 0 || ne > 16 || q == p || q[-1] != '-')
		return false;
	q--;
	unsigned ns = hex_scan_backward(p, &q, &start);
	if (ns == 0 || ns > 16 || (q > p && q[-1] != ' ' && q[-1] != '\t'))
		return false;
	if (end < start)
		return false;   /* the general path reports it */
	r->start = start;
	r->end = end;
	r->has_range = true;
	r->zero_padded = ns > 1 && q[0] == '0';
	*qp = q;
	return true;
}

/*
 * Is there a '[' among the SIZE_SLOTS_LEN bytes at s (where vmmap prints
 * its four size slots)? Two overlapping 16-byte compares where the plain
 * form calls memchr() for 27 bytes on every region line.
 */
static bool
has_bracket_in_slots(const char *s)
{
#if defined(VMMAP_LINE_SSE2)
	const __m128i lb = _mm_set1_epi8('[');
	__m128i a = _mm_loadu_si128((const __m128i *)(const void *)s);
	__m128i b = _mm_loadu_si128((const __m128i *)(const void *)(s + SIZE_SLOTS_LEN - 16));
	return _mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(a, lb), _mm_cmpeq_epi8(b, lb))) != 0;
#else
	return memchr(s, '[', SIZE_SLOTS_LEN) != NULL;
#endif
}

#if defined(VMMAP_LINE_SSE2) && defined(__x86_64__)
#define VMMAP_LINE_CANON 1

/* 16 bytes read at offset 16 - n (0..16) have their first n bytes set. */
static const unsigned char first_bytes_mask[32] = {
	0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
};

/*
 * The 16 bytes at p classified as hex_backward16() does: *hex the mask of
 * lowercase hex digits, *space that of ' ', *val each digit's value (0 for
 * other bytes).
 */
static inline void
canon_hex_class(const char *p, unsigned *hex, unsigned *space, __m128i *val)
{
	const __m128i zero = _mm_setzero_si128();
	__m128i c = _mm_loadu_si128((const __m128i *)(const void *)p);
	__m128i dig = _mm_sub_epi8(c, _mm_set1_epi8('0'));
	__m128i let = _mm_sub_epi8(c, _mm_set1_epi8('a'));
	__m128i is_dig = _mm_cmpeq_epi8(_mm_subs_epu8(dig, _mm_set1_epi8(9)), zero);
	__m128i is_let = _mm_cmpeq_epi8(_mm_subs_epu8(let, _mm_set1_epi8(5)), zero);
	*hex = (unsigned)_mm_movemask_epi8(_mm_or_si128(is_dig, is_let));
	*space = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(c, _mm_set1_epi8(' ')));
	*val = _mm_or_si128(_mm_and_si128(is_dig, dig),
			    _mm_and_si128(is_let, _mm_add_epi8(let, _mm_set1_epi8(10))));
}

/* Sixteen digit values (byte 0 the most significant) as one number. */
static inline uint64_t
canon_hex_pack(__m128i val)
{
	__m128i pair = _mm_or_si128(_mm_slli_epi16(_mm_and_si128(val, _mm_set1_epi16(0xff)), 4),
				    _mm_srli_epi16(val, 8));
	return __builtin_bswap64((uint64_t)_mm_cvtsi128_si64(_mm_packus_epi16(pair, pair)));
}

/* The 4 bytes at p as one word (compared whole with a word of a literal). */
static inline uint32_t
word4(const char *p)
{
	uint32_t w;
	memcpy(&w, p, sizeof(w));
	return w;
}

/*
 * Does parse_tail() take the n bytes of detail at d (after the blanks;
 * n is at least 6) as they are: no attribute word (MTE, TPRO, JIT, up to
 * a space) and no "PURGE=X" starts them? The first four bytes are
 * compared whole, with no branch on the first byte: a detail's first
 * letter varies from line to line ("/System...", "MTLHeap",
 * "DefaultMallocZone"). On a dump of mixed details (tools/bench-vmmap,
 * the independent shape) this took 0.95x to 1.00x the CPU of a switch
 * on the first byte, by the machine's state.
 */
static bool
canon_detail_is_plain(const char *d, size_t n)
{
	uint32_t w = word4(d);
	unsigned attr = (unsigned)(w == word4("MTE ")) | (unsigned)(w == word4("JIT ")) |
			((unsigned)(w == word4("TPRO")) & (unsigned)(d[4] == ' '));
	if (w == word4("PURG"))
		return !(n >= 7 && memcmp(d, "PURGE=", 6) == 0 && (n == 7 || d[7] == ' '));
	return !attr;
}

/*
 * vmmap's canonical region line, read at the columns its printf puts
 * each field at, counted back and forth from the '[' of the sizes:
 *
 *   %-24s ' ' %*llx '-' %-*llx " [" %6s ' ' %6s ' ' %6s ' ' %6s "] "
 *   PRT '/' MAX " SM=" XXX, then the tail
 *
 * with W, the width of both addresses, 12 (macOS 11 on) or 16 (-w and
 * 10.13); START right-aligned, END left-aligned, both lowercase hex. So
 * the '-' is W + 2 bytes before the '['; 16 bytes before it and 16 after
 * it are classified at once, which checks that every byte of both address
 * columns is a digit or a blank where it must be and reads both numbers,
 * where the general path below walks the line back byte by byte from the
 * '[' to the type. The sizes are read by read_common_slots(), the tail at
 * its fixed offset when it is vmmap's ten blanks before a detail.
 *
 * Every check is at least as strict as the general path's, so a line
 * this accepts gets the fields the general path gives it (the unit tests
 * compare the two on canonical lines and every one-byte change of them).
 * Anything else (other widths, tabs, uppercase, symbolic addresses, a
 * size of a rare form, attributes, an END below START) returns false
 * with *r partly written, for the general path.
 */
static bool
canon_parse(const char *p, const char *end, const char *rb, struct vmmap_region *r)
{
	/* "] rwx/rwx SM=" and the share mode: 16 bytes */
	if (end - rb < 16 || rb - p < SIZE_SLOTS_LEN + 1 + 30 || !prot_block_canonical(rb))
		return false;
	const char *lb = rb - SIZE_SLOTS_LEN - 1;
	if (lb[0] != '[' || lb[-1] != ' ' || lb[7] != ' ' || lb[14] != ' ' || lb[21] != ' ')
		return false;

	/* The address columns. The sizes' bytes are checked by the slot read,
	 * which takes no '[' (the general path looks for one there). */
	unsigned w;
	if (lb[-14] == '-')
		w = 12;
	else if (rb - p >= SIZE_SLOTS_LEN + 1 + 35 && lb[-18] == '-')
		w = 16;
	else
		return false;
	const char *dash = lb - w - 2;
	unsigned hs, ss, he, se;
	__m128i vs, ve;
	canon_hex_class(dash - 16, &hs, &ss, &vs);
	canon_hex_class(dash + 1, &he, &se, &ve);
	/* END: ne digits from the '-' on, then blanks to the " [" (at most w:
	 * the byte before the '[', at w after the '-', is a blank). */
	unsigned ne = (unsigned)__builtin_ctz(~he);
	unsigned want_e = ((1u << w) - 1) & ~((1u << ne) - 1);
	/* START: ns digits before the '-', blanks before them back to the
	 * blank after the type column (byte 15 - w; for w = 16 the byte
	 * before the 16 loaded). */
	unsigned not_hex = ~hs & 0xffffu;
	unsigned ns = not_hex ? 15u - (31u - (unsigned)__builtin_clz(not_hex)) : 16u;
	unsigned lo = w < 16 ? 15u - w : 0u;
	unsigned want_s = ((1u << (16 - ns)) - 1) & ~((1u << lo) - 1);
	if (ne == 0 || (se & want_e) != want_e || ns == 0 || ns > w ||
	    (ss & want_s) != want_s || (w == 16 && dash[-17] != ' '))
		return false;
	uint64_t start = canon_hex_pack(_mm_and_si128(
		vs, _mm_loadu_si128((const __m128i *)(const void *)(last_bytes_mask + ns))));
	uint64_t stop = canon_hex_pack(_mm_and_si128(
		ve, _mm_loadu_si128((const __m128i *)(const void *)(first_bytes_mask + 16 - ne)))) >>
		(4 * (16 - ne));
	if (stop < start)
		return false;   /* the general path reports it */
	const char *range = dash - ns;
	const char *type_end = skip_blanks_backward(p, range);
	if (type_end == p)
		return false;

	uint64_t v[4];
	bool fraction;
	if (!read_common_slots(lb + 1, v, &fraction))
		return false;

	r->type = p;
	r->type_len = (size_t)(type_end - p);
	r->start = start;
	r->end = stop;
	r->has_range = true;
	r->zero_padded = ns > 1 && range[0] == '0';
	r->vsize = stop - start;
	r->vsize_rounded = false;
	r->resident = v[1];
	r->dirty = v[2];
	r->swapped = v[3];
	r->size_columns = 4;
	r->sizes = lb + 1;
	r->sizes_len = SIZE_SLOTS_LEN;
	r->page_counts = false;
	r->has_surface = false;
	r->line = 0;
	if ((unsigned)(rb[-1] - '0') <= 9)
		r->page_counts = sizes_are_page_counts(r);

	/* The tail: none; vmmap's 8 blanks of an empty PURGE column and the
	 * 2 before a detail; or " PURGE=X" (parse_tail() for anything else). */
	const char *t = rb + 16;
	r->purge = VMMAP_PURGE_NONE;
	r->purge_unknown = false;
	if (t == end) {
		r->detail = end;
		r->detail_len = 0;
		return true;
	}
	if (end - t >= 16) {
		__m128i c = _mm_loadu_si128((const __m128i *)(const void *)t);
		unsigned blank = (unsigned)_mm_movemask_epi8(
			_mm_or_si128(_mm_cmpeq_epi8(c, _mm_set1_epi8(' ')),
				     _mm_cmpeq_epi8(c, _mm_set1_epi8('\t'))));
		if ((blank & 0x7ff) == 0x3ff &&
		    canon_detail_is_plain(t + 10, (size_t)(end - t - 10))) {
			r->detail = t + 10;
			r->detail_len = (size_t)(end - t - 10);
			return true;
		}
	}
	if (end - t >= 8 && t[0] == ' ' && memcmp(t + 1, "PURGE=", 6) == 0 &&
	    (end == t + 8 || t[8] == ' ')) {
		int state = vmmap_purge_from_char(t[7]);
		if (state < 0 || state == VMMAP_PURGE_NONE)
			r->purge_unknown = true;
		else
			r->purge = (enum vmmap_purge)state;
		const char *d = skip_blanks_forward(t + 8, end);
		r->detail = d;
		r->detail_len = (size_t)(end - d);
		return true;
	}
	parse_tail(t, end, r);
	return true;
}
#endif

/* Every field a parse sets, but the surface (valid only with has_surface). */
static void
region_clear(struct vmmap_region *r)
{
	r->type = NULL;
	r->type_len = 0;
	r->start = r->end = 0;
	r->has_range = r->zero_padded = r->vsize_rounded = false;
	r->vsize = r->resident = r->dirty = r->swapped = 0;
	r->size_columns = 0;
	r->sizes = r->detail = NULL;
	r->sizes_len = r->detail_len = 0;
	r->page_counts = r->purge_unknown = r->has_surface = false;
	r->purge = VMMAP_PURGE_NONE;
	r->line = 0;
}

bool
vmmap_parse_region_canon(const char *p, const char *end, const char *first_rb,
			 struct vmmap_region *r)
{
#if defined(VMMAP_LINE_CANON)
	return first_rb && canon_parse(p, end, first_rb, r);
#else
	(void)p;
	(void)end;
	(void)first_rb;
	(void)r;
	return false;
#endif
}

enum vmmap_line_result
vmmap_parse_region_line(const char *line, size_t n, struct vmmap_region *r,
			const char **why)
{
	const char *end = line + view_rtrim(line, n);
	return vmmap_parse_region_view(vmmap_line_skip_prefix(line, end), end, r, why);
}

enum vmmap_line_result
vmmap_parse_region_view(const char *p, const char *end, struct vmmap_region *r,
			const char **why)
{
	return vmmap_parse_region_at(p, end, scan_byte(p, end, ']'), r, why);
}

enum vmmap_line_result
vmmap_parse_region_at(const char *p, const char *end, const char *first_rb,
		      struct vmmap_region *r, const char **why)
{
	const char *rb = first_rb, *lb, *q, *sm = NULL;

#if defined(VMMAP_LINE_CANON)
	if (rb && canon_parse(p, end, rb, r)) {
		*why = NULL;
		return VMMAP_LINE_REGION;
	}
#endif
	region_clear(r);
	*why = NULL;
	for (;;) {
		if (!rb)
			goto not_region;
		if ((sm = prot_block_end(rb, end)) != NULL)
			break;
		rb = scan_byte(rb + 1, end, ']');
	}
	/* The last '[' before the anchor opens the sizes (type names hold none);
	 * vmmap's "[%6s %6s %6s %6s]" puts it 28 bytes before the ']'. */
	if (rb - p > SIZE_SLOTS_LEN && rb[-SIZE_SLOTS_LEN - 1] == '[' &&
	    !has_bracket_in_slots(rb - SIZE_SLOTS_LEN)) {
		lb = rb - SIZE_SLOTS_LEN - 1;
	} else {
		lb = rb;
		while (lb > p && lb[-1] != '[')
			lb--;
		lb = lb > p ? lb - 1 : NULL;
	}
	if (!lb) {
		*why = "no '[' before the sizes";
		return VMMAP_LINE_MALFORMED;
	}

	/* Type and range: the last token before '[' is START-END. */
	q = lb;
	while (q > p && is_blank(q[-1]))
		q--;
	const char *range_end = q;
	if (scan_hex_range_backward(p, &q, r)) {
		range_end = NULL;   /* parsed */
	} else {
		while (q > p && !view_is_space(q[-1]))
			q--;
	}
	const char *range = q;
	q = skip_blanks_backward(p, q);
	if (q == p || range == range_end) {
		*why = "no region type before the address range";
		return VMMAP_LINE_MALFORMED;
	}
	r->type = p;
	r->type_len = (size_t)(q - p);
	if (range_end && parse_range(range, (size_t)(range_end - range), r, why) < 0)
		return VMMAP_LINE_MALFORMED;

	uint64_t printed;
	bool fraction;
	if (parse_sizes(lb + 1, rb, r, &printed, &fraction, why) < 0)
		return VMMAP_LINE_MALFORMED;
	r->sizes = lb + 1;
	r->sizes_len = (size_t)(rb - lb - 1);
	/* Bytes print a unit on nearly every size: a bare last one is rare. */
	if ((unsigned)(rb[-1] - '0') <= 9)
		r->page_counts = sizes_are_page_counts(r);
	if (r->has_range) {
		r->vsize = r->end - r->start;
	} else {
		r->vsize = printed;
		r->vsize_rounded = fraction;
	}
	/* sm is past "SM="; the share mode is three bytes, or fewer when an
	 * unknown mode's blanks were trimmed at the end of the line. */
	const char *tail = end - sm > 3 ? sm + 3 : end;
	parse_tail(tail, end, r);
	return VMMAP_LINE_REGION;

not_region:
	if (vmmap_line_looks_like_region(p, end)) {
		*why = "no '] PRT/MAX SM=' block";
		return VMMAP_LINE_MALFORMED;
	}
	return VMMAP_LINE_OTHER;
}

/* "TYPE   1130e0000-11": the start of a region line, cut by the end of input. */
bool
vmmap_line_looks_cut(const char *p, const char *end)
{
	if (p >= end)
		return false;
	if (memchr(p, '[', (size_t)(end - p)) && !memchr(p, ']', (size_t)(end - p)))
		return true;
	const char *q = end;
	while (q > p && (lower_hex_value[(unsigned char)q[-1]] != 0xff || q[-1] == '-'))
		q--;
	return q < end && q > p && view_is_space(q[-1]) && view_ltrim(p, q) < q;
}
