/*
 * The kinds in sentences, from the registry rows (app/kind_text.h).
 */

#include "app/kind_text.h"

#include <string.h>

static bool
picked(const struct kind *k, enum kind_pick pick)
{
	switch (pick) {
	case KIND_PICK_READ_BACK:
		return k->schema != NULL;
	case KIND_PICK_TARGET:
		for (size_t i = 0; i < CAPTURE_STEPS_MAX && k->capture_steps[i].id; i++)
			if (k->capture_steps[i].when == CAPTURE_STEP_TARGET)
				return true;
		return false;
	case KIND_PICK_ALL:
	default:
		return true;
	}
}

void
kind_names_join(struct strbuf *sb, enum kind_pick pick, const char *sep, const char *last)
{
	const char *names[KINDS_MAX];
	size_t n = 0;
	for (const struct kind *k = kind_first(); k && n < KINDS_MAX; k = kind_next(k))
		if (picked(k, pick))
			names[n++] = k->name;
	for (size_t i = 0; i < n; i++)
		strbuf_addf(sb, "%s%s", i == 0 ? "" : i + 1 == n ? last : sep, names[i]);
}

/* `line` indented by two, broken at spaces before column 76, continued by four. */
static void
add_wrapped(struct strbuf *out, const char *line)
{
	const size_t width = 76;
	size_t col = 2, len = strlen(line);
	strbuf_addstr(out, "  ");
	while (len) {
		size_t room = width > col ? width - col : 0, take = len;
		if (len > room) {
			take = 0;
			for (size_t i = 0; i <= room && i < len; i++)
				if (line[i] == ' ')
					take = i;
			if (take == 0) {   /* one word longer than the line: whole */
				const char *sp = strchr(line, ' ');
				take = sp ? (size_t)(sp - line) : len;
			}
		}
		strbuf_addf(out, "%.*s", (int)take, line);
		line += take;
		len -= take;
		while (len && *line == ' ')
			line++, len--;
		if (len) {
			strbuf_addstr(out, "\n    ");
			col = 4;
		}
	}
	strbuf_addch(out, '\n');
}

/* Append what placeholder `name` (without its braces) stands for; false: none such. */
static bool
expand_one(struct strbuf *out, const char *name, size_t n)
{
#define IS(s) (n == sizeof(s) - 1 && memcmp(name, s, n) == 0)
	if (IS("kinds"))
		kind_names_join(out, KIND_PICK_ALL, ", ", ", ");
	else if (IS("kinds or"))
		kind_names_join(out, KIND_PICK_ALL, ", ", " or ");
	else if (IS("kinds and"))
		kind_names_join(out, KIND_PICK_ALL, ", ", " and ");
	else if (IS("target kinds"))
		kind_names_join(out, KIND_PICK_TARGET, ", ", ", ");
	else if (IS("read-back kinds and"))
		kind_names_join(out, KIND_PICK_READ_BACK, ", ", " and ");
	else if (IS("gate grammar")) {
		for (const struct kind *k = kind_first(); k; k = kind_next(k))
			if (k->gate_grammar)
				add_wrapped(out, k->gate_grammar);
	} else {
		return false;
	}
	return true;
#undef IS
}

void
kind_text_expand(struct strbuf *out, const char *text)
{
	const char *p = text;
	for (;;) {
		const char *open = strchr(p, '{');
		const char *close = open ? strchr(open + 1, '}') : NULL;
		if (!close) {
			strbuf_addstr(out, p);
			return;
		}
		strbuf_addf(out, "%.*s", (int)(open - p), p);
		if (!expand_one(out, open + 1, (size_t)(close - open - 1)))
			strbuf_addf(out, "%.*s", (int)(close - open + 1), open);
		p = close + 1;
	}
}
