/* libFuzzer harness: the --fail-if expression parser and the gate check. */

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "model/diff.h"
#include "util/xalloc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The first 16 bytes give BEFORE and AFTER; the rest is the expression. */
static int64_t
figure(const uint8_t *p)
{
	uint64_t v = 0;
	for (int i = 0; i < 8; i++)
		v = v << 8 | p[i];
	return (int64_t)v;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct diff_gate g;
	struct diag err;
	int64_t before = 0, after = 0;
	if (size >= 16) {
		before = figure(data);
		after = figure(data + 8);
		data += 16;
		size -= 16;
	}
	/* An argv string ends at its first NUL. */
	char *text = xmemdup0(data, size);
	if (diff_gate_parse(text, &g, &err) == 0) {
		if (!g.kind[0] || !g.metric[0] || !g.value_text[0])
			abort();
		if (diff_gate_check(&g, before, after, &err) == 0 && g.delta != after - before)
			abort();
	}
	diff_gate_release(&g);
	free(text);
	return 0;
}
