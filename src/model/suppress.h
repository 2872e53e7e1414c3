#ifndef IOTALLY_MODEL_SUPPRESS_H
#define IOTALLY_MODEL_SUPPRESS_H

/*
 * A list of known-leak patterns whose records a report hides and counts
 * apart (the suppression files browser and driver projects keep).
 * One pattern a line: a plain substring, or "re:" and a PCRE2 pattern;
 * blank lines and lines starting with '#' are comments. Patterns are
 * compiled with util/regex (PCRE2, ^ and $ at every line of a record).
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/diag.h"
#include "util/regex.h"

struct suppress_pattern {
	char *text;            /* as written, without "re:" */
	size_t len;
	bool regex;
	struct regex *re;      /* compiled, for regex patterns */
	uint64_t line;         /* line in the suppression file */
	uint64_t records;      /* records it hid */
	uint64_t bytes;
};

struct suppress_list {
	struct suppress_pattern *items;
	size_t len, alloc;
};

void suppress_list_init(struct suppress_list *s);
void suppress_list_release(struct suppress_list *s);
/*
 * Add one line of a suppression file. Comments and blank lines are
 * ignored. -1 with *err (DIAG_DATA, path and line) for a pattern PCRE2
 * does not compile.
 */
int suppress_list_add_line(struct suppress_list *s, const char *p, size_t n,
			   const char *path, uint64_t line, struct diag *err);
/* The first pattern that matches `text`, or NULL. */
struct suppress_pattern *suppress_list_match(struct suppress_list *s,
					     const char *text, size_t n);

#endif
