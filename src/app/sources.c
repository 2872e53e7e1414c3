/*
 * Sources of a command that reads captures: operands expanded (folders,
 * bundle archives in them), each opened and looked at in its turn.
 */

#include "app/sources.h"

#include "ingest/bundle.h"
#include "ingest/capture_dir.h"
#include "util/linereader.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void
app_sources_init(struct app_sources *s)
{
	memset(s, 0, sizeof(*s));
}

void
app_sources_release(struct app_sources *s)
{
	for (size_t i = 0; i < s->nowned; i++)
		free(s->owned[i]);
	free(s->owned);
	for (size_t i = 0; i < s->nbundles; i++) {
		bundle_release(s->bundles[i]);
		free(s->bundles[i]);
	}
	free(s->bundles);
	free(s->v);
	memset(s, 0, sizeof(*s));
}

bool
app_operand_is_folder(const char *path)
{
	return strcmp(path, "-") != 0 && capture_dir_is_dir(path);
}

static struct app_source *
add_source(struct app_sources *s, const char *path, bool in_folder)
{
	s->v = xgrow(s->v, &s->alloc, s->n + 1, sizeof(*s->v));
	struct app_source *src = &s->v[s->n++];
	memset(src, 0, sizeof(*src));
	src->path = path;
	src->in_folder = in_folder;
	src->reader.fd = -1;
	diag_clear(&src->error);
	return src;
}

static const char *
keep_path(struct app_sources *s, char *path)
{
	s->owned = xgrow(s->owned, &s->owned_alloc, s->nowned + 1, sizeof(*s->owned));
	s->owned[s->nowned++] = path;
	return path;
}

/* A bundle (archive or folder) in a folder: its capture of `kind`, or why there is none. */
static void
add_archive(struct app_sources *s, const char *kind, const char *path,
	    struct diag_list *warnings)
{
	struct bundle *b = xcalloc(1, sizeof(*b));
	struct diag err;
	if (bundle_open(path, b, &err) < 0) {
		bundle_release(b);
		free(b);
		struct app_source *src = add_source(s, path, true);
		src->failed_early = true;
		src->error = err;
		return;
	}
	s->bundles = xgrow(s->bundles, &s->bundles_alloc, s->nbundles + 1, sizeof(*s->bundles));
	s->bundles[s->nbundles++] = b;
	const struct bundle_capture *c = b->series ? NULL : bundle_capture_of_kind(b, kind);
	const struct bundle_step_note *m = b->series || c ? NULL : bundle_missed_of_kind(b, kind);
	if (!b->series && !c && (!m || strcmp(m->status, "skipped") == 0)) {
		/* Not captured by choice: like a capture of another kind, not an error. */
		s->nnot_captured++;
		return;
	}
	if (c && bundle_verify_capture(c, warnings, &err) == 0) {
		add_source(s, c->path, true);
		return;
	}
	struct app_source *src = add_source(s, path, true);
	src->failed_early = true;
	if (c)
		src->error = err;
	else if (b->series)
		diag_set(&src->error, DIAG_USAGE, path, 0, 0, "is a series of %zu samples: "
			 "name one of them (e.g. %s; 'iotally %s' lists them)", b->nsamples,
			 b->nsamples ? b->samples[0].path : path, path);
	else
		diag_set(&src->error, DIAG_NOINPUT, path, 0, 0, "the bundle holds no %s capture: "
			 "its step %s was %s%s%s", kind, m->step, m->status, m->reason ? ": " : "",
			 m->reason ? m->reason : "");
}

static const char *
folder_path(struct app_sources *s, const char *dir, const char *name)
{
	struct strbuf full = STRBUF_INIT;
	size_t len = strlen(dir);
	strbuf_addf(&full, "%s%s%s", dir, len && dir[len - 1] == '/' ? "" : "/", name);
	return keep_path(s, strbuf_detach(&full, NULL));
}

/*
 * A folder's files and its subfolders that are capture bundles, merged in
 * name order; other subfolders are not read (counted).
 */
static void
add_folder(struct app_sources *s, const char *kind, const char *dir,
	   struct diag_list *warnings)
{
	struct capture_dir d;
	struct diag err;
	size_t i = 0, j = 0, n = s->n;
	if (capture_dir_list(dir, &d, &err) < 0) {
		struct app_source *src = add_source(s, dir, false);
		src->failed_early = true;
		src->error = err;
		return;
	}
	while (i < d.n || j < d.nskipped_dirs) {
		bool file = j == d.nskipped_dirs ||
			    (i < d.n && strcmp(d.names[i], d.subdirs[j]) < 0);
		const char *path = folder_path(s, dir, file ? d.names[i++] : d.subdirs[j++]);
		size_t before = s->n;
		if (bundle_path_is_bundle(path))
			add_archive(s, kind, path, warnings);
		else if (file)
			add_source(s, path, true);
		else
			s->nskipped_dirs++;
		/* The name within the folder: what `diff` pairs by. */
		const char *name = strrchr(path, '/') + 1;
		for (size_t k = before; k < s->n; k++)
			s->v[k].pair = name;
	}
	if (s->n == n && d.n == 0) {
		struct app_source *src = add_source(s, dir, false);
		src->failed_early = true;
		diag_set(&src->error, DIAG_NOINPUT, dir, 0, 0, "the folder holds no capture "
			 "files%s", d.nskipped_dirs ? " (its subfolders are not read)" : "");
	}
	capture_dir_release(&d);
}

/*
 * Each source's operand, and its side once the operands are known: two
 * operands are a before and an after, as `iotally diff` takes them, so
 * their rows join in SQL without parsing paths.
 */
static void
name_sides(struct app_sources *s, size_t first)
{
	for (size_t i = first; i < s->n; i++)
		s->v[i].operand = s->noperands;
	s->noperands++;
	static const char *const sides[2] = { "before", "after" };
	for (size_t i = 0; i < s->n; i++)
		s->v[i].side = s->noperands == 2 ? sides[s->v[i].operand] : NULL;
}

void
app_sources_add_operand(struct app_sources *s, const char *kind, const char *operand,
			struct diag_list *warnings)
{
	size_t first = s->n;
	if (app_operand_is_folder(operand))
		add_folder(s, kind, operand, warnings);
	else
		add_source(s, operand, false);
	name_sides(s, first);
}

int
app_source_open(const char *command, size_t max_line, struct app_source *src,
		struct diag *err)
{
	if (line_reader_open(&src->reader, src->path, max_line, err) < 0)
		return -1;
	if (app_input_peek(&src->reader, &src->in, err) < 0)
		return -1;
	if (src->in.empty)
		return -1;
	const char *reader = app_command_for_kind(src->in.kind);
	if (src->in_folder && reader && strcmp(reader, command) != 0)
		return 1;
	return 0;
}

