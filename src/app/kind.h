#ifndef IOTALLY_APP_KIND_H
#define IOTALLY_APP_KIND_H

/*
 * The kind registry: one row (struct kind) per kind of capture iotally
 * reads (vmmap, classes, track, footprint). A row says which inputs are the kind's
 * (the input kinds of ingest/detect.h, its JSON schema id, its bundle
 * captures), which options and gate metric prefixes it takes, and holds
 * the hooks every command goes through: diff (compare, comparability,
 * metrics, writers per format), report (one capture, a pair), trend (one
 * sample of a series). Each row lives in app/kind_<name>.c beside its
 * adapters, which bind the kind's ingest/, model/ and report/ modules;
 * app/kind.c lists the rows. `iotally FILE` dispatch, the refusal
 * sentences, bundle listings, trend --kind and the commands' loops derive
 * from the table, so a new kind is one row plus its own modules.
 */

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "bundle/capture_step.h"
#include "ingest/detect.h"
#include "model/report.h"
#include "util/diag.h"
#include "model/diff.h"
#include "util/linereader.h"

/* One input, opened and recognised. */
struct kind_input {
	const char *path;
	struct line_reader reader;
	bool json;                  /* iotally's JSON report of the kind */
};

/* The options that apply to some kinds only: a kind lists those it accepts. */
enum kind_option {
	KIND_ACCEPTS_DUMP = 1u << 0,
	KIND_ACCEPTS_DIRECT = 1u << 1,
	KIND_ACCEPTS_MATCH_OFFSETS = 1u << 2,
	KIND_ACCEPTS_FOLDED = 1u << 3,
};

#define KIND_MAX_RAW 4

struct report;
struct trend_input;
struct trend_sample;
struct bundle;
struct bundle_capture;
struct signature;
struct strbuf;
struct kind_command;
struct diff_section_files;
struct summary_growth;

struct kind {
	/*
	 * "vmmap": the command that reads the kind's captures, the value of
	 * capture_kind in a bundle's manifest, trend's --kind.
	 */
	const char *name;
	/* What input_detect() says of the kind's raw captures (INPUT_EMPTY ends). */
	enum input_kind raw[KIND_MAX_RAW];
	/*
	 * Inputs no loader of the kind reads, that its command still claims to
	 * say how to convert them (a binary property list); INPUT_EMPTY ends.
	 */
	enum input_kind refers[KIND_MAX_RAW];
	/* The gate metric kinds it resolves ("classes", "alloc"); NULL ends. */
	const char *metric_kinds[3];
	const char *schema;         /* iotally's JSON of the kind; NULL: not read back */
	unsigned accepts;           /* enum kind_option bits */
	/* Load both inputs and compare them; notes go to `notes` (stderr). */
	void *(*compare)(struct kind_input *before, struct kind_input *after,
			 const struct diff_options *opts, struct diag_list *notes,
			 struct diag *err);
	void (*comparability)(const void *diff, const char *before_path,
			      const char *after_path, struct diag_list *warnings);
	int (*metric)(const void *diff, const char *kind, const char *metric,
		      int64_t *before, int64_t *after, struct diag *err);
	/* Are the metric's figures bytes (else a count)? */
	bool (*metric_bytes)(const char *kind, const char *metric);
	/* What a metric that picks its subject measured (NULL: nothing to name). */
	const char *(*subject)(const void *diff, const char *kind, const char *metric);
	bool (*changed)(const void *diff);
	json_t *(*json)(const void *diff);
	void (*write_folded)(FILE *out, const void *diff);   /* NULL: no --folded */
	/* The kind's sections of a before/after report (`iotally report`). */
	void (*report)(struct report *rep, const void *diff);
	void (*free)(void *diff);
	/*
	 * `iotally report FILE`: the kind's sections, verdict and warnings of
	 * one capture. 0, or -1 with *err.
	 */
	int (*single_report)(struct report *r, struct kind_input *in, struct diag_list *notes,
			     struct diag *err);
	/*
	 * `iotally trend`: read one input into `out`, the kind's metrics of
	 * the sample (set out->complete too), or leave it out with the reason
	 * (app/trend_inputs.h). It touches nothing shared: with -j N it runs on
	 * a worker thread beside other inputs, and the sample joins the series
	 * later, in input order (model/trend_sample.h).
	 */
	void (*trend_read)(struct trend_input *in, struct line_reader *r, bool json,
			   struct trend_sample *out, struct diag_list *notes);
	/*
	 * The leak signature's components of a diff and what its captures say
	 * of OS, machine and time (model/signature_diff.h); NULL: the kind
	 * adds none.
	 */
	void (*signature)(const void *diff, struct signature *sig);

