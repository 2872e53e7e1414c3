#include "ingest/classes_common.h"

#include "util/size.h"

#include <stdint.h>

int
classes_parse_int(const char *p, size_t n, int64_t *out, bool *hex)
{
	uint64_t v;
	int rc;
	while (n && (*p == ' ' || *p == '\t' || *p == '\n'))
		p++, n--;
	while (n && (p[n - 1] == ' ' || p[n - 1] == '\t' || p[n - 1] == '\n'))
		n--;
	bool neg = n && p[0] == '-';
	if (n && (p[0] == '-' || p[0] == '+'))
		p++, n--;
	*hex = n > 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X');
	rc = *hex ? parse_u64_hex(p + 2, n - 2, &v) : parse_u64_dec(p, n, &v);
	if (rc != SIZE_OK)
		return rc;
	if (neg && v > (uint64_t)INT64_MAX + 1)
		return SIZE_OVERFLOW;
	*out = neg ? (int64_t)(0 - v) : (int64_t)v;
	return SIZE_OK;
}
