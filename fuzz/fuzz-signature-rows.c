/*
 * libFuzzer harness: NDJSON rows of signatures read back
 * (ingest/signature_rows_read.h), then bucketed. Checks what must hold for
 * any input: every record read under the current rule with a canonical text
 * has the id of that text, and the buckets account for every record.
 */

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ingest/signature_rows_read.h"
#include "model/signature_bucket.h"
#include "util/linereader.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct line_reader r;
	struct signature_record *recs = NULL;
	size_t n = 0, alloc = 0;
	struct diag err;
	line_reader_from_memory(&r, data, size, "fuzz", SIGNATURE_ROW_MAX);
	(void)signature_rows_read(&r, "fuzz", &recs, &n, &alloc, &err);
	line_reader_close(&r);
	for (size_t i = 0; i < n; i++) {
		char id[SIGNATURE_ID_SIZE];
		if (!recs[i].grew || !recs[i].canonical || strcmp(recs[i].rule, SIGNATURE_RULE) != 0)
			continue;
		signature_id_of(recs[i].canonical, id);
		if (strcmp(id, recs[i].id) != 0)
			abort();
	}
	struct signature_buckets b;
	signature_buckets_make(&b, recs, n);
	size_t in_buckets = 0;
	for (size_t i = 0; i < b.n; i++)
		in_buckets += b.b[i].count;
	if (in_buckets != b.grew || b.grew + b.no_growth + b.failed != n)
		abort();
	signature_buckets_release(&b);
	for (size_t i = 0; i < n; i++)
		signature_record_release(&recs[i]);
	free(recs);
	return 0;
}
