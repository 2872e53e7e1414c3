#ifndef IOTALLY_REPORT_VMMAP_CSV_H
#define IOTALLY_REPORT_VMMAP_CSV_H

/*
 * The purgeability breakdown as RFC 4180 CSV: a header record, one record
 * per (dump, type, purge state), CRLF line ends, fields quoted when they
 * hold a comma, a quote or a line break. Byte counts are exact integers.
 */

#include <stdio.h>

#include "model/vmmap.h"

void vmmap_csv_write(FILE *out, const struct vmmap_capture *cap);

#endif
