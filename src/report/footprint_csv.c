#include "report/footprint_csv.h"

#include "report/footprint_text.h"
#include "report/vmmap_csv.h"
#include "util/strbuf.h"

#include <inttypes.h>
#include <string.h>

static void
write_record(FILE *out, const struct footprint_process *p, const struct footprint_category *c,
	     bool gpu, struct strbuf *tmp)
{
	bool rounded = false, lower = false;
	csv_text_field(out, p->name ? p->name : "", tmp);
	if (p->has_pid)
		fprintf(out, ",%" PRIu64, p->pid);
	else
		fputc(',', out);
	fputc(',', out);
	csv_text_field(out, c->name, tmp);
	fputs(gpu ? ",true" : ",false", out);
	for (int f = 0; f < FOOTPRINT_FIELDS; f++) {
		const struct footprint_figure *v = &c->f[f];
		fputc(',', out);
		if (!(p->columns & (1u << f)) || !v->known)
			continue;
		fprintf(out, "%" PRIu64, v->value);
		rounded |= v->slack != 0;
		lower |= v->at_least;
	}
	fprintf(out, ",%s,%s\r\n", rounded ? "true" : "false", lower ? "true" : "false");
}

void
footprint_csv_write(FILE *out, const struct footprint_capture *cap, bool all_categories)
{
	struct strbuf tmp = STRBUF_INIT;
	fputs("process,pid,category,gpu", out);
	for (int f = 0; f < FOOTPRINT_FIELDS; f++)
		fprintf(out, ",%s", footprint_fields[f].name);
	fputs(",rounded,lower_bound\r\n", out);
	for (size_t i = 0; i < cap->nprocs; i++) {
		const struct footprint_process *p = cap->procs[i];
		for (size_t k = 0; k < p->ncats; k++)
			if (footprint_category_shown(&p->cats[k], all_categories))
				write_record(out, p, &p->cats[k],
					     footprint_category_is_gpu(p->cats[k].name,
								       strlen(p->cats[k].name)),
					     &tmp);
		if (p->has_total)
			write_record(out, p, &p->total, false, &tmp);
	}
	strbuf_release(&tmp);
}