	/* ---- series (`trend`, `rate`) ---- */
	/*
	 * A metric a series holds only in parts, summed for a gate
	 * (app/series_gates.h): the name of part `i` of `metric`
	 * ("vmmap:IOSurface.dirty": part 0 "vmmap:IOSurface:N.dirty") appended
	 * to *out, false past the last part or when the metric is not such a
	 * sum. NULL: the kind's series hold every metric whole.
	 */
	bool (*series_sum_part)(const char *metric, size_t i, struct strbuf *out);
	/*
	 * The kind's own command and the bundle's kernel view: what cli/ and
	 * app/ ask of a kind instead of naming it.
	 */
	/* `iotally NAME FILE`: its options, formats and reading (app/kind_command.h). */
	const struct kind_command *command;
	/* Its bundle captures make the bundle's kernel view (app/kernel_view.h). */
	bool kernel_view;
	/* Its captures measure a process's GPU memory (a bundle's GPU capture). */
	bool gpu_memory;
	/* ---- diff of two bundles (app/diff_run.c) ---- */
	/*
	 * Join to a pair of the kind each side's figures read from another
	 * file of its bundle than the pair's (a kernel view's allocation
	 * totals: kind_classes_join_totals()); NULL: the kind has none.
	 */
	int (*join_totals)(void *diff, const struct bundle_capture *const counts[2],
			   const struct bundle_capture *const totals[2], struct diag_list *notes,
			   struct diag *err);
	/* The files a joined section's figures came from (kind_classes_totals_files()). */
	bool (*totals_files)(const void *diff, const char *const paths[2],
			     struct diff_section_files *out);
	/* ---- capture bundles: `iotally report BUNDLE` ---------------------- */
	/*
	 * After the kind's capture `reported` joined a one-bundle report: what
	 * else of the bundle joins the kind's sections (classes: ioalloccount's
	 * totals when there is no ioreg plist), each file read appended to
	 * `files` as "member (kind)", a file that cannot be read a note in
	 * `notes`. NULL: nothing more.
	 */
	void (*bundle_report_more)(struct report *r, const struct bundle *b,
				   const struct bundle_capture *reported, struct strbuf *files,
				   struct diag_list *notes);

	/* ---- `iotally capture` --------------------------------------------- */
	/*
	 * capture --repeat takes the kind's snapshot after each iteration
	 * unless --kinds says otherwise: its tool does not pause the target.
	 */
	bool repeat_snapshot;
	/*
	 * The steps that write the kind's captures into a bundle (the tool,
	 * its arguments, the file), in no particular order: each step's
	 * `order` places it among every kind's (kind_capture_plan()). An id
	 * NULL ends the list.
	 */
	struct capture_step_def capture_steps[CAPTURE_STEPS_MAX];

	/* ---- a tripped gate in the summary block's words -------------------- */
	/*
	 * What grew under a checked gate's metric, as the summary block says
	 * a growth (model/summary.h: vmmap's type, purge state, region count
	 * and the field's bytes; a class and its count; a call site or class
	 * of a tracking capture; a footprint category): *out filled, its
	 * strings borrowed from the diff or kept in `scratch`, and true; false
	 * when nothing grew that the gate's figures do not already say.
	 * kind_resolve_gate() renders it into a tripped gate's phrase, which
	 * diff's Summary line, JUnit failures and standard error print.
	 */
	bool (*gate_growth)(const void *diff, const struct diff_gate *g,
			    struct summary_growth *out, struct strbuf *scratch);
	/* ---- what other modules say of the kind without naming it ---------- */
	/*
	 * (tools/kind-check.py: no decision on a kind's name outside its own
	 * modules.) The rate report's words for a metric of the kind
	 * (model/rate.h rate_label_fn: "IOSurface:N.dirty" -> "IOSurface
	 * non-volatile dirty"); NULL: the metric's name after its kind.
	 */
	void (*metric_label)(const char *kind, const char *metric, char *out, size_t size);
	/* What a count metric of the kind's own name ("classes:...") counts, "instances"; NULL: none said. */
	const char *count_noun;
	/*
	 * A metric's .dirty figure measures the memory its .vsize and
	 * .resident measure too: the rate summary that names the dirty figure
	 * leaves them out.
	 */
	bool dirty_shadows;
	/* Its gate metrics' grammar, one help line ("track:total, track:<module>"). */
	const char *gate_grammar;
	/*
	 * Its metrics count and size the regions of a type ("<Type>.count",
	 * "<Type>.vsize"): a bundle report sets them beside the kernel view's
	 * objects (app/report_bundles.c).
	 */
	bool region_types;
	/*
	 * The top member of its diff JSON whose figures are rounded as its tool
	 * prints them ("footprint": vmmap's Physical footprint header); its
	 * NDJSON change rows say "rounded". NULL: none.
	 */
	const char *rounded_member;
};

