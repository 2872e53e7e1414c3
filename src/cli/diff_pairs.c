#include "cli/diff_pairs.h"

#include "ingest/bundle.h"
#include "ingest/capture_dir.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#include <stdlib.h>
#include <string.h>

static char *
join(const char *dir, const char *name)
{
	struct strbuf sb = STRBUF_INIT;
	size_t n = strlen(dir);
	while (n > 1 && dir[n - 1] == '/')
		n--;
	strbuf_addf(&sb, "%.*s/%s", (int)n, dir, name);
	return strbuf_detach(&sb, NULL);
}

static void
add_pair(struct diff_pairs *p, size_t *alloc, const char *name, char *before, char *after)
{
	p->pairs = xgrow(p->pairs, alloc, p->npairs + 1, sizeof(*p->pairs));
	p->pairs[p->npairs].name = name ? xstrdup(name) : NULL;
	p->pairs[p->npairs].before = before;
	p->pairs[p->npairs].after = after;
	p->npairs++;
}

static void
add_unpaired(struct diff_pairs *p, size_t *alloc, char *path, bool in_before)
{
	p->unpaired = xgrow(p->unpaired, alloc, p->nunpaired + 1, sizeof(*p->unpaired));
	p->unpaired[p->nunpaired].path = path;
	p->unpaired[p->nunpaired].in_before = in_before;
	p->nunpaired++;
}

/* Walk both sorted name lists together. */
static void
pair_lists(struct diff_pairs *p, const char *bdir, const struct capture_dir *b,
	   const char *adir, const struct capture_dir *a)
{
	size_t i = 0, j = 0, palloc = 0, ualloc = 0;
	while (i < b->n || j < a->n) {
		int c = i == b->n ? 1 : j == a->n ? -1 : strcmp(b->names[i], a->names[j]);
		if (c == 0) {
			add_pair(p, &palloc, b->names[i], join(bdir, b->names[i]),
				 join(adir, a->names[j]));
			i++;
			j++;
		} else if (c < 0) {
			add_unpaired(p, &ualloc, join(bdir, b->names[i++]), true);
		} else {
			add_unpaired(p, &ualloc, join(adir, a->names[j++]), false);
		}
	}
}

int
diff_pairs_build(struct diff_pairs *p, const char *before, const char *after,
		 struct diag *err)
{
	bool bdir = capture_dir_is_dir(before), adir = capture_dir_is_dir(after);
	struct capture_dir b, a;
	size_t alloc = 0;
	memset(p, 0, sizeof(*p));
	for (int side = 0; side < 2 && !bdir && !adir; side++) {
		const char *path = side ? after : before;
		if (bundle_path_is_bundle(path))
			return diag_set(err, DIAG_USAGE, path, 0, 0,
					"is a bundle archive: unpack it (tar -xzf) and compare the "
					"bundle folders");
	}
	if (!bdir && !adir) {
		add_pair(p, &alloc, NULL, xstrdup(before), xstrdup(after));
		return 0;
	}
	if (bdir != adir)
		return diag_set(err, DIAG_USAGE, NULL, 0, 0,
				"%s is a folder and %s is not: compare a file with a file, or a "
				"folder of captures with a folder", bdir ? "BEFORE" : "AFTER",
				bdir ? "AFTER" : "BEFORE");
	p->folders = true;
	if (capture_dir_list(before, &b, err) < 0)
		return -1;
	if (capture_dir_list(after, &a, err) < 0) {
		capture_dir_release(&b);
		return -1;
	}
	pair_lists(p, before, &b, after, &a);
	p->nskipped_dirs = b.nskipped_dirs + a.nskipped_dirs;
	capture_dir_release(&b);
	capture_dir_release(&a);
	return 0;
}

void
diff_pairs_release(struct diff_pairs *p)
{
	for (size_t i = 0; i < p->npairs; i++) {
		free(p->pairs[i].name);
		free(p->pairs[i].before);
		free(p->pairs[i].after);
	}
	for (size_t i = 0; i < p->nunpaired; i++)
		free(p->unpaired[i].path);
	free(p->pairs);
	free(p->unpaired);
	memset(p, 0, sizeof(*p));
}
