/*
 * The call-stack icicle of `iotally report` on tracked captures, checked
 * against a brute-force reference on random backtraces: a tree with one
 * node per distinct path of folded frames (diff_track_site_folded() split
 * at ';', cut at 48 levels), each node as wide as the sites through it,
 * drawn depth first, widest child first then by name, children narrower
 * than 1/500 of the root counted as omitted, at most
 * REPORT_CHART_ITEMS_MAX items. Every item (label, depth, start, the four
 * figures) and the omitted count must match, single and before/after.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "model/diff_track.h"
#include "model/report.h"
#include "model/report_track.h"
#include "model/track.h"
#include "track-records.h"
#include "util/bytes.h"

#define REF_MAX_DEPTH 48
#define REF_MIN_SHARE 500

/*
 * Few distinct frames, so paths share prefixes; sizes over five orders of
 * magnitude, so some nodes are narrower than the drawing's limit; a few
 * gMetaClass markers (left out of folded stacks), ';' in symbols (folded
 * as ':') and stacks deeper than the depth limit (the same frames from
 * the seventh on, so that they are wide enough to be drawn).
 */
static void
random_record(struct track_record *r, uint32_t *seed)
{
	static const uint64_t sizes[] = { 0x10, 0x100, 0x1000, 0x10000, 0x200000 };
	char sym[32];
	track_record_reset(r);
	r->type = TRACK_RECORD_ALLOC;
	r->bytes = sizes[next_random(seed) % 5];
	r->size[0] = r->bytes;
	r->count = 1;
	if (next_random(seed) % 7 == 0)
		add_text_frame(r, "kernel.development", "IOBuffer::gMetaClass");
	size_t depth = next_random(seed) % 13 == 0 ? 50 + next_random(seed) % 10 :
		       1 + next_random(seed) % 6;
	for (size_t i = 0; i < depth; i++) {
		if (i < 6)
			snprintf(sym, sizeof(sym), "f%u(int;x)", next_random(seed) % (i < 3 ? 3 : 2));
		else
			snprintf(sym, sizeof(sym), "deep%zu()", i);
		add_text_frame(r, i % 2 ? "com.example.kext" : "kernel.development", sym);
	}
}

/* ---- the reference: a tree of every path -------------------------------- */

struct ref_node {
	char *name;
	uint32_t depth;
	uint64_t width, before, after;
	struct ref_node **kids;
	size_t nkids;
};

static struct ref_node *
ref_child(struct ref_node *p, const char *name, size_t len)
{
	for (size_t i = 0; i < p->nkids; i++)
		if (strlen(p->kids[i]->name) == len && memcmp(p->kids[i]->name, name, len) == 0)
			return p->kids[i];
	struct ref_node *n = calloc(1, sizeof(*n));
	n->name = strndup(name, len);
	n->depth = p->depth + 1;
	p->kids = realloc(p->kids, (p->nkids + 1) * sizeof(*p->kids));
	p->kids[p->nkids++] = n;
	return n;
}

static void
ref_add(struct ref_node *n, uint64_t w, uint64_t b, uint64_t a)
{
	bool capped = false;
	bytes_add_capped(&n->width, w, &capped);
	bytes_add_capped(&n->before, b, &capped);
	bytes_add_capped(&n->after, a, &capped);
}

static int
ref_cmp(const void *x, const void *y)
{
	const struct ref_node *a = *(struct ref_node *const *)x, *b = *(struct ref_node *const *)y;
	if (a->width != b->width)
		return a->width > b->width ? -1 : 1;
	return strcmp(a->name, b->name);
}

struct ref_item {
	char *label;
	uint32_t depth;
	int64_t start, v[4];
};

struct ref_out {
	struct ref_item items[REPORT_CHART_ITEMS_MAX];
	size_t n;
	uint64_t omitted;
};

static void
ref_emit(struct ref_node *n, struct ref_out *o, int64_t start, uint64_t min, bool root)
{
	if (!root) {
		if (o->n >= REPORT_CHART_ITEMS_MAX) {
			o->omitted++;
			return;
		}
		o->items[o->n++] = (struct ref_item){
			strdup(n->name), n->depth - 1, start,
			{ (int64_t)n->width, (int64_t)n->after - (int64_t)n->before,
			  (int64_t)n->after, (int64_t)n->before } };
	}
	if (n->nkids)
		qsort(n->kids, n->nkids, sizeof(*n->kids), ref_cmp);
	for (size_t i = 0; i < n->nkids; i++) {
		if (n->kids[i]->width < min || n->kids[i]->width == 0) {
			o->omitted++;
			continue;
		}
		ref_emit(n->kids[i], o, start, min, false);
		start += (int64_t)n->kids[i]->width;
	}
}

static void
ref_free(struct ref_node *n)
{
	for (size_t i = 0; i < n->nkids; i++)
		ref_free(n->kids[i]);
	free(n->kids);
	free(n->name);
	free(n);
}

