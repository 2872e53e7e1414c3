#ifndef IOTALLY_APP_DIFF_RUN_H
#define IOTALLY_APP_DIFF_RUN_H

/*
 * One `iotally diff BEFORE AFTER` run, its decisions without its printing:
 * the pairs (app/diff_pairs.h), each pair opened and compared
 * (app/pair_open.h) with the gates of its kind checked against it, what
 * belongs to no pair (files without a counterpart, gates no pair answers,
 * bundle files that do not match their manifest), the Summary line's
 * figures, the JUnit suites and the exit status. The statuses are
 * util/diag.h's (declared once): 0 every gate given passed and at least
 * one was evaluated; DIAG_GATE a gate tripped; DIAG_USAGE a usage error or
 * a gate that cannot be checked; DIAG_DATA malformed input or, gates
 * given, not one evaluated; DIAG_NOINPUT an input that cannot be opened.
 * The first error's status wins over a tripped gate.
 *
 * What a run says goes through the caller's `struct diff_run_say` (cli/
 * prints it), in the order the run finds it.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "app/diff_pairs.h"
#include "app/kind.h"
#include "app/pair_open.h"
#include "model/diff.h"
#include "model/signature.h"
#include "report/diff_report.h"
#include "util/diag.h"

/* How the caller says what the run finds: called on the thread that runs the check. */
struct diff_run_say {
	void *ctx;
	/* A diagnostic; `usage`: a usage error, said with the command's usage hint. */
	void (*diag)(void *ctx, const struct diag *d, bool usage);
	/* A message of severity `sev` about `path` (NULL: none), `text` unescaped. */
	void (*msg)(void *ctx, enum diag_severity sev, const char *path, const char *text);
};

/* What the command line asked of the run. */
struct diff_run_opts {
	const char *paths[2];           /* BEFORE and AFTER as given */
	struct diff_options opts;
	unsigned given;                 /* enum kind_option bits given */
	const struct diff_gate *gates;  /* as parsed: every kind's */
	size_t ngates;
	bool strict;
};

/* What became of one pair. */
struct diff_pair_result {
	const struct kind *kind;        /* NULL: not recognised */
	struct diff_gate *gates;        /* copies of the gates of its kind, checked */
	size_t ngates;
	bool compared;
	int status;                     /* 0, or the error's exit status */
	char *error;                    /* the error as printed, without "iotally: " */
	/* The first gate that could not be checked against this pair (a
	 * misspelt type, a malformed metric): the pair is still compared and
	 * written; the gate is an error of the run (64), said once. */
	char *gate_error;
	char *gate_error_text;          /* that gate's expression */
};

/* A run: its pairs, their results, and what belongs to no pair. */
struct diff_run {
	const struct diff_run_opts *o;
	struct diff_run_say say;
	struct diff_pairs pairs;
	struct diff_pair_result *results;   /* one per pair, once diff_run_start_pairs() ran */
	struct diff_junit_case *cases;  /* owned names and messages */
	size_t ncases, cases_alloc;
	int status;                     /* the first error's exit status */
	size_t tripped;
};

void diff_run_init(struct diff_run *run, const struct diff_run_opts *o,
		   const struct diff_run_say *say);
void diff_run_release(struct diff_run *run);

/*
 * An error of the run: said, kept as a JUnit error case named `name`,
 * its status (DIAG_SOFTWARE for none) kept when it is the first.
 */
void diff_run_error(struct diff_run *run, const char *name, const struct diag *err, bool usage);
/* A JUnit case of the run's own (not a pair's). */
void diff_run_add_case(struct diff_run *run, const char *name, enum diff_junit_outcome outcome,
		       const char *message);

/*
 * Every gate names a metric kind of the registry: a DIAG_USAGE error
 * otherwise, said before any input is read, naming the kinds there are.
 */
int diff_run_check_gate_kinds(const struct diff_gate *gates, size_t n, struct diag *err);

/* The output choices a diff of folders refuses (JSON, --folded): DIAG_USAGE. */
int diff_run_check_folder_output(const struct diff_run *run, bool json, bool folded,
				 struct diag *err);

/* Room for each pair's result, before the pairs are compared. */
void diff_run_start_pairs(struct diff_run *run);

/* One pair compared: what its report is written from. */
struct diff_pair_out {
	struct pair_open p;
	struct diag_list notes;         /* the inputs' notes, said first */
	struct diag_list warnings;      /* the pair's comparability warnings */
	struct signature sig;
	struct diff_report rep;
};

/*
 * Open and compare pair i, join a bundle side's allocation totals read
 * from another file, say how comparable the two are and check the gates
 * of its kind (into run->results[i]; each pair touches its own result
 * only, so pairs may be compared on several threads). 0 with *out to
 * write from; -1 with *err (out->notes still to say). Either way the
 * caller calls diff_pair_out_release().
 */
int diff_run_compare_pair(const struct diff_run *run, size_t i, struct diff_pair_out *out,
			  struct diag *err);
void diff_pair_out_release(struct diff_pair_out *out);

/* How a pair's report is written: one of these, else text. */
struct diff_write_opts {
	bool ndjson, json, markdown, folded;
};
/* Write compared pair `name`'s report to `out`. 0, or -1 with DIAG_IOERR. */
int diff_pair_write(FILE *out, const struct diff_pair_out *po, const char *name,
		    const struct diff_write_opts *w, struct diag *err);

/* Pair i could not be compared or written: its error kept (and the run's status). */
void diff_run_pair_failed(struct diff_run *run, size_t i, const struct diag *err);
void diff_pair_result_release(struct diff_pair_result *res);

/*
 * Bundles: the kernel views compared once (the sources each reference
 * covers named, where one disagrees with it a warning) and each capture
 * checked against its manifest's sha256 and size (a mismatch a warning,
 * an error with --strict).
 */
void diff_run_check_bundles(struct diff_run *run);

/*
 * After the pairs, in this order: gates that could not be checked (each
 * said once, with its pairs; the run fails with DIAG_USAGE), files
 * without a counterpart, gates no pair answers, gates a capture could not
 * evaluate, tripped gates (counted in run->tripped), and gates given of
 * which not one was evaluated (DIAG_DATA).
 */
void diff_run_check_gate_errors(struct diff_run *run);
void diff_run_check_unpaired(struct diff_run *run);
void diff_run_check_skipped_gates(struct diff_run *run);
void diff_run_check_unevaluable(struct diff_run *run);
void diff_run_check_tripped(struct diff_run *run);
void diff_run_check_nothing_evaluated(struct diff_run *run);

/* The figures of the run's Summary line and its tripped gates, borrowed from the run. */
void diff_run_summary(const struct diff_run *run, struct diff_summary *s);
void diff_summary_release(struct diff_summary *s);

/*
 * The JUnit XML of the whole run (`run` is a const struct diff_run *, as
 * an output writer's context): each pair a suite of its gates, or of its
 * error; what belongs to no pair a last suite. 0, or -1 with *err.
 */
int diff_run_junit_write(FILE *out, const void *run, struct diag *err);

/* The run's exit status: the first error's, else DIAG_GATE when a gate tripped, else 0. */
int diff_run_status(const struct diff_run *run);

#endif