/* The registry in its order (vmmap, classes, track, footprint): kind_next() is NULL after the last. */
const struct kind *kind_first(void);
const struct kind *kind_next(const struct kind *k);
/* The kind named `name` ("vmmap"), or NULL. */
const struct kind *kind_by_name(const char *name);
/*
 * The kinds whose repeat_snapshot is set, as bits 1 << enum bundle_kind
 * (bundle/manifest.h: the registry's order is the bundle's).
 */
unsigned kind_repeat_snapshots(void);
/*
 * What `iotally capture` runs after the host facts: every kind's
 * capture_steps in their `order`, each with its kind (bundle/manifest.h's
 * order is the registry's), and kind_repeat_snapshots().
 */
void kind_capture_plan(struct capture_plan *plan);
/* The kinds' names in registry order into names[0..max); how many. */
size_t kind_names(const char **names, size_t max);
/* How many kinds there are: a row each (util/capture_kinds.h). */
#define KINDS_MAX BUNDLE_NKINDS
struct strbuf;
/*
 * "'iotally vmmap', 'classes' and 'track'": the commands of the kinds whose
 * JSON is read back (a schema), for sentences.
 */
void kind_list_commands(struct strbuf *sb);
/*
 * The kind whose command reads (or claims, to say how to convert it) a
 * raw input kind: `iotally FILE` dispatch and "'iotally vmmap' reads it".
 */
const struct kind *kind_command_for_input(enum input_kind kind);

/*
 * The first option of `given` (enum kind_option bits) that `kind` does
 * not accept, as "--name"; NULL when it accepts them all.
 */
const char *kind_refused_option(const struct kind *kind, unsigned given);

/* The kind a raw input kind or a JSON schema belongs to, or NULL. */
const struct kind *kind_for_input(enum input_kind kind, const char *schema);
/* The kind whose gates use metric kind `name` ("vmmap", "alloc"), or NULL. */
const struct kind *kind_for_metric(const char *name);
/* Does `kind` resolve gates of metric kind `name`? */
bool kind_has_metric(const struct kind *kind, const char *name);

/*
 * Open an input and recognise its kind: 0 with *kind, or -1 with DIAG_DATA
 * naming what the input is instead. `command` ("diff", "report") and
 * `reads` (what it takes) word the message.
 */
int kind_open(struct kind_input *in, const char *path, const char *command,
		   const struct kind **kind, char *schema, size_t schema_size,
		   enum input_kind *raw, struct diag *err);

/*
 * One capture of a bundle read into a report, as `iotally report BUNDLE`
 * reads each of its captures: its checksum checked against the manifest
 * first (a mismatch is a note in `notes`), then the kind's single_report.
 * `iotally BUNDLE` prints the verdict and warnings of each as its headline.
 * 0 with the capture's sections, verdict and warnings added to *r; -1 with *err.
 */
int kind_report_capture(struct report *r, const struct bundle_capture *c,
			struct diag_list *notes, struct diag *err);

struct diff_gate;
/*
 * Check each gate against the diff: a gate of another kind is a DIAG_USAGE
 * error, a metric neither capture has DIAG_DATA.
 */
int kind_check_gates(const struct kind *kind, const void *diff,
			  struct diff_gate *gates, size_t n, struct diag *err);
/*
 * Check one gate of the kind's metrics against the diff: its unit (always,
 * from the metric: a limit is shown in it), figures, result and subject; a
 * figure one capture lacks makes it not evaluable (g->unevaluable,
 * g->reason). 0, or -1 with *err as the kind's metric says.
 */
int kind_resolve_gate(const struct kind *kind, const void *diff,
			   struct diff_gate *g, struct diag *err);

#endif
