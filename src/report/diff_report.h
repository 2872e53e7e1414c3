#ifndef IOTALLY_REPORT_DIFF_REPORT_H
#define IOTALLY_REPORT_DIFF_REPORT_H

/*
 * What every diff report shares, whatever the kind: the iotally.diff/1
 * envelope (inputs, comparability warnings, gates), the gate table of the
 * text and Markdown reports, and the JUnit XML file (one test case per
 * gate; libxml2's writer, kept inside diff_junit.c).
 */

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "model/diff.h"
#include "model/signature.h"
#include "util/diag.h"


/*
 * A section of the kind's report whose figures were read from other files
 * than the pair's: `section` is its member in the JSON body ("allocation":
 * a bundle side's totals joined from ioalloccount, app/kind_classes.h), and
 * the files each side's figures came from. All NULL: none.
 */
struct diff_section_files {
	const char *section;
	const char *before, *after;
};

struct diff_report {
	const char *kind;                 /* "vmmap", "track", ... */
	const char *before_path, *after_path;
	struct diff_section_files files;  /* NDJSON rows of the section name these */
	const struct diag_list *warnings; /* comparability warnings */
	const struct diff_gate *gates;
	size_t ngates;
	bool changed;
	const struct signature *sig;      /* what grew (model/signature.h); NULL: none */
	/*
	 * The top member of the kind's JSON whose figures are rounded as its
	 * tool prints them (the kind's row, app/kind.h); NULL: none.
	 */
	const char *rounded_member;
};

/*
 * Write the JSON document: the envelope with the kind's own members
 * (`body`, whose reference is taken) between the inputs and the gates.
 * 0, or -1 when the output cannot be written.
 */
int diff_json_write(FILE *out, const struct diff_report *r, json_t *body);

/* AFTER - BEFORE of model figures, which are at most INT64_MAX. */
int64_t diff_report_delta(uint64_t before, uint64_t after);
/*
 * A model byte figure (at most INT64_MAX) in the text outputs' one
 * formatter (util/size.h, its SIZE_TEXT_* flags): "384 MiB", "~433.2 MiB".
 * The change of two: diff_report_bytes_delta() ("+384 MiB").
 */
void diff_report_bytes(char out[32], uint64_t v, unsigned flags);
void diff_report_bytes_delta(char out[32], uint64_t before, uint64_t after, unsigned flags);
/* {"before", "after", "delta"} of model figures (at most INT64_MAX). */
json_t *diff_json_triple(uint64_t before, uint64_t after);

/*
 * The heading of a text or Markdown report: the kind and both inputs; in
 * Markdown also the comparability warnings, as quotes (text prints them on
 * standard error).
 */
void diff_heading_write(FILE *out, const struct diff_report *r, bool markdown);

/*
 * A pair where nothing changed, no gate tripped and every gate was
 * evaluated, said in one line under its heading ("Unchanged; 4 gates
 * passed."): a table of zero deltas says nothing more. True when written;
 * false (nothing written) for any other pair.
 */
bool diff_unchanged_write(FILE *out, const struct diff_report *r, bool markdown);

/* The gates as a table (text or Markdown), each limit as
 * diff_gate_limit_text() gives it; nothing when there are none. */
void diff_gates_write_text(FILE *out, const struct diff_report *r, bool markdown);

/*
 * A gate's figures in one line: "delta +3 (before 2, after 5), fails when
 * > +2"; bytes with binary units beside them and the limit as
 * diff_gate_limit_text() gives it: "delta +100663296 (+96 MiB), before
 * 6642270143 (~6.19 GiB), after 6742933439 (~6.28 GiB), fails when > +256M
 * (+268435456 bytes)".
 */
void diff_gate_describe(const struct diff_gate *g, struct strbuf *out);

/* Each figure of a checked gate as the gates table prints it ("+100663296 (+96 MiB)"). */
#define GATE_FIGURE_SIZE 80
void diff_gate_figures(const struct diff_gate *g, char before[GATE_FIGURE_SIZE],
		       char after[GATE_FIGURE_SIZE], char delta[GATE_FIGURE_SIZE]);

/*
 * The closing line of a diff of folders or bundles (the first line in
 * Markdown, where a pull request comment is read top down): how many pairs
 * were compared and could not be, files without a counterpart, tripped
 * gates and gates that cannot be checked, then the tripped gates by name,
 * up to DIFF_SUMMARY_NAMED, each with its pair and what grew, and how
 * many more.
 */
#define DIFF_SUMMARY_NAMED 3
struct diff_summary_tripped {
	const struct diff_gate *g;
	const char *pair;                  /* the pair's name in its folders */
};
struct diff_summary {
	size_t compared, failed, unpaired, wrong;
	struct diff_summary_tripped *tripped;   /* every tripped gate, in pair order */
	size_t ntripped;
};
void diff_summary_write(FILE *out, const struct diff_summary *s, bool markdown);

/*
 * JUnit XML for a whole run. Each compared pair is one <testsuite> (named
 * "iotally diff BEFORE AFTER") with one <testcase> per gate (named by the
 * pair and the gate: "app-vmmap.txt: vmmap:gpu.dirty > +256M"), a <failure>
 * for each tripped gate, and an <error> test case when the pair could not
 * be compared. What belongs to no pair (gates skipped because no capture
 * of their kind was compared, files without a counterpart, errors before
 * any comparison) is one last <testsuite name="iotally diff">. No
 * timestamps or host names, so the file is the same for the same inputs.
 */
enum diff_junit_outcome {
	DIFF_JUNIT_ERROR,
	DIFF_JUNIT_SKIPPED,
};

struct diff_junit_case {
	const char *name;
	enum diff_junit_outcome outcome;
	const char *message;
};

struct diff_junit_suite {
	const char *name;
	/* The pair's name in its folders or bundles ("app-vmmap.txt"), which
	 * starts each case's name; NULL for two files (one pair) and for what
	 * belongs to no pair. */
	const char *pair;
	const char *kind;                  /* classname "iotally.diff.<kind>"; NULL: "iotally.diff" */
	const struct diff_gate *gates;     /* checked gates of the pair */
	size_t ngates;
	const struct diff_junit_case *cases;   /* errors and skipped cases */
	size_t ncases;
};

/* 0, or -1 with DIAG_IOERR (or DIAG_SOFTWARE when libxml2 fails). */
int diff_junit_write(FILE *out, const struct diff_junit_suite *suites, size_t nsuites,
		     struct diag *err);

#endif
