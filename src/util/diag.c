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

char *
diag_line(const struct diag *d)
{
	struct strbuf sb = STRBUF_INIT;
	diag_format(d, &sb);
	while (sb.len && sb.buf[sb.len - 1] == '\n')
		sb.buf[--sb.len] = '\0';
	const char *prefix = "iotally: ";
	size_t skip = strncmp(sb.buf, prefix, strlen(prefix)) == 0 ? strlen(prefix) : 0;
	char *line = xstrdup(sb.buf + skip);
	strbuf_release(&sb);
	return line;
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
	strbuf_init(&list->text);
}

void
diag_list_release(struct diag_list *list)
{
	free(list->items);
	strbuf_release(&list->text);
	diag_list_init(list, list->limit);
}

/* `s` (with its NUL) at the end of the list's text: its offset. */
static size_t
text_add(struct diag_list *list, const char *s)
{
	size_t at = list->text.len;
	strbuf_add(&list->text, s, strlen(s) + 1);
	return at;
}

/* A new entry (the caller checked the limit), its strings copied into the text. */
static void
item_add(struct diag_list *list, enum diag_severity sev, const char *path,
	 uint64_t line, uint64_t col, const char *msg)
{
	list->items = xgrow(list->items, &list->alloc, list->len + 1, sizeof(*list->items));
	struct diag_item *it = &list->items[list->len++];
	it->severity = sev;
	it->line = line;
	it->col = col;
	it->path = path ? text_add(list, path) : SIZE_MAX;
	it->msg = text_add(list, msg);
}

void
diag_list_vadd(struct diag_list *list, enum diag_severity sev,
	       const char *path, uint64_t line, const char *fmt, va_list ap)
{
	if (list->len >= list->limit) {
		list->dropped++;
		return;
	}
	/* Formatted as a diag is, so an entry is cut where a diag would be;
	 * only the bytes written are touched on the stack. */
	struct diag d;
	diag_vset(&d, 0, path, line, 0, fmt, ap);
	item_add(list, sev, diag_path(&d), line, 0, d.msg);
}

void
diag_list_append(struct diag_list *dst, const struct diag_list *src)
{
	for (size_t i = 0; i < src->len; i++) {
		if (dst->len >= dst->limit) {
			dst->dropped += src->len - i;
			break;
		}
		const struct diag_item *it = &src->items[i];
		item_add(dst, it->severity, diag_list_path(src, i), it->line, it->col,
			 diag_list_msg(src, i));
	}
	dst->dropped += src->dropped;
}

const char *
diag_list_msg(const struct diag_list *list, size_t i)
{
	return list->text.buf + list->items[i].msg;
}

const char *
diag_list_path(const struct diag_list *list, size_t i)
{
	size_t at = list->items[i].path;
	return at == SIZE_MAX ? NULL : list->text.buf + at;
}

void
diag_list_get(const struct diag_list *list, size_t i, struct diag *out)
{
	const struct diag_item *it = &list->items[i];
	out->code = 0;
	out->severity = it->severity;
	diag_set_path(out, diag_list_path(list, i));
	out->line = it->line;
	out->col = it->col;
	/* Written through diag_vset(): shorter than DIAG_MSG_MAX. */
	const char *msg = diag_list_msg(list, i);
	memcpy(out->msg, msg, strlen(msg) + 1);
}

void
diag_list_set_path_if_unset(struct diag_list *list, const char *path)
{
	struct diag d;   /* cut as a diag cuts it */
	diag_set_path(&d, path);
	if (!diag_path(&d))
		return;
	size_t at = SIZE_MAX;
	for (size_t i = 0; i < list->len; i++) {
		if (list->items[i].path != SIZE_MAX)
			continue;
		if (at == SIZE_MAX)
			at = text_add(list, diag_path(&d));
		list->items[i].path = at;
	}
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
