#include "model/track.h"

#include "util/xalloc.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

void
track_capture_init(struct track_capture *cap)
{
	memset(cap, 0, sizeof(*cap));
	track_filter_init(&cap->filter);
	track_listing_init(&cap->listing);
	track_grouping_init(&cap->grouping);
}

void
track_capture_release(struct track_capture *cap)
{
	track_filter_release(&cap->filter);
	free(cap->command);
	free(cap->queue);
	for (size_t i = 0; i < cap->nimages; i++) {
		free(cap->images[i].name);
		free(cap->images[i].uuid);
		free(cap->images[i].path);
	}
	free(cap->images);
	track_listing_release(&cap->listing);
	track_grouping_release(&cap->grouping);
	track_capture_init(cap);
}

void
track_capture_set_command(struct track_capture *cap, const char *text, size_t n,
			  enum track_kind kind, bool site_filtered,
			  const char *queue, size_t queue_len)
{
	free(cap->command);
	free(cap->queue);
	cap->command = xmemdup0(text, n);
	cap->kind = kind;
	cap->site_filtered = site_filtered;
	cap->queue = queue ? xmemdup0(queue, queue_len) : NULL;
}

void
track_capture_add_image(struct track_capture *cap, const struct track_image *img)
{
	cap->images = xgrow(cap->images, &cap->images_alloc, cap->nimages + 1,
			    sizeof(*cap->images));
	cap->images[cap->nimages++] = *img;
}

/* Count every parsed record, before filters. */
static void
count_parsed(struct track_capture *cap, const struct track_record *r)
{
	size_t n;
	cap->nrecords++;
	bytes_add_capped(&cap->records_sum, r->bytes, &cap->sum_overflow);
	/* Only NAME filters report how many records had no category. */
	if (track_filter_by_category(&cap->filter) &&
	    !track_record_category(r, cap->queue, &n))
		cap->uncategorised++;
}

/*
 * Hide r when a suppression matches its text: 1 (counted apart), 0 (no
 * pattern matches), -1 with *err when a sum passes BYTES_MAX.
 */
static int
suppress_record(struct track_capture *cap, const struct track_record *r,
		const struct strbuf *text, const char *path, struct diag *err)
{
	struct suppress_pattern *pat = suppress_list_match(cap->suppress, text->buf, text->len);
	if (!pat)
		return 0;
	if (track_record_add_bytes(r, &cap->suppressed_bytes, "sum of the suppressed records",
				   path, err) < 0 ||
	    track_record_add_bytes(r, &pat->bytes, "sum of a suppression's records",
				   path, err) < 0)
		return -1;
	pat->records++;
	cap->suppressed_records++;
	return 1;
}

/* A shown record: summed, grouped, passed on and kept for the listing. */
static int
show_record(struct track_capture *cap, const struct track_record *r, const char *path,
	    struct diag *err)
{
	if (track_record_add_bytes(r, &cap->shown_bytes, "sum of the shown records",
				   path, err) < 0)
		return -1;
	cap->shown_records++;
	if (track_grouping_add(&cap->grouping, cap->by, r, cap->queue, path, err) < 0)
		return -1;
	if (cap->on_record && cap->on_record(cap->on_record_ctx, r, path, err) < 0)
		return -1;
	if (cap->keep_records)
		return track_listing_add(&cap->listing, cap->top, r, err);
	return 0;
}

int
track_capture_add_record(struct track_capture *cap, const struct track_record *r,
			 const char *path, struct diag *err)
{
	struct strbuf text = STRBUF_INIT;
	bool suppressing = cap->suppress && cap->suppress->len;
	int rc = 0;

	count_parsed(cap, r);
	if (track_filter_reads_text(&cap->filter) || suppressing)
		track_record_format(r, cap->layout, &text);
	if (!track_filter_pass(&cap->filter, r, text.buf, text.len, cap->queue))
		goto out;
	if (suppressing && (rc = suppress_record(cap, r, &text, path, err)) != 0)
		goto out;
	rc = show_record(cap, r, path, err);
out:
	strbuf_release(&text);
	return rc < 0 ? -1 : 0;
}

void
track_capture_sort_kept(struct track_capture *cap)
{
	track_listing_sort(&cap->listing, cap->top);
}

uint64_t
track_capture_total(const struct track_capture *cap)
{
	if (cap->has_capture_total)
		return cap->capture_total;
	if (cap->has_total)
		return cap->total;
	return cap->records_sum;
}

void
track_capture_check_total(const struct track_capture *cap, const char *path,
			  struct diag_list *warnings)
{
	if (!cap->has_total || cap->partial)
		return;
	if (cap->sum_overflow || cap->records_sum > cap->total)
		diag_list_add(warnings, DIAG_WARNING, path, 0,
			      "the records add up to 0x%" PRIx64 " bytes, more than the capture's "
			      "total 0x%" PRIx64 " (an edited or mixed capture?)",
			      cap->records_sum, cap->total);
	else if (cap->records_sum < cap->total && !cap->site_filtered)
		diag_list_add(warnings, DIAG_WARNING, path, 0,
			      "the records add up to 0x%" PRIx64 " bytes, less than the capture's "
			      "total 0x%" PRIx64 " (records are missing, or the capture was made "
			      "with --site/--ignore)", cap->records_sum, cap->total);
}

const char *
track_kind_name(enum track_kind k)
{
	switch (k) {
	case TRACK_KIND_TRACK:
		return "track";
	case TRACK_KIND_LEAKS:
		return "leaks";
	case TRACK_KIND_MAPS:
		return "maps";
	case TRACK_KIND_UNKNOWN:
	default:
		return NULL;
	}
}
