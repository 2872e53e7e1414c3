#ifndef IOTALLY_APP_DIFF_PAIRS_H
#define IOTALLY_APP_DIFF_PAIRS_H

/*
 * What `iotally diff BEFORE AFTER` compares: two files (one pair), or two
 * folders of captures paired by file name (ingest/capture_dir.h lists
 * them). A name on one side only is unpaired. Kinds are recognised when a
 * pair is opened, so two files of one name but different kinds are a
 * pair that fails to compare, said for that pair.
 *
 * Two capture bundles (folders or .tar.gz, ingest/bundle.h) pair capture
 * by capture: the files their manifests name, by their paths inside the
 * bundle. The bundles stay open in `bundles` (their captures are checked
 * against the manifests' sha256 before they are compared). A bundle's
 * kernel view is paired once (app/kernel_view.h): the sources its
 * reference covers (ioclasscount and ioalloccount beside the ioreg plist)
 * are left out of the pairs and named in `kernel`; the two references are
 * one pair even when one bundle lacks the plist, and a side's source of
 * allocation totals that is not its reference (ioalloccount) is joined to
 * that pair instead of paired by itself, as `report` of the bundles does.
 */

#include <stdbool.h>
#include <stddef.h>

#include "app/kernel_view.h"
#include "util/diag.h"

struct bundle;

struct diff_pair {
	char *name;             /* the file name within the folders; NULL for two files */
	char *before, *after;   /* owned paths */
	/*
	 * Bundles: the kernel view's pair (each side's reference, paired
	 * whatever their names: "kernel/ioreg-root.plist -> kernel/ioclasscount.txt"
	 * when they differ), and each side's source of allocation totals to
	 * join to it (kernel_view_pair_totals(); both NULL when the
	 * references' own totals are compared). Else all NULL.
	 */
	const struct bundle_capture *counts[2], *totals[2];
};

struct diff_unpaired {
	char *path;             /* owned */
	bool in_before;         /* else only in AFTER */
};

struct diff_pairs {
	bool folders;
	struct diff_pair *pairs;
	size_t npairs;
	struct diff_unpaired *unpaired;
	size_t nunpaired;
	size_t nskipped_dirs;   /* subdirectories, which are not read */
	struct bundle *bundles[2];   /* BEFORE and AFTER when both are bundles, else NULL */
	struct kernel_view kernel[2];   /* bundles: each one's kernel view, else empty */
};

/*
 * Pair BEFORE and AFTER. 0; -1 with DIAG_USAGE when one is a folder and
 * the other is not (or one is a bundle and the other is not, or a bundle
 * is a series), DIAG_NOINPUT when a folder cannot be read, DIAG_DATA when
 * a bundle's manifest cannot be read.
 */
int diff_pairs_build(struct diff_pairs *p, const char *before, const char *after,
		     struct diag *err);
void diff_pairs_release(struct diff_pairs *p);

#endif
