#include "report/textfmt.h"

#include "util/escape.h"
#include "util/strbuf.h"

#include <string.h>

size_t
text_width(const char *s)
{
	size_t w = 0;
	for (; *s; s++)
		if (((unsigned char)*s & 0xc0) != 0x80)
			w++;
	return w;
}

void
text_pad_right(FILE *out, const char *s, size_t width)
{
	struct strbuf tmp = STRBUF_INIT;
	const char *shown = escape_str(&tmp, s);
	fputs(shown, out);
	for (size_t w = text_width(shown); w < width; w++)
		fputc(' ', out);
	strbuf_release(&tmp);
}

static double
mib(uint64_t bytes)
{
	/* One rounding (to double), then an exact scaling by 2^-20: the same
	 * value as an exact integer division rounded once. */
	return (double)bytes / 1048576.0;
}

void
text_mb(FILE *out, uint64_t bytes)
{
	fprintf(out, "%7.2f MB", mib(bytes));
}

void
text_mb_trim(FILE *out, uint64_t bytes)
{
	fprintf(out, "%.2f MB", mib(bytes));
}

void
text_repeat(FILE *out, char c, size_t n)
{
	while (n--)
		fputc(c, out);
}
