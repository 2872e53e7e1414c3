#ifndef IOTALLY_APP_REPORT_INPUTS_H
#define IOTALLY_APP_REPORT_INPUTS_H

/*
 * `iotally report` around its readers: which shape its operands make (one
 * capture, a pair, one bundle, two bundles, a series), the report of one
 * bundle (every capture it holds, in registry order), what a bundle's
 * manifest says about its capture (the provenance of `report BUNDLE` and
 * of each side of `report BEFORE AFTER`), what a tracking session adds to
 * the report of its two bundles, and the notes every shape lists among
 * its warnings. A pair of bundles is app/report_bundles.h's; a series is
 * app/report_series.h's.
 *
 * Nothing here prints: notes go to a diag_list, errors to *err.
 */

#include <stdbool.h>
#include <stddef.h>

#include "app/kind.h"
#include "app/pair_open.h"
#include "ingest/bundle.h"
#include "util/diag.h"

struct diff_gate;
struct report;
struct report_bundles;
struct strbuf;

enum report_shape {
	REPORT_SHAPE_CAPTURE,       /* one capture: the kind's single_report */
	REPORT_SHAPE_PAIR,          /* two captures of one kind */
	REPORT_SHAPE_BUNDLE,        /* one bundle (a series bundle is found when opened) */
	REPORT_SHAPE_BUNDLES,       /* two bundles */
	REPORT_SHAPE_SERIES,        /* three inputs or more */
};

/*
 * What the operands paths[0..n) as given may not be, `ngates` the
 * --fail-if gates given: 0; -1 with DIAG_USAGE for no operand, standard
 * input twice or in a series, gates without a pair.
 */
int report_operands_check(const char *const *paths, size_t n, size_t ngates, struct diag *err);

/*
 * The shape of the operands paths[0..n) (n >= 1, a session already routed
 * to its two bundles; "-" is standard input, never a bundle). 0; -1 with
 * DIAG_USAGE naming the bundle when one of two operands is a bundle and
 * the other is not.
 */
int report_shape_of(const char *const *paths, size_t n, enum report_shape *shape,
		    struct diag *err);

/*
 * The before/after report of a pair opened and compared by
 * pair_open_compare() (from paths[0] and paths[1]): the kind's sections,
 * its leak signature at the end of the headline and the gates (checked
 * here, kind_check_gates()). The comparability warnings go to `warnings`
 * (an empty list: each of its items becomes one of the report's warnings
 * too). 0; -1 with *err (a gate the kind cannot evaluate).
 */
int report_pair_build(struct report *r, const struct pair_open *p, const char *const paths[2],
		      struct diff_gate *gates, size_t ngates, struct diag_list *warnings,
		      struct diag *err);

/*
 * `iotally report BUNDLE` of the open bundle `b` (not a series): every
 * capture it holds through its kind's report (kind_report_capture()) and
 * the kind's bundle_report_more, then the manifest's provenance and the
 * notes as warnings (app_report_add_notes()). r is report_init()ed here
 * ("bundle", one capture): release it in either case. 0; -1 with *err
 * (DIAG_NOINPUT: no capture iotally reads).
 */
int bundle_report_build(struct report *r, const struct bundle *b, bool all,
			struct diag_list *notes, struct diag *err);

/*
 * What a manifest says about its capture, as provenance rows (target,
 * host, kernel, the captures read: `files`, the capture run, redaction,
 * steps and those skipped) and warnings (a step that failed or was denied,
 * a partial capture, redaction off).
 */
void bundle_report_provenance(struct report *r, const struct bundle *b, const char *files);

/*
 * "16: 14 ok, 1 denied, 1 skipped": how many steps, and each status in the
 * order it first appears, " (the capture is partial)" after; appended to
 * `sb`, whose text is returned.
 */
const char *bundle_report_steps(const struct bundle *b, struct strbuf *sb);

/*
 * `iotally report BEFORE_BUNDLE AFTER_BUNDLE` (or of a tracking session,
 * `session` its path, routed to its two bundles): the pair's report of
 * every kind both hold (report_bundles_open(), report_bundles_build();
 * release `rb` in either case), both manifests' provenance, the session's
 * part, then the warnings (those of the pair, then the notes). r is
 * report_init()ed here: release it in either case. Notes go to `notes`,
 * warnings about the pair to `warnings`, the session's to
 * `session_notes`. 0; -1 with *err.
 */
int bundle_report_pair(struct report *r, struct report_bundles *rb, const char *const paths[2],
		       bool all, struct diff_gate *gates, size_t ngates, const char *session,
		       struct diag_list *notes, struct diag_list *warnings,
		       struct diag_list *session_notes, struct diag *err);

/*
 * `iotally report SESSION`: how the tracking session at `path` ended (a
 * provenance row, a warning when tracking may still be on) and what
 * tracking charged to the classes that grew (app_session_growth()); what
 * could not be read is a note in `notes`, and among the report's warnings.
 * 0, or -1 with *err.
 */
int bundle_report_session(struct report *r, const char *path, struct diag_list *notes,
			  struct diag *err);

/* Each note of `w` as a warning of the report, "path:line: message", and how many were dropped. */
void app_report_add_notes(struct report *r, const struct diag_list *w);

#endif
