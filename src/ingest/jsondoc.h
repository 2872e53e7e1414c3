#ifndef IOTALLY_INGEST_JSONDOC_H
#define IOTALLY_INGEST_JSONDOC_H

/*
 * Reading iotally's own JSON reports back (jansson). A document is loaded
 * whole (reports are small: aggregates, not captures); members are read
 * through checked accessors that name the member that is missing or of the
 * wrong type, so a hand-edited or foreign document is a clear error (65),
 * never a guess.
 */

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/diag.h"
#include "util/linereader.h"

/* Load the rest of the input as one JSON document. 0, or -1 with DIAG_DATA. */
int json_doc_load(struct line_reader *r, json_t **root, struct diag *err);

/* The document's "schema" value ("iotally.vmmap/1"), or NULL. */
const char *json_doc_schema(const json_t *root);
/* json_doc_load(), then a DIAG_DATA error unless "schema" is `schema`. */
int json_doc_load_schema(struct line_reader *r, const char *schema, json_t **root,
			 struct diag *err);

/*
 * Accessors: `where` names the object for messages ("dumps[0]"). Each
 * returns 0, or -1 with a DIAG_DATA *err about `path`.
 */
int json_doc_u64(const json_t *obj, const char *key, const char *path, const char *where,
		 uint64_t *out, struct diag *err);
int json_doc_i64(const json_t *obj, const char *key, const char *path, const char *where,
		 int64_t *out, struct diag *err);
/* A string, or NULL when the member is null and `nullable`. */
int json_doc_str(const json_t *obj, const char *key, const char *path, const char *where,
		 bool nullable, const char **out, size_t *len, struct diag *err);
/* "0x1f" text of a hex number; null gives *present = false. */
int json_doc_hex(const json_t *obj, const char *key, const char *path, const char *where,
		 uint64_t *out, bool *present, struct diag *err);
int json_doc_array(const json_t *obj, const char *key, const char *path, const char *where,
		   json_t **out, struct diag *err);
int json_doc_object(const json_t *obj, const char *key, const char *path, const char *where,
		    bool nullable, json_t **out, struct diag *err);

#endif
