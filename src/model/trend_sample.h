#ifndef IOTALLY_MODEL_TREND_SAMPLE_H
#define IOTALLY_MODEL_TREND_SAMPLE_H

/*
 * One sample of a trend, read but not yet in its series: the metric values
 * and resolutions a kind's reader gives, in the order it gave them.
 *
 * It lets the reading of a sample (parse a capture, reduce it to its
 * metrics) run apart from the series (-j N: on a worker thread, beside
 * other samples), and adding it (trend_series_add()) run later, in input
 * order, on the thread that owns the series. Adding replays the calls in
 * their order, so the series is exactly what trend_series_add_sample(),
 * trend_series_set() and trend_series_set_resolution() called in that order
 * make: the same metric order, the same sums of a metric given twice.
 *
 * A sample holds its metrics only, not the capture they came from: memory
 * is that of the metrics (names in one buffer).
 */

#include <stdbool.h>
#include <stddef.h>

#include "model/trend.h"
#include "util/strbuf.h"

struct trend_sample_entry {
	size_t name;                /* offset of its NUL-ended name in `names` */
	bool resolution;            /* a resolution (q in `v`), else a value */
	enum trend_unit unit;
	bool zero_fill, leak_exempt;
	double v;
};

struct trend_sample {
	bool complete;              /* trend_series_add_sample()'s `complete` */
	struct trend_sample_entry *v;
	size_t n, alloc;
	struct strbuf names;
};

void trend_sample_init(struct trend_sample *t);
void trend_sample_release(struct trend_sample *t);

/* As trend_series_set() of this sample. */
void trend_sample_set(struct trend_sample *t, const char *name, enum trend_unit unit,
		      bool zero_fill, bool leak_exempt, double value);
/* As trend_series_set_resolution() of the metric `name`. */
void trend_sample_set_resolution(struct trend_sample *t, const char *name, double q);

/* Add the sample to the series, its calls replayed in order: the new sample's index. */
size_t trend_series_add(struct trend_series *s, const struct trend_sample *t);

#endif
