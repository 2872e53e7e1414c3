#include "report/json_stream.h"

#include <stdlib.h>
#include <string.h>

#include "report/jsontext.h"
#include "util/strbuf.h"

/* Write s with `indent` spaces after every newline (JSON strings hold none raw). */
static void
write_indented(FILE *out, const char *s, size_t indent)
{
	for (const char *nl; (nl = strchr(s, '\n')) != NULL; s = nl + 1) {
		fwrite(s, 1, (size_t)(nl + 1 - s), out);
		for (size_t k = 0; k < indent; k++)
			fputc(' ', out);
	}
	fputs(s, out);
}

static int
write_elements(FILE *out, size_t n, json_stream_element_fn element, void *ctx,
	       struct diag *err)
{
	for (size_t i = 0; i < n; i++) {
		json_t *e = element(ctx, i, err);
		if (!e)
			return -1;
		char *text = json_dumps(e, JSON_DOCUMENT_FLAGS | JSON_ENCODE_ANY);
		json_decref(e);
		if (!text)
			return diag_set(err, DIAG_SOFTWARE, NULL, 0, 0,
					"cannot encode a JSON element");
		/* jansson's layout of a depth-1 array: "[\n    e,\n    e\n  ]". */
		fputs(i ? ",\n    " : "\n    ", out);
		write_indented(out, text, 4);
		free(text);
	}
	if (n)
		fputs("\n  ", out);
	return 0;
}

/* text with the n elements where its member `key` holds an empty array. */
static int
write_around(FILE *out, const char *text, const char *key, size_t n,
	     json_stream_element_fn element, void *ctx, struct diag *err)
{
	struct strbuf marker = STRBUF_INIT;
	/* Quotes inside strings are escaped, so this text only stands as the member. */
	strbuf_addf(&marker, "\n  \"%s\": []", key);
	const char *at = strstr(text, marker.buf);
	int rc = 0;
	if (!at) {
		rc = diag_set(err, DIAG_SOFTWARE, NULL, 0, 0,
			      "JSON member '%s' is not an empty array of the root", key);
	} else {
		size_t open = (size_t)(at - text) + marker.len - 1;   /* just past '[' */
		fwrite(text, 1, open, out);
		rc = write_elements(out, n, element, ctx, err);
		if (rc == 0)
			fputs(text + open, out);
	}
	strbuf_release(&marker);
	return rc;
}

int
json_document_write_streamed(FILE *out, json_t *root, const char *key, size_t n,
			     json_stream_element_fn element, void *ctx, struct diag *err)
{
	char *text = json_dumps(root, JSON_DOCUMENT_FLAGS);
	json_decref(root);
	if (!text)
		return diag_set(err, DIAG_SOFTWARE, NULL, 0, 0, "cannot encode the JSON document");
	int rc = write_around(out, text, key, n, element, ctx, err);
	free(text);
	if (rc == 0 && (fputc('\n', out) == EOF || ferror(out)))
		rc = diag_set(err, DIAG_IOERR, NULL, 0, 0, "cannot write JSON output");
	return rc;
}
