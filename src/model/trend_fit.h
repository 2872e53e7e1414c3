#ifndef IOTALLY_MODEL_TREND_FIT_H
#define IOTALLY_MODEL_TREND_FIT_H

/*
 * Segmented least-squares fits for the shape of a short series
 * (docs/trend.md §4): pure functions over arrays the caller owns.
 *
 *   trend_plateau_fit  a rise that stops: y = a + b min(x, x_e), the
 *                      breakpoint e searched over the points (segmented
 *                      regression with a flat last segment; Muggeo 2003,
 *                      R `segmented`), against the straight line
 *   trend_stairs_fit   two level shifts: three flat levels (the mean-shift
 *                      model of Bai & Perron 2003 with two breaks)
 *
 * O(n^2) for n points; n is a few hundred at most.
 */

#include <stdbool.h>
#include <stddef.h>

struct trend_plateau {
	size_t end;        /* index of the first point of the flat tail */
	double start;      /* fitted level at the first point */
	double rise;       /* fitted rise from the first point to the tail */
	double slope;      /* rise per unit of x while it rises (b) */
	double se_slope;   /* least-squares standard error of b, independent noise */
	double sigma;      /* residual standard deviation, sqrt(RSS / (n - 3)) */
	double rho;        /* lag-1 autocorrelation of the residuals (trend_lag1) */
	double rss;        /* residual sum of squares of the plateau */
	double rss_line;   /* the same for the least-squares line */
};

/*
 * The plateau that fits y over x best (least squares), with the flat tail
 * at least `min_tail` points long and at least 2 points rising. 0, or -1
 * when n < min_tail + 2, min_tail < 2 or x does not vary.
 */
int trend_plateau_fit(const double *x, const double *y, size_t n, size_t min_tail,
		      struct trend_plateau *out);

struct trend_stairs {
	size_t at1, at2;   /* first index of the second and of the third level */
	double level[3];   /* the levels' means */
	double rss;        /* residual sum of squares */
};

/*
 * The two breaks (each level at least `min_seg` points) that fit three
 * flat levels to y best. 0, or -1 when n < 3 min_seg or min_seg < 1.
 */
int trend_stairs_fit(const double *y, size_t n, size_t min_seg, struct trend_stairs *out);

#endif
