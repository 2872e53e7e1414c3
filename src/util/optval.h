#ifndef IOTALLY_UTIL_OPTVAL_H
#define IOTALLY_UTIL_OPTVAL_H

/*
 * The values of command-line options, checked the same way wherever an
 * option is read (cli/options.h, a kind's options in app/kind_command.h):
 * errors are usage errors (DIAG_USAGE), returned, never printed.
 */

#include <stddef.h>
#include <stdint.h>

#include "util/diag.h"

/*
 * `value` as one of `names` (an option's keyword: --format, --by). Returns
 * its index, or -1 with "unknown WHAT 'value' (expected a, b or c)".
 */
int optval_choice(const char *what, const char *value, const char *const *names, size_t n,
		  struct diag *err);
/* A whole number of at least 1 (--top, --snapshot); -1 with a usage error. */
int optval_positive_count(const char *opt, const char *value, uint64_t *out, struct diag *err);

#endif
