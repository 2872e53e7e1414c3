#ifndef IOTALLY_INGEST_IOREG_TEXT_H
#define IOTALLY_INGEST_IOREG_TEXT_H

/*
 * `ioreg -l` text: finds every `"IOKitDiagnostics" = {...}` property line
 * (any indent style, any plane, -x hex numbers, keys in any order) and
 * scans its value with a real scanner; with -i, collects the class chains
 * of entry headers (`<class IORegistryEntry:IOService:IOPCIDevice, ...>`).
 */

#include <stddef.h>
#include <stdint.h>

#include "ingest/classes_common.h"
#include "model/classes.h"
#include "model/hierarchy.h"
#include "util/diag.h"
#include "util/linereader.h"

int ioreg_text_read(struct line_reader *r, struct classes_capture *cap,
		    struct hierarchy *h, const struct classes_read_opts *opts,
		    struct diag_list *warnings, struct diag *err);

/*
 * Scan one IOKitDiagnostics value: `p` points at its '{', `n` bytes to the
 * end of the line; `col` is the 1-based column of `p` for messages. Fills
 * `s`. 0, or -1 with *err (*truncated tells a value cut short from one
 * that is malformed).
 */
int ioreg_text_scan_diagnostics(const char *p, size_t n, struct classes_snapshot *s,
				const char *path, uint64_t line, uint64_t col,
				bool *truncated, struct diag *err);

#endif
