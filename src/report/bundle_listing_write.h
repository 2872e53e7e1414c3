#ifndef IOTALLY_REPORT_BUNDLE_LISTING_WRITE_H
#define IOTALLY_REPORT_BUNDLE_LISTING_WRITE_H

/*
 * The listings `iotally BUNDLE`, `iotally SERIES` and `iotally SESSION`
 * print: the summary block first (model/summary.h), then what the bundle
 * holds, then each capture's headline and the commands that print the
 * full tables. Every name here comes from a manifest or a capture and is
 * escaped on the way out: no input byte reaches a terminal as a control
 * sequence.
 */

#include <stddef.h>
#include <stdio.h>

#include <stdbool.h>

struct report;
struct summary;

/* What a listing says of one bundle (app/listing.h builds it from the manifest). */
struct listing_step {
	const char *kind;    /* a capture's kind, or a missed step's (NULL: none) */
	const char *name;    /* a capture's member, or a missed step's step */
	const char *step;    /* a capture's step; a missed step's status */
	const char *reason;  /* a missed step's reason, or NULL */
};

struct listing_bundle {
	const char *path;
	bool complete;
	const char *target_name, *started_utc;   /* or NULL */
	struct listing_step *captures, *missed;
	size_t ncaptures, nmissed;
};

/* The block's lines, one a line, and a blank line after them (nothing when empty). */
void summary_block_write(FILE *out, const struct summary *s);

/* What a bundle holds: its state, target and start, each capture and each step missed. */
void bundle_listing_write(FILE *out, const struct listing_bundle *b, const char *indent);

/* One capture of a bundle read into a report of its own (NULL report: not read). */
struct bundle_headline {
	const char *kind;
	const char *member;
	const struct report *r;
};

/*
 * Each capture read: its kind, member and the verdict and warnings
 * `iotally report` gives it; then the command of each kind in `kinds`
 * (those the bundle holds) on the bundle's path, and `report` of all.
 */
void bundle_headlines_write(FILE *out, const char *path, const struct bundle_headline *h,
			    size_t n, const char *const *kinds, size_t nkinds);

#endif
