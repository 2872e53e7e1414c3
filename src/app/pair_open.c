/*
 * Two captures opened and compared (app/pair_open.h).
 */

#include "app/pair_open.h"

#include <string.h>

void
pair_open_init(struct pair_open *p)
{
	memset(p, 0, sizeof(*p));
	p->in[0].reader.fd = p->in[1].reader.fd = -1;
}

/* The options of `o` that the kind takes: an option it does not take is left out. */
static struct diff_options
options_for(const struct kind *kind, const struct pair_open_opts *o)
{
	struct diff_options opts = o->opts;
	unsigned ok = kind->accepts;
	opts.has_dump &= (ok & KIND_ACCEPTS_DUMP) != 0;
	opts.direct &= (ok & KIND_ACCEPTS_DIRECT) != 0;
	opts.match_offsets &= (ok & KIND_ACCEPTS_MATCH_OFFSETS) != 0;
	return opts;
}

int
pair_open_compare(struct pair_open *p, const char *before, const char *after,
		  const struct pair_open_opts *o, struct diag_list *notes, struct diag *err)
{
	const char *paths[2] = { before, after };
	const struct kind *k[2];
	char schema[2][64];
	enum input_kind raw[2];
	for (int i = 0; i < 2; i++) {
		if (kind_open(&p->in[i], paths[i], o->command, &k[i], schema[i], sizeof(schema[i]),
			      &raw[i], err) < 0)
			return -1;
		if (o->expect && k[i] != o->expect)
			return diag_set(err, DIAG_DATA, paths[i], 0, 0, "is a %s capture, but the "
					"manifest calls it %s", k[i]->name, o->expect->name);
	}
	if (k[0] != k[1])
		return diag_set(err, DIAG_DATA, NULL, 0, 0,
				"BEFORE (%s) is of kind %s and AFTER (%s) of kind %s: %s two "
				"captures of the same kind", diag_display_path(before), k[0]->name,
				diag_display_path(after), k[1]->name, o->needs);
	p->kind = k[0];
	const char *refused = kind_refused_option(p->kind, o->given);
	if (refused && !o->lenient)
		return diag_set(err, DIAG_USAGE, NULL, 0, 0, "%s does not apply to %s captures",
				refused, p->kind->name);
	struct diff_options opts = refused ? options_for(p->kind, o) : o->opts;
	p->diff = p->kind->compare(&p->in[0], &p->in[1], &opts, notes, err);
	return p->diff ? 0 : -1;
}

void
pair_open_close(struct pair_open *p)
{
	for (int i = 0; i < 2; i++)
		if (p->in[i].path)
			line_reader_close(&p->in[i].reader);
	if (p->diff)
		p->kind->free(p->diff);
	pair_open_init(p);
}
