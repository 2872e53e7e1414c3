#include "util/optval.h"

#include "util/size.h"
#include "util/strbuf.h"

#include <string.h>

int
optval_choice(const char *what, const char *value, const char *const *names, size_t n,
	      struct diag *err)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(value, names[i]) == 0)
			return (int)i;
	struct strbuf list = STRBUF_INIT;
	for (size_t i = 0; i < n; i++)
		strbuf_addf(&list, "%s%s", i == 0 ? "" : i + 1 == n ? " or " : ", ", names[i]);
	diag_set(err, DIAG_USAGE, NULL, 0, 0, "unknown %s '%s' (expected %s)", what,
		 value, list.buf);
	strbuf_release(&list);
	return -1;
}

int
optval_positive_count(const char *opt, const char *value, uint64_t *out, struct diag *err)
{
	if (parse_u64_dec(value, strlen(value), out) != SIZE_OK || *out == 0)
		return diag_set(err, DIAG_USAGE, NULL, 0, 0,
				"%s needs a positive whole number, got '%s'", opt, value);
	return 0;
}
