#include "ingest/detect.h"

#include "ingest/vmmap_read.h"
#include "util/array.h"
#include "util/linereader.h"
#include "util/view.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

/* How much of an input's start the binary check reads. */
#define INPUT_BINARY_CHECK 4096

/*
 * Control bytes that text does not hold (not tab, LF, FF or CR) among
 * p[0 .. n - 1] are added to *odd; true at a NUL byte.
 */
static bool
count_odd_bytes(const char *p, size_t n, size_t *odd)
{
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)p[i];
		if (c == 0)
			return true;
		if (c < 0x20 && c != '\n' && c != '\r' && c != '\t' && c != '\f')
			(*odd)++;
	}
	return false;
}

/*
 * Binary data: a NUL byte, or more than one byte in ten a control byte
 * that text does not hold, in the first INPUT_BINARY_CHECK bytes.
 *
 * Eight bytes at a time, then byte by byte: every input is checked once
 * to be dispatched and once more by its parser, and byte by byte that was
 * 1.4 % of a diff of folders. (each byte of w less 0x20) & ~w has a top
 * bit set exactly when some byte of w is below 0x20 (a borrow only starts
 * at such a byte), so a word without one is skipped and a word with one
 * (a text line's LF, about one word in 16) is counted byte by byte. With
 * INPUT_DETECT_SCALAR (the unit test's reference build) every byte is.
 */
static bool
looks_binary(const char *p, size_t n)
{
	size_t check = n < INPUT_BINARY_CHECK ? n : INPUT_BINARY_CHECK, odd = 0, i = 0;
#if !defined(INPUT_DETECT_SCALAR)
	const uint64_t ones = 0x0101010101010101u, tops = 0x8080808080808080u;
	for (; check - i >= 8; i += 8) {
		uint64_t w;
		memcpy(&w, p + i, sizeof(w));
		if (((w - ones * 0x20) & ~w & tops) && count_odd_bytes(p + i, 8, &odd))
			return true;
	}
#endif
	if (count_odd_bytes(p + i, check - i, &odd))
		return true;
	return check && odd * 10 > check;
}

static bool
has(const char *p, size_t n, const char *needle)
{
	return view_find(p, n, needle) != NULL;
}

int
input_iotally_schema(const char *p, size_t n, char *out, size_t outsz)
{
	const char *end = p + n, *s = view_find(p, n, "\"schema\"");
	if (!s || outsz == 0)
		return -1;
	s += 8;
	while (s < end && (view_is_space(*s) || *s == '\n' || *s == '\r'))
		s++;
	if (s == end || *s++ != ':')
		return -1;
	while (s < end && (view_is_space(*s) || *s == '\n' || *s == '\r'))
		s++;
	if (s == end || *s++ != '"')
		return -1;
	size_t len = 0;
	while (s + len < end && s[len] != '"' && s[len] != '\\' && len + 1 < outsz)
		len++;
	if (s + len == end || s[len] != '"')
		return -1;
	memcpy(out, s, len);
	out[len] = '\0';
	return 0;
}

/* The text captures' recognisers, in the order of INPUT_CAPTURES. */
#define INPUT_RECOGNISER(id, recognise, description) recognise,
static enum input_kind (*const recognisers[])(const char *p, size_t n) = {
	INPUT_CAPTURES(INPUT_RECOGNISER)
};
#undef INPUT_RECOGNISER

enum input_kind
input_detect(const char *p, size_t n)
{
	if (n == 0)
		return INPUT_EMPTY;
	if (n >= 8 && memcmp(p, "bplist00", 8) == 0)
		return INPUT_BPLIST;
	/* A stray NUL byte does not make a vmmap dump binary data: the vmmap
	 * parser reads the other lines and reports that one. */
	if (looks_binary(p, n))
		return vmmap_recognise(p, n) == VMMAP_EVIDENCE_DUMP ? INPUT_VMMAP : INPUT_BINARY;
	if (n >= 3 && memcmp(p, "\xef\xbb\xbf", 3) == 0) {
		p += 3;
		n -= 3;
	}
	const char *s = p, *end = p + n;
	while (s < end && (view_is_space(*s) || *s == '\n' || *s == '\r'))
		s++;
	size_t rest = (size_t)(end - s);
	if (rest && (*s == '{' || *s == '[')) {
		if (has(s, rest < 4096 ? rest : 4096, "\"iotally."))
			return INPUT_IOTALLY_JSON;
		if (*s == '{')
			return INPUT_JSON;
	}
	if (rest && *s == '<') {
		if (has(p, n, "<plist") || has(p, n, "PropertyList"))
			return INPUT_XML_PLIST;
		return INPUT_XML_OTHER;
	}
	for (size_t i = 0; i < ARRAY_SIZE(recognisers); i++) {
		enum input_kind kind = recognisers[i](p, n);
		if (kind != INPUT_TEXT)
			return kind;
	}
	return INPUT_TEXT;
}

bool
input_is_tar(const char *p, size_t n)
{
	/* POSIX ustar and GNU tar both put "ustar" at offset 257 of a 512-byte header. */
	return n >= 512 && memcmp(p + 257, "ustar", 5) == 0;
}

bool
input_has_cr_line_ends(const char *p, size_t n)
{
	if (memchr(p, '\n', n))
		return false;
	const char *cr = memchr(p, '\r', n);
	/* A CR with text after it: a lone CR at the very end is a file's last byte only. */
	while (cr && cr + 1 < p + n && cr[1] == '\r')
		cr++;
	return cr && cr + 1 < p + n;
}

#define INPUT_SHAPE_DESCRIBE(id, description) [INPUT_##id] = description,
#define INPUT_CAPTURE_DESCRIBE(id, recognise, description) [INPUT_##id] = description,
static const char *const descriptions[] = {
	INPUT_SHAPES(INPUT_SHAPE_DESCRIBE)
	INPUT_CAPTURES(INPUT_CAPTURE_DESCRIBE)
};
#undef INPUT_SHAPE_DESCRIBE
#undef INPUT_CAPTURE_DESCRIBE

const char *
input_kind_describe(enum input_kind kind)
{
	return (size_t)kind < ARRAY_SIZE(descriptions) ? descriptions[kind]
						       : descriptions[INPUT_TEXT];
}

int
input_detect_reader(struct line_reader *r, enum input_kind *kind, struct diag *err)
{
	const char *p;
	size_t n;
	if (line_reader_peek(r, INPUT_DETECT_BYTES, &p, &n, err) < 0)
		return -1;
	*kind = input_detect(p, n);
	return 0;
}
