#ifndef IOTALLY_REPORT_VMMAP_HIST_LINE_H
#define IOTALLY_REPORT_VMMAP_HIST_LINE_H

/*
 * One row of the text report's histogram of a region type, formatted by
 * hand into a buffer: a dump of log-uniform sizes prints tens of thousands
 * of rows, and a printf per row (its format parsed, seven conversions,
 * stdio's padding) was a fifth of `iotally vmmap`'s time on such a dump.
 * The bytes are those of
 *
 *   "%8.1f KB | %4llu entries (N:%4llu V:%4llu E:%4llu -:%4llu) | %7.2f MB | "
 *
 * with vsize / 1024 and vsize * count / 2^20 as doubles, then `bar` stars
 * and a newline.
 */

#include <stddef.h>

#include "model/vmmap.h"

/* Room for any row: five 20-digit counts, two figures of at most 40 bytes, the bar. */
#define VMMAP_HIST_LINE_MAX 512
/* The widest bar the report draws. */
#define VMMAP_HIST_BAR_MAX 40

/* Writes the row of bucket b with a bar of `bar` stars (at most VMMAP_HIST_BAR_MAX); its length. */
size_t vmmap_hist_line(char out[VMMAP_HIST_LINE_MAX], const struct vmmap_hist_bucket *b,
		       unsigned bar);

#endif
