#ifndef IOTALLY_MODEL_SIGNATURE_SERIES_H
#define IOTALLY_MODEL_SIGNATURE_SERIES_H

/*
 * Which of a series' verdicts names its signature (docs/signatures.md,
 * "Series"): `iotally trend` and `iotally signatures` ask the same
 * question of the same analysed series, so it is answered once, here.
 */

#include "model/trend.h"

/*
 * The strongest verdict (trend's rank: LEAK first) of the changed metrics
 * that measure exactly what a leak leaves behind: GPU regions, class
 * counts, call sites. A figure the capture rounds (vmmap's `Physical
 * footprint:` line, footprint's categories: a metric with a declared
 * resolution) names the series only when the kind has no exact metric at
 * all, so a rounded summary never names a series by itself beside the
 * regions it sums. TREND_VERDICTS when no metric changed.
 */
enum trend_verdict signature_series_verdict(const struct trend_series *s);

#endif
