#ifndef IOTALLY_APP_LISTING_H
#define IOTALLY_APP_LISTING_H

/*
 * What the listings `iotally BUNDLE|SERIES|SESSION` say first: the
 * summary block's facts (model/summary.h), gathered as `iotally report`
 * gathers them, so a listing and the report's page lead with the same
 * lines. Nothing is printed here (report/bundle_listing_write.h writes).
 */

#include <stdbool.h>
#include <stddef.h>

#include "app/kind.h"
#include "model/report.h"
#include "util/diag.h"

struct bundle;
struct bundle_capture;

/* One capture of a bundle read into a report of its own. */
struct app_listing_capture {
	const struct kind *k;
	const struct bundle_capture *c;
	struct report r;
	bool read;
	struct diag_list notes;   /* what reading it noted */
	struct diag err;          /* why it could not be read (when !read) */
};

struct app_bundle_listing {
	struct app_listing_capture *caps;
	size_t n;
	int status;               /* the first unreadable capture's status, else 0 */
};

/* Read each capture of the bundle, in the registry's order of kinds. */
void app_bundle_listing_read(const struct bundle *b, struct app_bundle_listing *l);
/* The facts of every capture read, merged. */
void app_bundle_listing_facts(const struct app_bundle_listing *l, struct summary_facts *f);
void app_bundle_listing_release(struct app_bundle_listing *l);

struct listing_bundle;
/* The listing's view of a bundle: it borrows the bundle's strings. */
void app_listing_bundle_view(const struct bundle *b, struct listing_bundle *v);
void app_listing_bundle_view_release(struct listing_bundle *v);

struct session_index;
struct session_growth;
/*
 * A tracking session's facts: `report` of its before and after bundles
 * (the cost and what grew) and the classes and call sites tracking charged
 * (`g`). 0; -1 with *err when the bundles cannot be compared (the facts
 * then hold the session's growth alone).
 */
int app_session_summary(const struct session_index *si, const struct session_growth *g,
			struct summary_facts *f, struct diag_list *notes, struct diag *err);

/*
 * A series' facts: the verdict and rate of its trend (as `report SERIES`
 * ranks them) and its last sample's cost. 0; -1 with *err when no kind
 * can be followed (the facts then hold the cost alone).
 */
int app_series_summary(const struct bundle *series, unsigned jobs, struct summary_facts *f,
		       struct diag_list *notes, struct diag *err);

/*
 * The facts `iotally SERIES` leads with: a series of 3 samples or more,
 * its summary (app_series_summary(); when no kind can be followed, why is
 * a warning in `notes`); a shorter one still lists, its last sample's cost
 * alone.
 */
void app_series_listing_facts(const struct bundle *series, struct summary_facts *f,
			      struct diag_list *notes);

/*
 * The facts `iotally SESSION` leads with: app_session_summary() with the
 * session's growth `g` (NULL: it could not be read); a pair of bundles
 * that cannot be compared is a warning in `notes` (a session without both
 * has only its growth to say).
 */
void app_session_listing_facts(const struct session_index *si, const struct session_growth *g,
			       struct summary_facts *f, struct diag_list *notes);

#endif
