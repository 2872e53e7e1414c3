#include "report/classes_text.h"

#include "util/escape.h"
#include "util/xalloc.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define COUNT_TEXT_MAX 40

/* v in decimal, written to end at `end`; returns where it starts. */
static char *
u64_text_backward(uint64_t v, char *end)
{
	do {
		*--end = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	return end;
}

/*
 * What ioclasscount prints for a count, in buf (not terminated); returns
 * its start and sets *len. By hand rather than printf: a listing prints
 * one per class (20,000 in a big capture).
 */
static const char *
count_text(const struct class_count *c, char buf[COUNT_TEXT_MAX], size_t *len)
{
	static const char absent[] = "<no such class>";
	static const char bad[] = "?? (error reading/converting value)";
	int32_t v;
	if (c->state == CLASS_COUNT_ABSENT) {
		*len = sizeof(absent) - 1;
		return absent;
	}
	if (!class_count_as_int32(c, &v)) {
		*len = sizeof(bad) - 1;
		return bad;
	}
	/* printf("%lu", (unsigned long)num32) on LP64: sign extension. */
	char *start = u64_text_backward((uint64_t)(int64_t)v, buf + COUNT_TEXT_MAX);
	*len = (size_t)(buf + COUNT_TEXT_MAX - start);
	return start;
}

void
classes_text_count(FILE *out, const struct class_count *c)
{
	char buf[COUNT_TEXT_MAX];
	size_t len;
	const char *t = count_text(c, buf, &len);
	fwrite(t, 1, len, out);
}

/*
 * A class name, by util/escape.h's rule: a name without control bytes (every
 * name ioclasscount can print) is written as it is, in one write, so the
 * listing stays byte for byte the tool's.
 */
static void
put_name(FILE *out, const char *name, size_t len)
{
	escape_write(out, name, len);
}

void
classes_text_listing(FILE *out, const struct class_count *const *v, size_t n)
{
	/* " = COUNT\n" of each row assembled first: two writes a row. */
	char row[3 + COUNT_TEXT_MAX + 1];
	for (size_t i = 0; i < n; i++) {
		char buf[COUNT_TEXT_MAX];
		size_t len;
		const char *t = count_text(v[i], buf, &len);
		memcpy(row, " = ", 3);
		memcpy(row + 3, t, len);
		row[3 + len] = '\n';
		put_name(out, v[i]->name, v[i]->len);
		fwrite(row, 1, 3 + len + 1, out);
	}
}

void
classes_text_query(FILE *out, const struct classes_snapshot *s, char *const *names,
		   size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const struct class_count *c = classes_snapshot_find(s, names[i], strlen(names[i]));
		fputs(i ? ", " : "", out);
		escape_puts(out, names[i]);
		fputs(" = ", out);
		if (c)
			classes_text_count(out, c);
		else
			fputs("<no such class>", out);
	}
	fputc('\n', out);
}

void
classes_text_saved_query(FILE *out, const struct classes_snapshot *s)
{
	for (size_t i = 0; i < s->nclasses; i++) {
		if (i)
			fputs(", ", out);
		put_name(out, s->classes[i].name, s->classes[i].len);
		fputs(" = ", out);
		classes_text_count(out, &s->classes[i]);
	}
	fputc('\n', out);
}

void
classes_text_alloc(FILE *out, const struct classes_snapshot *s)
{
	for (int k = 0; k < ALLOC_KINDS; k++) {
		if (!s->alloc_present[k])
			continue;
		/* IOKitTools-97+: CFNumber read as SInt64, "%22s = 0x%08llx = %4llu K". */
		int64_t v = s->alloc[k];
		fprintf(out, "%22s = 0x%08" PRIx64 " = %4" PRIu64 " K\n",
			alloc_kind_key((enum alloc_kind)k), (uint64_t)v, (uint64_t)(v / 1024));
	}
}

