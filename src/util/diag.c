#include "util/diag.h"

#include "util/escape.h"
#include "util/xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void
copy_path(struct diag *d, const char *path)
{
	if (!path) {
		d->file[0] = '\0';
		return;
	}
	size_t n = strlen(path);
	if (n < sizeof(d->file)) {
		memcpy(d->file, path, n + 1);
		return;
	}
	memcpy(d->file, path, sizeof(d->file) - 4);
	memcpy(d->file + sizeof(d->file) - 4, "...", 4);
}

const char *
diag_path(const struct diag *d)
{
	return d->file[0] ? d->file : NULL;
}

void
diag_set_path(struct diag *d, const char *path)
{
	if (d)
		copy_path(d, path);
}

void
diag_set_path_if_unset(struct diag *d, const char *path)
{
	if (d && !d->file[0])
		copy_path(d, path);
}

static void
diag_vset(struct diag *d, int code, const char *path, uint64_t line,
	  uint64_t col, const char *fmt, va_list ap)
{
	d->code = code;
	d->severity = DIAG_ERROR;
	copy_path(d, path);
	d->line = line;
	d->col = col;
	vsnprintf(d->msg, sizeof(d->msg), fmt, ap);
}

int
diag_set(struct diag *d, int code, const char *path, uint64_t line,
	 uint64_t col, const char *fmt, ...)
{
	if (!d)
		return -1;
	va_list ap;
	va_start(ap, fmt);
	diag_vset(d, code, path, line, col, fmt, ap);
	va_end(ap);
	return -1;
}

void
diag_clear(struct diag *d)
{
	/* Field by field: the message and path buffers need only their first byte. */
	d->code = 0;
	d->severity = DIAG_ERROR;
	d->file[0] = '\0';
	d->line = 0;
	d->col = 0;
	d->msg[0] = '\0';
}

const char *
diag_display_path(const char *path)
{
	if (!path)
		return NULL;
	return strcmp(path, "-") == 0 ? "<stdin>" : path;
}

static const char *
severity_name(enum diag_severity sev)
{
	switch (sev) {
	case DIAG_WARNING:
		return "warning";
	case DIAG_NOTE:
		return "note";
	case DIAG_ERROR:
	default:
		return "error";
	}
}

void
diag_format_prefix(struct strbuf *out, enum diag_severity sev, const char *path,
		   uint64_t line, uint64_t col)
{
	strbuf_addstr(out, "iotally: ");
	if (path) {
		escape_addstr(out, diag_display_path(path));
		if (line) {
			strbuf_addf(out, ":%llu", (unsigned long long)line);
			if (col)
				strbuf_addf(out, ":%llu", (unsigned long long)col);
		}
		strbuf_addstr(out, ": ");
	}
	strbuf_addf(out, "%s: ", severity_name(sev));
}

void
diag_format(const struct diag *d, struct strbuf *out)
{
	diag_format_prefix(out, d->severity, diag_path(d), d->line, d->col);
	escape_addstr(out, d->msg);
	strbuf_addch(out, '\n');
}

void
diag_quote(struct strbuf *out, const char *p, size_t len, size_t max)
{
	escape_add_cut(out, p, len, max);
}

void
diag_list_init(struct diag_list *list, size_t limit)
{
	memset(list, 0, sizeof(*list));
	list->limit = limit;
}

void
diag_list_release(struct diag_list *list)
{
	free(list->items);
	diag_list_init(list, list->limit);
}

void
diag_list_vadd(struct diag_list *list, enum diag_severity sev,
	       const char *path, uint64_t line, const char *fmt, va_list ap)
{
	if (list->len >= list->limit) {
		list->dropped++;
		return;
	}
	list->items = xgrow(list->items, &list->alloc, list->len + 1,
			    sizeof(*list->items));
	struct diag *d = &list->items[list->len++];
	diag_vset(d, 0, path, line, 0, fmt, ap);
	d->severity = sev;
}

void
diag_list_append(struct diag_list *dst, const struct diag_list *src)
{
	for (size_t i = 0; i < src->len; i++) {
		if (dst->len >= dst->limit) {
			dst->dropped += src->len - i;
			break;
		}
		dst->items = xgrow(dst->items, &dst->alloc, dst->len + 1, sizeof(*dst->items));
		dst->items[dst->len++] = src->items[i];
	}
	dst->dropped += src->dropped;
}

void
diag_list_add(struct diag_list *list, enum diag_severity sev,
	      const char *path, uint64_t line, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	diag_list_vadd(list, sev, path, line, fmt, ap);
	va_end(ap);
}

void
diag_list_add_unparsed(struct diag_list *list, const char *path, uint64_t total,
		       uint64_t shown)
{
	if (total == 0)
		return;
	if (total > shown)
		diag_list_add(list, DIAG_WARNING, path, 0,
			      "%llu lines were not understood (the first %llu are shown above)",
			      (unsigned long long)total, (unsigned long long)shown);
	else
		diag_list_add(list, DIAG_WARNING, path, 0,
			      "%llu line%s not understood; the results leave %s out",
			      (unsigned long long)total, total == 1 ? " was" : "s were",
			      total == 1 ? "it" : "them");
}
