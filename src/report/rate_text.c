/*
 * The rate report as text and Markdown, and its summary line
 * (report/rate_write.h).
 */

#include "report/rate_write.h"
#include "model/diff.h"

#include "report/report_md_write.h"
#include "report/texttable.h"
#include "util/escape.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const char rate_caveat[] =
	"Rates are Theil-Sen slopes against the iteration number after the warm-up; "
	"their 95 % intervals allow for a lag-1 correlation of at least 0.5 between "
	"iterations (more when the iterations show it).";

/* At most this many metrics are named in the summary, then "and N more". */
#define SUMMARY_NAMED 3

/* ---- figures: the one place rate formats them --------------------------- */

void
rate_format_amount(char out[48], double v, enum trend_unit unit, bool sign)
{
	trend_format_amount(out, v, unit, sign);
}

/* "+1.5", "-0.3", and "0.0" for what rounds to nothing (no "-0.0"). */
static const char *
signed_tenths(char out[48], double v)
{
	if (fabs(v) < 0.05)
		snprintf(out, 48, "0.0");
	else
		snprintf(out, 48, "%+.1f", v);
	return out;
}

void
rate_format_pm(char out[96], const struct rate_row *row, enum trend_unit unit, const char *noun)
{
	static const char *const units[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB" };
	double half = row->has_rate ? fmax(row->hi - row->rate, row->rate - row->lo) : NAN;
	const char *sp = noun && *noun ? " " : "";
	char sig[48];
	if (!row->has_rate || isnan(row->rate)) {
		snprintf(out, 96, "-");
		return;
	}
	if (unit == TREND_COUNT) {
		snprintf(out, 96, "%s ± %.1f%s%s", signed_tenths(sig, row->rate), half, sp,
			 noun ? noun : "");
		return;
	}
	/* Both figures in the unit of the larger, so they read together. */
	double a = fmax(fabs(row->rate), isnan(half) ? 0 : half), div = 1;
	size_t u = 0;
	while (a >= 1024 && u + 1 < sizeof(units) / sizeof(units[0])) {
		a /= 1024;
		div *= 1024;
		u++;
	}
	snprintf(out, 96, "%s ± %.1f %s", signed_tenths(sig, row->rate / div), half / div, units[u]);
}

/* ---- the summary ---------------------------------------------------------- */

/*
 * A kind whose metrics give vsize, resident and dirty of one memory (the
 * row's dirty_shadows): when its dirty figure is named, its vsize and
 * resident say nothing more.
 */
static bool
shadowed(const struct rate_kind_report *k, const struct rate_row *row)
{
	const struct rate_series *rs = k->rates;
	const char *name = row->m->name, *dot = strrchr(name, '.');
	if (!k->dirty_shadows || !dot || strcmp(dot, ".dirty") == 0)
		return false;
	size_t stem = (size_t)(dot - name);
	for (size_t i = 0; i < rs->nrows; i++) {
		const char *o = rs->rows[i].m->name;
		if (rs->rows[i].verdict == row->verdict && strncmp(o, name, stem) == 0 &&
		    strcmp(o + stem, ".dirty") == 0)
			return true;
	}
	return false;
}

void
rate_row_label(const struct rate_kind_report *k, const char *name, char *out, size_t size)
{
	rate_metric_label(name, k->label, out, size);
}

const char *
rate_row_noun(const struct rate_kind_report *k, const char *name)
{
	size_t n = strlen(k->kind);
	return k->count_noun && strncmp(name, k->kind, n) == 0 && name[n] == ':' ? k->count_noun
										   : "";
}

static void
add_label(struct strbuf *out, const struct rate_kind_report *k, const char *name)
{
	char label[256];
	rate_row_label(k, name, label, sizeof(label));
	strbuf_addstr(out, label);
}

/* "(20 iterations after 2 warm-up)" of the kind named first. */
static void
add_span(struct strbuf *out, const struct rate_kind_report *k)
{
	size_t it = k->rates->iterations, w = k->rates->warmup;
	strbuf_addf(out, " (%zu iteration%s after %zu warm-up)", it - w, it - w == 1 ? "" : "s", w);
}

/* A named leak of the summary: its row and its kind. */
struct named {
	const struct rate_row *row;
	const struct rate_kind_report *kind;
};

static void
summary_leaks(const struct rate_report *r, struct strbuf *out)
{
	struct named named[SUMMARY_NAMED];
	size_t n = 0, more = 0;
	for (size_t k = 0; k < r->nkinds; k++) {
		const struct rate_series *rs = r->kinds[k].rates;
		for (size_t i = 0; i < rs->nrows; i++) {
			const struct rate_row *row = &rs->rows[i];
			if (row->verdict != RATE_LEAKS || shadowed(&r->kinds[k], row))
				continue;
			if (n < SUMMARY_NAMED)
				named[n++] = (struct named){ row, &r->kinds[k] };
			else
				more++;
		}
	}
	/* "A", "A and B", "A, B and C", "A, B, C and 4 more" */
	for (size_t i = 0; i < n; i++) {
		char pm[96];
		const struct rate_row *row = named[i].row;
		if (i)
			strbuf_addstr(out, i + 1 == n && !more ? " and " : ", ");
		add_label(out, named[i].kind, row->m->name);
		rate_format_pm(pm, row, row->m->unit, rate_row_noun(named[i].kind, row->m->name));
		strbuf_addf(out, " %s", pm);
	}
	if (more)
		strbuf_addf(out, " and %zu more", more);
	strbuf_addstr(out, " per iteration");
	if (n)
		add_span(out, named[0].kind);
}

/* The first row of `verdict` in any kind, with its kind. */
static const struct rate_row *
first_of(const struct rate_report *r, enum rate_verdict verdict,
	 const struct rate_kind_report **kind)
{
	for (size_t k = 0; k < r->nkinds; k++)
		for (size_t i = 0; i < r->kinds[k].rates->nrows; i++)
			if (r->kinds[k].rates->rows[i].verdict == verdict) {
				*kind = &r->kinds[k];
				return &r->kinds[k].rates->rows[i];
			}
	return NULL;
}

void
rate_summary(const struct rate_report *r, struct strbuf *out)
{
	const struct rate_kind_report *k = NULL;
	const struct rate_row *row;
	if (rate_report_leaks(r)) {
		summary_leaks(r, out);
	} else if ((row = first_of(r, RATE_WARMS_UP, &k))) {
		strbuf_addstr(out, "No leak per operation: ");
		add_label(out, k, row->m->name);
		strbuf_addf(out, " warms up then stops (flat from iteration %zu", row->warm_until);
		if (row->has_rate) {
			char pm[96];
			rate_format_pm(pm, row, row->m->unit, rate_row_noun(k, row->m->name));
			strbuf_addf(out, ", then %s per iteration", pm);
		}
		strbuf_addch(out, ')');
		add_span(out, k);
	} else if ((row = first_of(r, RATE_UNSURE, &k))) {
		strbuf_addstr(out, "No leak per operation shown, but ");
		add_label(out, k, row->m->name);
		strbuf_addf(out, " is unsure: %s", row->why);
		if (row->more)
			strbuf_addf(out, "; about %zu more iteration%s would tell", row->more,
				    row->more == 1 ? "" : "s");
		add_span(out, k);
	} else {
		strbuf_addstr(out, "No leak per operation: nothing grows per iteration");
		if (r->nkinds)
			add_span(out, &r->kinds[0]);
	}
}

size_t
rate_report_leaks(const struct rate_report *r)
{
	size_t n = 0;
	for (size_t k = 0; k < r->nkinds; k++)
		n += r->kinds[k].rates->count[RATE_LEAKS];
	return n;
}

/* ---- text and Markdown ---------------------------------------------------- */

static void
add_amount(struct text_table *t, double v, enum trend_unit unit, bool sign)
{
	char s[48];
	rate_format_amount(s, v, unit, sign);
	text_table_add(t, s);
}

static void
add_row(struct text_table *t, const struct rate_row *row, size_t n)
{
	const struct trend_metric *m = row->m;
	struct strbuf sb = STRBUF_INIT;
	text_table_add(t, rate_verdict_name(row->verdict));
	text_table_add(t, m->name);
	add_amount(t, row->has_rate ? row->rate : NAN, m->unit, true);
	if (row->has_rate) {
		char lo[48], hi[48];
		rate_format_amount(lo, row->lo, m->unit, true);
		rate_format_amount(hi, row->hi, m->unit, true);
		text_table_addf(t, "%s .. %s", lo, hi);
	} else {
		text_table_add(t, "-");
	}
	trend_sparkline(m, n, &sb);
	text_table_add(t, sb.buf);
	strbuf_release(&sb);
}

static void
write_summary(FILE *out, const struct rate_report *r, bool md)
{
	struct strbuf sb = STRBUF_INIT, esc = STRBUF_INIT;
	rate_summary(r, &sb);
	if (md) {
		report_md_escape(sb.buf, 0, &esc);
		fprintf(out, "## iotally rate\n\n**%s**\n\n", esc.buf);
	} else {
		fputs("iotally rate\n\n", out);
		escape_puts(out, sb.buf);
		fputs("\n\n", out);
	}
	strbuf_release(&sb);
	strbuf_release(&esc);
}

static void
write_kind_header(FILE *out, const struct rate_kind_report *k, const struct rate_report *r,
		  bool md)
{
	const struct rate_series *rs = k->rates;
	if (md)
		fprintf(out, "### %s\n\n", k->kind);
	else
		fprintf(out, "%s: ", k->kind);
	fprintf(out, "%zu iterations, in ", rs->iterations);
	escape_puts(out, k->order_note);   /* may name a capture's time field */
	fprintf(out, ".\nWarm-up: the first %zu iteration%s left out of the rates (%s); "
		"%zu analysed. Rates are per iteration, with 95 %% intervals.\n\n",
		rs->warmup, rs->warmup == 1 ? " is" : "s are",
		r->warmup_given ? "--warmup" : "default max(2, 20 % of them)",
		rs->iterations - rs->warmup);
	struct strbuf msg = STRBUF_INIT;
	for (size_t i = 0; md && k->warnings && i < k->warnings->len; i++) {
		strbuf_reset(&msg);
		report_md_escape(diag_list_msg(k->warnings, i), 0, &msg);
		fprintf(out, "> **%s:** %s\n\n",
			k->warnings->items[i].severity == DIAG_NOTE ? "Note" : "Warning", msg.buf);
	}
	strbuf_release(&msg);
}

static void
write_rows(FILE *out, const struct rate_kind_report *k, bool md)
{
	const char *headers[] = { "VERDICT", "METRIC", "PER ITERATION", "95% INTERVAL",
				  "ITERATIONS" };
	const struct rate_series *rs = k->rates;
	struct text_table t;
	text_table_init(&t, 5, headers, "llrrl");
	for (size_t i = 0; i < rs->nrows; i++)
		add_row(&t, &rs->rows[i], k->series->nsamples);
	if (rs->nrows)
		text_table_write(out, &t, md);
	else
		fputs("No metric changes across the iterations.\n", out);
	text_table_release(&t);
	if (rs->unchanged)
		fprintf(out, "%s%zu metric%s the same in every iteration (not shown).\n",
			rs->nrows ? "\n" : "", rs->unchanged, rs->unchanged == 1 ? " is" : "s are");
	fputc('\n', out);
}

/* Why each metric that is not LEAKS PER OPERATION or NONE got its verdict. */
static void
write_notes(FILE *out, const struct rate_kind_report *k, bool md)
{
	const char *headers[] = { "METRIC", "NOTE" };
	struct text_table t;
	text_table_init(&t, 2, headers, "ll");
	struct strbuf sb = STRBUF_INIT;
	for (size_t i = 0; i < k->rates->nrows; i++) {
		const struct rate_row *row = &k->rates->rows[i];
		if (row->verdict != RATE_WARMS_UP && row->verdict != RATE_UNSURE)
			continue;
		strbuf_reset(&sb);
		strbuf_addf(&sb, "%s: %s", rate_verdict_name(row->verdict), row->why);
		if (row->verdict == RATE_WARMS_UP)
			strbuf_addf(&sb, "; flat from iteration %zu%s", row->warm_until,
				    row->has_rate ? ", the rate fitted from there on" : "");
		else if (row->more)
			strbuf_addf(&sb, "; about %zu more iteration%s at this noise would tell",
				    row->more, row->more == 1 ? "" : "s");
		text_table_add(&t, row->m->name);
		text_table_add(&t, sb.buf);
	}
	strbuf_release(&sb);
	text_table_write_section(out, &t, md, "Notes");
	text_table_release(&t);
}

static void
write_inputs(FILE *out, const struct rate_kind_report *k, bool md)
{
	const char *headers[] = { "#", "INPUT", "STATUS" };
	struct text_table t;
	text_table_init(&t, 3, headers, "rll");
	for (size_t i = 0; i < k->ninputs; i++) {
		const struct trend_input_row *in = &k->inputs[i];
		if (in->used)
			text_table_addf(&t, "%zu", in->sample + 1);
		else
			text_table_add(&t, "-");
		text_table_add(&t, diag_display_path(in->path));
		if (in->used)
			text_table_add(&t, in->sample < k->rates->warmup ? "warm-up" : "used");
		else
			text_table_addf(&t, "left out: %s", in->left_out);
	}
	char title[64];
	snprintf(title, sizeof(title), "Iterations (%s)", k->kind);
	text_table_write_section(out, &t, md, title);
	text_table_release(&t);
}

static void
write_gates(FILE *out, const struct rate_report *r, bool md)
{
	const char *headers[] = { "GATE", "PER ITERATION", "LOWER BOUND", "RESULT" };
	struct text_table t;
	text_table_init(&t, 4, headers, "lrrl");
	for (size_t i = 0; i < r->ngates; i++) {
		const struct rate_gate *g = &r->gates[i];
		text_table_add(&t, g->g.text);
		add_amount(&t, g->checked ? g->rate : NAN, g->unit, true);
		add_amount(&t, g->checked ? g->low : NAN, g->unit, true);
		text_table_add(&t, diff_gate_result_word(g->tripped, false));
	}
	text_table_write_section(out, &t, md, "Gates");
	text_table_release(&t);
}

void
rate_text_write(FILE *out, const struct rate_report *r, bool markdown)
{
	write_summary(out, r, markdown);
	for (size_t k = 0; k < r->nkinds; k++) {
		write_kind_header(out, &r->kinds[k], r, markdown);
		write_rows(out, &r->kinds[k], markdown);
		write_notes(out, &r->kinds[k], markdown);
	}
	fprintf(out, markdown ? "> %s\n\n" : "%s\n\n", rate_caveat);
	write_gates(out, r, markdown);
	for (size_t k = 0; k < r->nkinds; k++)
		write_inputs(out, &r->kinds[k], markdown);
}