size_t
classes_text_direct(FILE *out, const struct hierarchy *h, const struct classes_snapshot *s,
		    const struct class_count *const *v, size_t n)
{
	size_t left_out = 0;
	for (size_t i = 0; i < n; i++) {
		size_t cls = hierarchy_find(h, v[i]->name, v[i]->len);
		int64_t direct;
		uint64_t live;
		if (cls == HIER_NONE || !hierarchy_direct_count(h, cls, s, &direct, &live)) {
			left_out++;
			continue;
		}
		put_name(out, v[i]->name, v[i]->len);
		fprintf(out, " = %" PRId64 "\n", direct);
	}
	return left_out;
}

struct tree_ctx {
	FILE *out;
	const struct classes_snapshot *s;
	const bool *keep;      /* NULL: every class */
};

static void
tree_line(const struct hierarchy *h, size_t cls, size_t depth, void *vctx)
{
	struct tree_ctx *t = vctx;
	const struct hier_class *c = &h->classes[cls];
	if (t->keep && !t->keep[cls])
		return;
	size_t indent = depth < CLASSES_TREE_MAX_INDENT ? depth : CLASSES_TREE_MAX_INDENT;
	for (size_t i = 0; i < indent; i++)
		fputs("  ", t->out);
	if (depth > indent)
		fprintf(t->out, "[level %zu] ", depth);
	put_name(t->out, c->name, c->len);
	const struct class_count *cc = classes_snapshot_find(t->s, c->name, c->len);
	int32_t v;
	int64_t direct;
	uint64_t live;
	if (!cc) {
		fputs(" (no count)\n", t->out);
		return;
	}
	fputs(" = ", t->out);
	if (class_count_as_int32(cc, &v))
		fprintf(t->out, "%" PRId32, v);
	else
		classes_text_count(t->out, cc);
	if (hierarchy_direct_count(h, cls, t->s, &direct, &live))
		fprintf(t->out, " (direct %" PRId64 ")", direct);
	fputc('\n', t->out);
}

struct keep_ctx {
	size_t *order;
	size_t n;
};

static void
collect(const struct hierarchy *h, size_t cls, size_t depth, void *vctx)
{
	struct keep_ctx *k = vctx;
	(void)h, (void)depth;
	k->order[k->n++] = cls;
}

/* keep[c]: c or a class below it has a nonzero count (children come after parents in `order`). */
static bool *
nonzero_subtrees(const struct hierarchy *h, const struct classes_snapshot *s,
		 const size_t *roots, size_t nroots)
{
	bool *keep = xcalloc(h->nclasses + 1, sizeof(*keep));
	struct keep_ctx k = { xmalloc(sizeof(size_t) * (h->nclasses + 1)), 0 };
	for (size_t r = 0; r < nroots; r++) {
		k.n = 0;
		hierarchy_walk(h, roots[r], collect, &k);
		for (size_t i = k.n; i-- > 0;) {
			const struct hier_class *c = &h->classes[k.order[i]];
			const struct class_count *cc = classes_snapshot_find(s, c->name, c->len);
			if (cc && class_count_is_nonzero(cc))
				keep[k.order[i]] = true;
			if (keep[k.order[i]] && c->super != HIER_NONE)
				keep[c->super] = true;
		}
	}
	free(k.order);
	return keep;
}

void
classes_text_tree(FILE *out, const struct hierarchy *h, const struct classes_snapshot *s,
		  size_t root, bool nonzero)
{
	size_t *roots, nroots;
	if (root == HIER_NONE) {
		nroots = hierarchy_roots(h, &roots);
	} else {
		roots = xmalloc(sizeof(*roots));
		roots[0] = root;
		nroots = 1;
	}
	struct tree_ctx t = { out, s, NULL };
	bool *keep = nonzero ? nonzero_subtrees(h, s, roots, nroots) : NULL;
	t.keep = keep;
	for (size_t r = 0; r < nroots; r++)
		hierarchy_walk(h, roots[r], tree_line, &t);
	free(keep);
	free(roots);
}
