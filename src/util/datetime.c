#include "util/datetime.h"

static int64_t
days_from_civil(int64_t y, int64_t m, int64_t day)
{
	y -= m <= 2;
	int64_t era = (y >= 0 ? y : y - 399) / 400;
	int64_t yoe = y - era * 400;
	int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + day - 1;
	int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + doe - 719468;
}

static bool
read_num(const char **p, int digits, int64_t *v)
{
	*v = 0;
	for (int i = 0; i < digits; i++, (*p)++) {
		if (**p < '0' || **p > '9')
			return false;
		*v = *v * 10 + (**p - '0');
	}
	return true;
}

bool
datetime_parse(const char *s, int64_t *ms)
{
	int64_t y, mo, d, h, mi, sec, frac = 0, oh, om;
	const char *p = s;
	if (!read_num(&p, 4, &y) || *p++ != '-' || !read_num(&p, 2, &mo) || *p++ != '-' ||
	    !read_num(&p, 2, &d) || *p++ != ' ' || !read_num(&p, 2, &h) || *p++ != ':' ||
	    !read_num(&p, 2, &mi) || *p++ != ':' || !read_num(&p, 2, &sec))
		return false;
	if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || sec > 60)
		return false;
	if (*p == '.') {
		p++;
		if (!read_num(&p, 3, &frac))
			return false;
	}
	int sign = 0;
	if (p[0] == ' ' && (p[1] == '+' || p[1] == '-')) {
		sign = p[1] == '-' ? -1 : 1;
		p += 2;
		if (!read_num(&p, 2, &oh) || !read_num(&p, 2, &om))
			return false;
	}
	int64_t t = ((days_from_civil(y, mo, d) * 24 + h) * 60 + mi) * 60 + sec;
	if (sign)
		t -= sign * (oh * 3600 + om * 60);
	*ms = t * 1000 + frac;
	return true;
}
