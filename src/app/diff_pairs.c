#include "app/diff_pairs.h"

#include "app/kind.h"

#include "ingest/bundle.h"
#include "ingest/capture_dir.h"
#include "util/arcread.h"
#include "util/linereader.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static struct diff_pair *
add_pair(struct diff_pairs *p, size_t *alloc, const char *name, char *before, char *after)
{
	p->pairs = xgrow(p->pairs, alloc, p->npairs + 1, sizeof(*p->pairs));
	struct diff_pair *pair = &p->pairs[p->npairs++];
	memset(pair, 0, sizeof(*pair));
	pair->name = name ? xstrdup(name) : NULL;
	pair->before = before;
	pair->after = after;
	return pair;
}

static void
add_unpaired(struct diff_pairs *p, size_t *alloc, char *path, bool in_before)
{
	p->unpaired = xgrow(p->unpaired, alloc, p->nunpaired + 1, sizeof(*p->unpaired));
	p->unpaired[p->nunpaired].path = path;
	p->unpaired[p->nunpaired].in_before = in_before;
	p->nunpaired++;
}

/* A capture to pair: its name (inside the folder or bundle) and the path to open. */
struct named {
	const char *name;
	char *path;        /* owned */
	/* A bundle's kernel view reference: the pair's name (owned, NULL: `name`),
	 * and the side's source of allocation totals to join (or NULL). */
	char *label;
	const struct bundle_capture *counts, *totals;
};

/* Walk both lists, sorted by name, together; the paths move into p. */
static void
pair_lists(struct diff_pairs *p, struct named *b, size_t nb, struct named *a, size_t na)
{
	size_t i = 0, j = 0, palloc = 0, ualloc = 0;
	while (i < nb || j < na) {
		int c = i == nb ? 1 : j == na ? -1 : strcmp(b[i].name, a[j].name);
		if (c == 0) {
			struct diff_pair *pair = add_pair(p, &palloc, b[i].label ? b[i].label
							  : b[i].name, b[i].path, a[j].path);
			if (b[i].counts && a[j].counts) {
				pair->counts[0] = b[i].counts;
				pair->counts[1] = a[j].counts;
				pair->totals[0] = b[i].totals;
				pair->totals[1] = a[j].totals;
			}
			i++;
			j++;
		} else if (c < 0) {
			add_unpaired(p, &ualloc, b[i++].path, true);
		} else {
			add_unpaired(p, &ualloc, a[j++].path, false);
		}
	}
}

static struct named *
dir_named(const char *dir, const struct capture_dir *d)
{
	struct named *v = xcalloc(d->n ? d->n : 1, sizeof(*v));
	for (size_t i = 0; i < d->n; i++)
		v[i] = (struct named){ d->names[i], strbuf_path_join(dir, d->names[i]), NULL, NULL,
				       NULL };
	return v;
}

/* By name; of one name, the kernel view's reference first (it pairs with the other's). */
static int
named_cmp(const void *x, const void *y)
{
	const struct named *a = x, *b = y;
	int c = strcmp(a->name, b->name);
	return c ? c : (b->counts != NULL) - (a->counts != NULL);
}

/*
 * The bundle's captures to pair, but the kernel sources its reference
 * covers and a source of totals joined to the reference (`totals` when it
 * is not the reference); how many in *n. The reference pairs under the
 * name `key` (the before bundle's reference's, so that the two references
 * pair whatever their names), labelled `label` when given.
 */
static struct named *
bundle_named(const struct bundle *b, const struct kernel_view *kv,
	     const struct bundle_capture *totals, const char *key, const char *label, size_t *n)
{
	struct named *v = xcalloc(b->ncaptures ? b->ncaptures : 1, sizeof(*v));
	*n = 0;
	for (size_t i = 0; i < b->ncaptures; i++) {
		const struct bundle_capture *c = &b->captures[i];
		if (kernel_view_covers(kv, c) || (totals && c == totals && c != kv->reference))
			continue;
		struct named *e = &v[(*n)++];
		*e = (struct named){ c->member, xstrdup(c->path), NULL, NULL, NULL };
		if (key && c == kv->reference) {
			e->name = key;
			e->label = label ? xstrdup(label) : NULL;
			e->counts = c;
			e->totals = totals;
		}
	}
	if (*n)
		qsort(v, *n, sizeof(*v), named_cmp);
	return v;
}

static void
named_free(struct named *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i].label);
	free(v);
}

/* A bundle, or a tar archive (opening it says what is wrong when it is not one). */
static bool
is_bundle(const char *path, bool dir)
{
	return bundle_path_is_bundle(path) || (!dir && strcmp(path, "-") != 0 &&
					       arc_is_tar_file(path));
}

/* A file that starts like gzip but is no tar archive: a bundle archive cut short? */
static bool
damaged_archive(const char *path)
{
	unsigned char magic[2];
	FILE *fp = strcmp(path, "-") != 0 ? fopen(path, "rb") : NULL;
	bool gz = fp && fread(magic, 1, 2, fp) == 2 && arc_is_gzip(magic, 2);
	if (fp)
		fclose(fp);
	return gz;
}

/* Two bundles, folders or archives: paired capture by capture. */
/* Does a bundle hold a capture of this member name whose kind's row says GPU? */
static bool
gpu_member(const struct bundle *b, const char *name)
{
	for (size_t i = 0; name && i < b->ncaptures; i++) {
		if (strcmp(b->captures[i].member, name) != 0)
			continue;
		const struct kind *k = kind_by_name(b->captures[i].kind);
		return k && k->gpu;
	}
	return false;
}

