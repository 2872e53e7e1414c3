/*
 * "via frame N" in track diff labels, checked against a brute-force
 * reference on random backtraces: for each site, N is the longest common
 * prefix of its frame ids with any other site charged to the same frame
 * (same record type), and no "via" at all when it has no such twin.
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
#include "model/track.h"
#include "track-records.h"

/* A record charged to frame 0 of one of two kexts, then 1..6 kernel frames. */
static void
random_record(struct track_record *r, uint32_t *seed, bool mapping)
{
	char sym[16];
	track_record_reset(r);
	r->type = mapping ? TRACK_RECORD_MAP : TRACK_RECORD_ALLOC;
	r->bytes = 0x1000;
	r->size[0] = 0x1000;
	r->count = 1;
	add_text_frame(r, next_random(seed) % 2 ? "com.example.a" : "com.example.b", "Kext::alloc()");
	size_t depth = 1 + next_random(seed) % 6;
	for (size_t i = 0; i < depth; i++) {
		snprintf(sym, sizeof(sym), "f%u()", next_random(seed) % 3);
		add_text_frame(r, "kernel.development", sym);
	}
}

static size_t
common_prefix(const struct diff_track_site *s, const struct diff_track_site *t)
{
	size_t i = 0;
	while (i < s->nframes && i < t->nframes &&
	       diff_track_site_frame(s, i) == diff_track_site_frame(t, i))
		i++;
	return i;
}

/* Every site's label against the brute-force reference; how many have a "via". */
static size_t
check_labels(const struct diff_track *d)
{
	struct strbuf label = STRBUF_INIT, want = STRBUF_INIT;
	size_t with_via = 0;
	for (size_t i = 0; i < d->nsites; i++) {
		const struct diff_track_site *s = &d->sites[i];
		size_t best = SIZE_MAX;
		for (size_t j = 0; j < d->nsites; j++) {
			const struct diff_track_site *t = &d->sites[j];
			if (j == i || t->mapping != s->mapping ||
			    diff_track_site_frame(t, t->charged) != diff_track_site_frame(s, s->charged))
				continue;
			size_t p = common_prefix(s, t);
			if (best == SIZE_MAX || p > best)
				best = p;
		}
		strbuf_reset(&label);
		diff_track_site_label(d, s, &label);
		assert_true(label.len > 0);
		strbuf_reset(&want);
		if (best == SIZE_MAX) {
			assert_null(strstr(label.buf, " via frame "));
			continue;
		}
		with_via++;
		strbuf_addf(&want, " via frame %zu: ", best);
		assert_non_null(strstr(label.buf, want.buf));
	}
	strbuf_release(&label);
	strbuf_release(&want);
	return with_via;
}

static void
test_via_matches_brute_force(void **state)
{
	(void)state;
	struct diff_track d;
	struct track_record r;
	struct diag err;
	uint32_t seed = 7;
	diff_track_init(&d, false);
	track_record_init(&r);
	for (int k = 0; k < 600; k++) {
		random_record(&r, &seed, k % 5 == 0);
		assert_int_equal(diff_track_add_record(&d, k % 2, &r, "t", &err), 0);
	}
	assert_true(d.nsites > 50);
	assert_true(check_labels(&d) > 50);
	/*
	 * Adding sites afterwards brings every label up to date: the new
	 * sites' and those of the sites they now share a frame with.
	 */
	size_t before = d.nsites;
	for (int k = 0; k < 40; k++) {
		random_record(&r, &seed, false);
		assert_int_equal(diff_track_add_record(&d, 1, &r, "t", &err), 0);
	}
	assert_true(d.nsites > before);
	check_labels(&d);
	assert_int_equal(d.vias->n, d.nsites);   /* worked out again for every site */
	track_record_release(&r);
	diff_track_release(&d);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_via_matches_brute_force),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
