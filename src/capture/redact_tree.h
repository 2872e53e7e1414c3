#ifndef IOTALLY_CAPTURE_REDACT_TREE_H
#define IOTALLY_CAPTURE_REDACT_TREE_H

/*
 * `iotally redact`: a redacted copy of a capture bundle (a folder, or a
 * tar or tar.gz file) or of one capture saved by hand (plain, gzip, or
 * standard input), with the rules of capture/redact.h.
 *
 * Two passes over every file of the input, each reading it in chunks
 * (capture/redact_stream.h), so memory does not grow with the files (a
 * bundle manifest is the one file kept whole; standard input is kept in an
 * unlinked temporary file to be read twice): the first collects the values
 * the key rules find anywhere (serial numbers, console user names, the
 * NAME of /Users/NAME/) and the words given, the second rewrites every
 * file, so a value found in one file is removed from all of them. A
 * bundle's manifest.json (iotally.bundle/1) is updated, not rewritten
 * as text: each file's sha256 and size, the per-rule hit counts (added to
 * those the capture recorded; never the values), redaction enabled, and
 * the values in its argv, step reasons, target and host strings. A file
 * that no longer matched its manifest before redaction keeps its old
 * record, so readers still warn about it: redacting never vouches for a
 * changed file.
 *
 * The copy is written beside its final name (a hidden temporary folder or
 * file) and moved into place when whole; an existing output is never
 * replaced. Nothing here prints.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "capture/redact.h"
#include "util/diag.h"

enum redact_input {
	REDACT_IN_FOLDER,     /* a folder: every file under it */
	REDACT_IN_ARCHIVE,    /* a tar or tar.gz file: every regular file in it */
	REDACT_IN_FILE,       /* one capture file, plain or gzip, or "-" */
};

struct redact_opts {
	const char *input;
	const char *output;              /* never NULL: see redact_default_output() */
	const char *const *words;        /* more values to remove wherever they appear */
	size_t nwords;
	size_t chunk;                    /* bytes read at a time; 0: REDACT_CHUNK */
	uint32_t max_expansion;          /* 0: REDACT_EXPANSION_DEFAULT */
};

/*
 * A compressed input (.tar.gz, .gz) is refused (65) when its files decode
 * to more than max_expansion times its size, and at least
 * REDACT_EXPANSION_FLOOR bytes: the copy goes to disk. Real bundles
 * compress 5 to 20 times; gzip's own limit is about 1,032.
 */
#define REDACT_EXPANSION_DEFAULT 64u
#define REDACT_EXPANSION_FLOOR (32ull << 20)

struct redact_file_hits {
	char *name;                      /* path inside the bundle; the input for a file */
	uint64_t hits[REDACT_NRULES];
};

struct redact_result {
	enum redact_input input;
	bool archive_out;                /* the copy is a .tar.gz */
	bool gzip_out;                   /* a file's copy is gzip-compressed */
	size_t nfiles;                   /* files copied */
	size_t nmanifests;               /* bundle manifests updated */
	struct redact_file_hits *hits;   /* files with at least one hit, in name order */
	size_t nhits, hits_alloc;
	uint64_t total[REDACT_NRULES];
};

/* Shortest value --word takes: shorter ones are too common to replace everywhere. */
#define REDACT_WORD_MIN 3

/*
 * The copy's default name: "-" for standard input, else the input's with
 * "-redacted" before the first '.' of its base name (vmmap.txt.gz ->
 * vmmap-redacted.txt.gz, BUNDLE/ -> BUNDLE-redacted). Owned by the caller.
 */
char *redact_default_output(const char *input);

/*
 * The copy's name: -o GIVEN as given without trailing slashes ("out/"
 * names "out", "x.tar.gz/" the archive), or without -o (NULL) the default
 * name of INPUT. Owned by the caller.
 */
char *redact_output_name(const char *given, const char *input);

/*
 * 0 with the copy written, or -1 with *err: DIAG_USAGE (standard output
 * for a bundle), DIAG_NOINPUT (the input cannot be read), DIAG_DATA (a
 * damaged archive, a member or manifest path leaving the bundle, a
 * manifest that is not JSON, a symbolic link), 73 (the output exists or
 * its folder is not writable), DIAG_IOERR. Warnings (a file that does not
 * match its manifest) go to `warnings`, naming the input.
 */
int redact_run(const struct redact_opts *o, struct redact_result *res,
	       struct diag_list *warnings, struct diag *err);
void redact_result_release(struct redact_result *res);

#endif