static void
ref_icicle(const struct diff_track *d, bool pair, struct ref_out *o)
{
	struct ref_node *root = calloc(1, sizeof(*root));
	struct strbuf folded = STRBUF_INIT;
	for (size_t i = 0; i < d->nsites; i++) {
		const struct diff_track_site *s = &d->sites[i];
		uint64_t b = diff_track_site_side(d, s, 0)->bytes, a = diff_track_site_side(d, s, 1)->bytes;
		uint64_t w = pair && b > a ? b : a;
		strbuf_reset(&folded);
		diff_track_site_folded(d, s, &folded);
		struct ref_node *at = root;
		ref_add(at, w, b, a);
		for (const char *p = folded.buf; *p && at->depth < REF_MAX_DEPTH;) {
			const char *end = strchr(p, ';');
			size_t len = end ? (size_t)(end - p) : strlen(p);
			at = ref_child(at, p, len);
			ref_add(at, w, b, a);
			p += len + (end != NULL);
		}
	}
	strbuf_release(&folded);
	memset(o, 0, sizeof(*o));
	ref_emit(root, o, 0, root->width / REF_MIN_SHARE, true);
	ref_free(root);
}

/* ---- the comparison ------------------------------------------------------ */

static const struct report_chart *
icicle_of(const struct report *r)
{
	const struct report_section *s = &r->sections[REPORT_SEC_TRACK];
	for (size_t i = 0; i < s->ncharts; i++)
		if (s->charts[i]->kind == REPORT_CHART_ICICLE)
			return s->charts[i];
	return NULL;
}

/*
 * Frame ids past 16 bits: one narrow record of 65,536 distinct frames
 * first, so that every site after it keeps 32-bit ids.
 */
static void
add_filler_frames(struct diff_track *d, struct track_record *rec)
{
	struct diag err;
	char sym[32];
	track_record_reset(rec);
	rec->type = TRACK_RECORD_ALLOC;
	rec->bytes = rec->size[0] = 0x10;
	rec->count = 1;
	for (unsigned i = 0; i <= UINT16_MAX; i++) {
		snprintf(sym, sizeof(sym), "filler%u()", i);
		add_text_frame(rec, "kernel.development", sym);
	}
	assert_int_equal(diff_track_add_record(d, 1, rec, "t", &err), 0);
	assert_true(d->nframes > UINT16_MAX);
}

static void
check_against_reference_ids(bool pair, uint32_t seed, int records, bool full, bool wide)
{
	struct diff_track d;
	struct track_record rec;
	struct track_capture before, after;
	struct diag err;
	struct report r;
	struct ref_out *want = malloc(sizeof(*want));

	diff_track_init(&d, false);
	track_record_init(&rec);
	track_capture_init(&before);
	track_capture_init(&after);
	if (wide)
		add_filler_frames(&d, &rec);
	for (int k = 0; k < records; k++) {
		random_record(&rec, &seed);
		int side = pair ? k % 2 : 1;
		assert_int_equal(diff_track_add_record(&d, side, &rec, "t", &err), 0);
	}
	assert_true(d.sites[d.nsites - 1].narrow == !wide);
	report_init(&r, "track", pair);
	report_add_track(&r, &d, pair ? &before : NULL, &after);
	ref_icicle(&d, pair, want);

	const struct report_chart *c = icicle_of(&r);
	assert_non_null(c);
	assert_true(want->n > 20);
	assert_int_equal(c->nitems, want->n);
	assert_int_equal(c->omitted, want->omitted);
	assert_true(want->omitted > 0);
	assert_true((want->n == REPORT_CHART_ITEMS_MAX) == full);
	for (size_t i = 0; i < want->n; i++) {
		const struct report_chart_item *it = &c->items[i];
		assert_string_equal(it->label, want->items[i].label);
		assert_int_equal(it->depth, want->items[i].depth);
		assert_int_equal(it->start, want->items[i].start);
		for (int k = 0; k < 4; k++)
			assert_int_equal(it->v[k], want->items[i].v[k]);
	}
	/* A stack deeper than the limit is drawn to the limit, no further. */
	uint32_t deepest = 0;
	for (size_t i = 0; i < c->nitems; i++)
		deepest = c->items[i].depth > deepest ? c->items[i].depth : deepest;
	assert_int_equal(deepest, REF_MAX_DEPTH - 1);

	for (size_t i = 0; i < want->n; i++)
		free(want->items[i].label);
	free(want);
	report_release(&r);
	track_capture_release(&before);
	track_capture_release(&after);
	track_record_release(&rec);
	diff_track_release(&d);
}

static void
check_against_reference(bool pair, uint32_t seed, int records, bool full)
{
	check_against_reference_ids(pair, seed, records, full, false);
}

/* The same with sites whose frame ids take 32 bits. */
static void
test_wide_ids_match_reference(void **state)
{
	(void)state;
	check_against_reference_ids(false, 11, 200, false, true);
	check_against_reference_ids(true, 23, 200, false, true);
}

static void
test_single_matches_reference(void **state)
{
	(void)state;
	check_against_reference(false, 11, 200, false);
}

static void
test_pair_matches_reference(void **state)
{
	(void)state;
	check_against_reference(true, 23, 200, false);
}

/* Enough paths that the chart fills up: the rest is counted, not drawn. */
static void
test_full_chart_matches_reference(void **state)
{
	(void)state;
	check_against_reference(false, 5, 40000, true);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_single_matches_reference),
		cmocka_unit_test(test_wide_ids_match_reference),
		cmocka_unit_test(test_pair_matches_reference),
		cmocka_unit_test(test_full_chart_matches_reference),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
