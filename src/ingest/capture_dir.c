#include "ingest/capture_dir.h"
#include "bundle/manifest.h"

#include "util/strbuf.h"
#include "util/xalloc.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

bool
capture_dir_is_dir(const char *path)
{
	struct stat st;
	return strcmp(path, "-") != 0 && stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static int
name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int
capture_dir_list(const char *dir, struct capture_dir *out, struct diag *err)
{
	size_t alloc = 0, dirs_alloc = 0;
	struct dirent *e;
	memset(out, 0, sizeof(*out));
	DIR *d = opendir(dir);
	if (!d)
		return diag_set(err, DIAG_NOINPUT, dir, 0, 0, "cannot be read: %s",
				strerror(errno));
	while ((e = readdir(d))) {
		struct stat st;
		if (e->d_name[0] == '.' || strcmp(e->d_name, BUNDLE_MANIFEST) == 0)
			continue;
		char *full = strbuf_path_join(dir, e->d_name);
		int rc = stat(full, &st);
		free(full);
		if (rc == 0 && S_ISDIR(st.st_mode)) {
			out->subdirs = xgrow(out->subdirs, &dirs_alloc, out->nskipped_dirs + 1,
					     sizeof(*out->subdirs));
			out->subdirs[out->nskipped_dirs++] = xstrdup(e->d_name);
			continue;
		}
		/* Unreadable entries are listed: opening them says why. */
		out->names = xgrow(out->names, &alloc, out->n + 1, sizeof(*out->names));
		out->names[out->n++] = xstrdup(e->d_name);
	}
	closedir(d);
	if (out->n)
		qsort(out->names, out->n, sizeof(*out->names), name_cmp);
	if (out->nskipped_dirs)
		qsort(out->subdirs, out->nskipped_dirs, sizeof(*out->subdirs), name_cmp);
	return 0;
}

void
capture_dir_release(struct capture_dir *d)
{
	for (size_t i = 0; i < d->n; i++)
		free(d->names[i]);
	free(d->names);
	for (size_t i = 0; i < d->nskipped_dirs; i++)
		free(d->subdirs[i]);
	free(d->subdirs);
	memset(d, 0, sizeof(*d));
}