/*
 * GPU memory first (docs/gpu.md, the summary block): the pairs of GPU
 * captures move ahead of the kernel's, each group in name order.
 */
static void
gpu_first(struct diff_pairs *p)
{
	size_t at = 0;
	for (size_t i = 0; i < p->npairs; i++) {
		if (!gpu_member(p->bundles[0], p->pairs[i].name) &&
		    !gpu_member(p->bundles[1], p->pairs[i].name))
			continue;
		struct diff_pair keep = p->pairs[i];
		memmove(&p->pairs[at + 1], &p->pairs[at], (i - at) * sizeof(keep));
		p->pairs[at++] = keep;
	}
}

static int
pair_bundles(struct diff_pairs *p, const char *before, const char *after, struct diag *err)
{
	const char *paths[2] = { before, after };
	for (int side = 0; side < 2; side++) {
		p->bundles[side] = xcalloc(1, sizeof(*p->bundles[side]));
		if (bundle_open(paths[side], p->bundles[side], err) < 0)
			return -1;
		const struct bundle *sb = p->bundles[side];
		if (sb->series && sb->nsamples >= 3)
			return diag_set(err, DIAG_USAGE, paths[side], 0, 0,
					"is a series of captures: compare two of its samples, e.g. "
					"'iotally diff %s %s' ('iotally %s' lists them; 'iotally "
					"report %s' reports the series)", sb->samples[0].path,
					sb->samples[sb->nsamples - 1].path, paths[side], paths[side]);
		if (sb->series && sb->nsamples == 2)
			return diag_set(err, DIAG_USAGE, paths[side], 0, 0,
					"is a series of captures: compare its two samples, 'iotally "
					"diff %s %s'", sb->samples[0].path, sb->samples[1].path);
		if (sb->series)
			return diag_set(err, DIAG_USAGE, paths[side], 0, 0,
					"is a series of captures: compare two of its samples ('iotally "
					"%s' lists them)", paths[side]);
	}
	p->folders = true;
	size_t nb, na;
	kernel_view_pick(p->bundles[0], &p->kernel[0]);
	kernel_view_pick(p->bundles[1], &p->kernel[1]);
	/* The kernel view is one pair: the two references, whatever their names. */
	const struct bundle_capture *ref[2] = { p->kernel[0].reference, p->kernel[1].reference };
	const struct bundle_capture *totals[2] = { NULL, NULL };
	const char *key = NULL;
	struct strbuf label = STRBUF_INIT;
	if (ref[0] && ref[1]) {
		kernel_view_pair_totals(p->kernel, totals);
		key = ref[0]->member;
		if (strcmp(ref[0]->member, ref[1]->member) != 0)
			strbuf_addf(&label, "%s -> %s", ref[0]->member, ref[1]->member);
	}
	const char *lb = label.len ? label.buf : NULL;
	struct named *b = bundle_named(p->bundles[0], &p->kernel[0], totals[0], key, lb, &nb);
	struct named *a = bundle_named(p->bundles[1], &p->kernel[1], totals[1], key, lb, &na);
	pair_lists(p, b, nb, a, na);
	named_free(b, nb);
	named_free(a, na);
	strbuf_release(&label);
	gpu_first(p);
	return 0;
}

/*
 * A path that names nothing (a folder a CI job did not download) is a
 * missing input, 66, not a folder given beside a file: true with *err set.
 */
static bool
missing_input(const char *path, struct diag *err)
{
	struct stat st;
	if (strcmp(path, "-") == 0 || stat(path, &st) == 0)
		return false;
	diag_set(err, DIAG_NOINPUT, path, 0, 0, "cannot open input: %s", strerror(errno));
	return true;
}

int
diff_pairs_build(struct diff_pairs *p, const char *before, const char *after,
		 struct diag *err)
{
	bool bdir = capture_dir_is_dir(before), adir = capture_dir_is_dir(after);
	bool bbundle = is_bundle(before, bdir), abundle = is_bundle(after, adir);
	struct capture_dir b, a;
	size_t alloc = 0;
	memset(p, 0, sizeof(*p));
	if (bbundle && abundle)
		return pair_bundles(p, before, after, err);
	if ((bbundle || abundle) && damaged_archive(bbundle ? after : before))
		return diag_set(err, DIAG_DATA, bbundle ? after : before, 0, 0,
				"is not a capture bundle (gzip that holds no readable tar archive: "
				"a capture, or a bundle archive cut short or damaged), so it "
				"cannot be compared with the bundle %s",
				bbundle ? before : after);
	if (bbundle || abundle)
		return diag_set(err, DIAG_USAGE, NULL, 0, 0,
				"%s is a capture bundle and %s is not: compare a bundle with a "
				"bundle (or the capture files themselves)",
				bbundle ? "BEFORE" : "AFTER", bbundle ? "AFTER" : "BEFORE");
	if (!bdir && !adir) {
		add_pair(p, &alloc, NULL, xstrdup(before), xstrdup(after));
		return 0;
	}
	if (bdir != adir && missing_input(bdir ? after : before, err))
		return -1;
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
	struct named *nb = dir_named(before, &b), *na = dir_named(after, &a);
	pair_lists(p, nb, b.n, na, a.n);
	named_free(nb, b.n);
	named_free(na, a.n);
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
	for (int side = 0; side < 2; side++) {
		kernel_view_release(&p->kernel[side]);
		if (!p->bundles[side])
			continue;
		bundle_release(p->bundles[side]);
		free(p->bundles[side]);
		line_reader_unmap_all();
	}
	memset(p, 0, sizeof(*p));
}
