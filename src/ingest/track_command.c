#include "ingest/track_command.h"

#include "util/strbuf.h"
#include "util/view.h"

#include <stdbool.h>
#include <string.h>

/* The next space-separated word of a command line at *p; its length, 0 at the end. */
static size_t
next_word(const char **p, const char **word)
{
	while (**p == ' ')
		(*p)++;
	*word = *p;
	while (**p && **p != ' ')
		(*p)++;
	return (size_t)(*p - *word);
}

/* The last of --track, --leaks, --maps in the command wins, as in ioclasscount. */
static enum track_kind
kind_from_command(const char *s, bool *site_filtered)
{
	enum track_kind kind = TRACK_KIND_UNKNOWN;
	const char *p = s, *w;
	size_t n;
	*site_filtered = false;
	while ((n = next_word(&p, &w)) > 0) {
		if (n == 7 && memcmp(w, "--track", 7) == 0)
			kind = TRACK_KIND_TRACK;
		else if (n == 7 && memcmp(w, "--leaks", 7) == 0)
			kind = TRACK_KIND_LEAKS;
		else if (view_starts(w, n, "--maps"))
			kind = TRACK_KIND_MAPS;
		else if (view_starts(w, n, "--site") || view_starts(w, n, "--ignore"))
			*site_filtered = true;
	}
	return kind;
}

/*
 * The single queue the command was restricted to, when it names exactly one
 * operand and no --exclude: then every record without a class frame is from it.
 */
static const char *
single_queue(const char *cmd, size_t *len)
{
	const char *found = NULL, *p = cmd, *w;
	size_t flen = 0, n;
	unsigned operands = 0;
	bool first = true;
	while ((n = next_word(&p, &w)) > 0) {
		if (first) {        /* argv[0] */
			first = false;
			continue;
		}
		if (n == 9 && memcmp(w, "--exclude", 9) == 0)
			return NULL;
		if (w[0] == '-')
			continue;
		operands++;
		found = w;
		flen = n;
	}
	if (operands != 1)
		return NULL;
	*len = flen;
	return found;
}

void
track_command_read(struct track_capture *cap, const char *p, size_t n)
{
	/* A NUL-terminated copy: the words are scanned up to the end of the text. */
	struct strbuf text = STRBUF_INIT;
	bool site_filtered;
	size_t qlen = 0;
	strbuf_add(&text, p, n);
	enum track_kind kind = kind_from_command(text.buf, &site_filtered);
	const char *queue = single_queue(text.buf, &qlen);
	track_capture_set_command(cap, text.buf, text.len, kind, site_filtered, queue, qlen);
	strbuf_release(&text);
}
