#include "model/track_filter.h"

#include "model/track_classify.h"
#include "util/view.h"
#include "util/xalloc.h"

#include <stdlib.h>
#include <string.h>

void
track_filter_init(struct track_filter *f)
{
	memset(f, 0, sizeof(*f));
}

static void
free_list(char **list, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(list[i]);
	free(list);
}

void
track_filter_release(struct track_filter *f)
{
	free_list(f->sites, f->nsites);
	free_list(f->ignores, f->nignores);
	free_list(f->names, f->nnames);
	track_filter_init(f);
}

void
track_filter_add(char ***list, size_t *n, const char *s)
{
	*list = xrealloc(*list, (*n + 1) * sizeof(**list));
	(*list)[(*n)++] = xstrdup(s);
}

bool
track_filter_reads_text(const struct track_filter *f)
{
	return f->nsites || f->nignores;
}

bool
track_filter_by_category(const struct track_filter *f)
{
	return f->nnames || f->exclude;
}

static bool
text_has_any(const char *text, size_t n, char *const *needles, size_t count)
{
	for (size_t i = 0; i < count; i++)
		if (view_find(text, n, needles[i]))
			return true;
	return false;
}

static bool
names_match(const struct track_filter *f, const char *cat, size_t n)
{
	for (size_t i = 0; i < f->nnames; i++)
		if (cat && strlen(f->names[i]) == n && memcmp(f->names[i], cat, n) == 0)
			return true;
	return false;
}

bool
track_filter_pass(const struct track_filter *f, const struct track_record *r,
		  const char *text, size_t n, const char *queue)
{
	if (r->bytes < f->min_bytes)
		return false;
	if (f->nsites && !text_has_any(text, n, f->sites, f->nsites))
		return false;
	if (f->nignores && text_has_any(text, n, f->ignores, f->nignores))
		return false;
	if (track_filter_by_category(f)) {
		size_t clen;
		const char *cat = track_record_category(r, queue, &clen);
		if (names_match(f, cat, clen) == f->exclude)
			return false;
	}
	return true;
}
