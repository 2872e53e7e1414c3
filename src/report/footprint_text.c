#include "report/footprint_text.h"

#include "report/report_md_write.h"
#include "report/texttable.h"
#include "util/escape.h"
#include "util/size.h"
#include "util/strbuf.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

bool
footprint_category_shown(const struct footprint_category *c, bool all_categories)
{
	return all_categories || footprint_category_is_gpu(c->name, strlen(c->name));
}

static void
add_row(struct text_table *t, const struct footprint_process *p,
	const struct footprint_category *c)
{
	char buf[64];
	text_table_add(t, c->name);
	for (int f = 0; f < FOOTPRINT_FIELDS; f++) {
		if (!(p->columns & (1u << f)))
			continue;
		footprint_figure_text(&c->f[f], f == FOOTPRINT_REGIONS, buf);
		text_table_add(t, buf);
	}
}

static void
write_table(FILE *out, const struct footprint_process *p, const struct footprint_text_opts *o)
{
	const char *headers[FOOTPRINT_FIELDS + 1];
	char align[FOOTPRINT_FIELDS + 2];
	size_t ncols = 0;
	headers[ncols] = "Category";
	align[ncols++] = 'l';
	for (int f = 0; f < FOOTPRINT_FIELDS; f++) {
		if (!(p->columns & (1u << f)))
			continue;
		headers[ncols] = footprint_fields[f].column;
		align[ncols++] = 'r';
	}
	align[ncols] = '\0';
	struct text_table t;
	text_table_init(&t, ncols, headers, align);
	for (size_t i = 0; i < p->ncats; i++)
		if (footprint_category_shown(&p->cats[i], o->all_categories))
			add_row(&t, p, &p->cats[i]);
	size_t shown = text_table_rows(&t);
	if (p->has_total)
		add_row(&t, p, &p->total);
	if (shown == 0)
		fprintf(out, "No %scategory is listed%s.\n%s", o->all_categories ? "" : "GPU ",
			footprint_process_unlisted(p, FOOTPRINT_DIRTY).known ? "" :
			p->elided ? " (rows were elided: unknown whether any is GPU memory)" :
			" (the table is not complete: unknown whether any is GPU memory)",
			o->markdown ? "\n" : "");
	if (text_table_rows(&t))
		text_table_write(out, &t, o->markdown);
	text_table_release(&t);
}

static void
write_figure_line(FILE *out, const char *name, const struct footprint_figure *fig, bool md)
{
	char buf[64];
	footprint_figure_text(fig, false, buf);
	fprintf(out, md ? "- **%s:** %s\n" : "%s: %s\n", name, buf);
}

/* footprint's "Shared with" tables: memory shared with another process, apart from p's own. */
static void
write_shared(FILE *out, const struct footprint_process *p, bool md)
{
	for (size_t i = 0; i < p->nshared; i++) {
		const struct footprint_process *sh = p->shared[i];
		struct footprint_figure none = { 0 };
		const struct footprint_figure *d = sh->has_total ?
			&sh->total.f[FOOTPRINT_DIRTY] : &none;
		char dirty[64], gpu[64];
		footprint_figure_text(d, false, dirty);
		footprint_figure_text(&sh->gpu_dirty, false, gpu);
		struct strbuf with = STRBUF_INIT;
		/* A name from the input cannot turn into Markdown or HTML, nor a control. */
		if (md)
			report_md_escape(sh->shared_with, 0, &with);
		else
			escape_addstr(&with, sh->shared_with);
		fprintf(out, "%sShared with %s (footprint's shared memory, in no figure above "
			"nor any sum): dirty %s, GPU dirty %s\n", md ? "- " : "", with.buf, dirty,
			gpu);
		strbuf_release(&with);
	}
}

static void
write_process(FILE *out, const struct footprint_process *p, const char *heading,
	      const struct footprint_text_opts *o)
{
	fputs(o->markdown ? "### " : "Process: ", out);
	if (o->markdown) {
		/* A name from the input cannot turn into Markdown or HTML. */
		struct strbuf sb = STRBUF_INIT;
		report_md_escape(heading, 0, &sb);
		fputs(sb.buf, out);
		strbuf_release(&sb);
	} else {
		escape_puts(out, heading);
	}
	if (p->bits || p->page_size) {
		fputs(" (", out);
		if (p->bits)
			fprintf(out, "%u-bit%s", p->bits, p->page_size ? ", " : "");
		if (p->page_size)
			fprintf(out, "%" PRIu64 " bytes per page", p->page_size);
		fputc(')', out);
	}
	fputs(o->markdown ? "\n\n" : "\n", out);
	write_figure_line(out, "Footprint", &p->footprint, o->markdown);
	write_figure_line(out, "phys_footprint", &p->phys_footprint, o->markdown);
	write_figure_line(out, "phys_footprint_peak", &p->phys_footprint_peak, o->markdown);
	write_figure_line(out, "GPU memory (footprint:gpu.dirty)", &p->gpu_dirty, o->markdown);
	fputc('\n', out);
	if (p->has_table)
		write_table(out, p, o);
	else
		fputs("No category table (footprint --noCategories, or an excerpt without "
		      "one): every category is unknown.\n", out);
	write_shared(out, p, o->markdown);
}

static bool
any(const struct footprint_capture *cap, bool (*pred)(const struct footprint_figure *))
{
	for (size_t i = 0; i < cap->nprocs; i++) {
		const struct footprint_process *p = cap->procs[i];
		if (pred(&p->footprint) || pred(&p->phys_footprint) ||
		    pred(&p->phys_footprint_peak) || pred(&p->gpu_dirty))
			return true;
		for (size_t k = 0; k < p->ncats; k++)
			for (int f = 0; f < FOOTPRINT_FIELDS; f++)
				if (pred(&p->cats[k].f[f]))
					return true;
	}
	return false;
}

static bool
is_rounded(const struct footprint_figure *f)
{
	return f->known && f->slack;
}

static bool
is_lower_bound(const struct footprint_figure *f)
{
	return f->known && f->at_least;
}

void
footprint_text_write(FILE *out, const struct footprint_capture *cap,
		     const struct footprint_text_opts *o)
{
	for (size_t i = 0; i < cap->nprocs; i++) {
		char *label = footprint_process_label(cap->procs[i]);
		if (i)
			fputc('\n', out);
		write_process(out, cap->procs[i], label, o);
		free(label);
	}
	if (cap->summed) {
		char heading[64];
		snprintf(heading, sizeof(heading), "all %zu processes, summed", cap->nprocs);
		fputc('\n', out);
		write_process(out, cap->summed, heading, o);
	}
	if (cap->summary_footprint.known) {
		char buf[64];
		footprint_figure_text(&cap->summary_footprint, false, buf);
		fprintf(out, "\n%sSummary Footprint (footprint's, shared memory counted once): %s\n",
			o->markdown ? "**" : "", buf);
	}
	fputc('\n', out);
	if (any(cap, is_rounded))
		fputs("~ rounded by footprint (KB, MB, GB are base 1024, to the nearest unit; "
		      "--format json gives each bound)\n", out);
	if (any(cap, is_lower_bound))
		fputs(">= a lower bound: the table does not list every category (rows elided or "
		      "cut)\n", out);
	fputs("? not in the capture (a column, table or row it does not have)\n", out);
}
