#ifndef IOTALLY_REPORT_FOOTPRINT_CSV_H
#define IOTALLY_REPORT_FOOTPRINT_CSV_H

/*
 * footprint categories as RFC 4180 CSV (CRLF line ends): one record per
 * process and shown category, then its TOTAL row; an empty cell is a
 * figure the capture does not have (never 0); `rounded` says a figure of
 * the record was printed rounded by footprint, `lower_bound` that rows
 * were elided. Text cells are neutralised as vmmap_csv.h says.
 */

#include <stdbool.h>
#include <stdio.h>

#include "model/footprint.h"

void footprint_csv_write(FILE *out, const struct footprint_capture *cap, bool all_categories);

#endif
