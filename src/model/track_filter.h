#ifndef IOTALLY_MODEL_TRACK_FILTER_H
#define IOTALLY_MODEL_TRACK_FILTER_H

/*
 * The offline filters of `iotally track`: --site and --ignore (substrings
 * of a record's text in ioclasscount's layout), --min-bytes, and NAME
 * operands (the categories to keep, or with --exclude to drop).
 *
 * The filter owns copies of its strings; track_filter_release frees them.
 * Deciding is a pure function of the filter and one record.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/track_record.h"

struct track_filter {
	char **sites, **ignores, **names;
	size_t nsites, nignores, nnames;
	bool exclude;          /* NAME operands name what to drop */
	uint64_t min_bytes;
};

void track_filter_init(struct track_filter *f);
void track_filter_release(struct track_filter *f);
/* Append a copy of s to one of the filter's lists (sites, ignores or names). */
void track_filter_add(char ***list, size_t *n, const char *s);

/* The filter reads a record's text (--site, --ignore). */
bool track_filter_reads_text(const struct track_filter *f);
/* The filter selects by category (NAME operands, --exclude). */
bool track_filter_by_category(const struct track_filter *f);

/*
 * Whether record r passes. `text` (n bytes) is its text from
 * track_record_format(), read only when track_filter_reads_text(); `queue`
 * is the capture's queue for its category (track_record_category()).
 */
bool track_filter_pass(const struct track_filter *f, const struct track_record *r,
		       const char *text, size_t n, const char *queue);

#endif
