#include "report/vmmap_csv.h"

#include "model/gpu.h"

#include "util/escape.h"
#include "util/strbuf.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* Leading bytes that make a spreadsheet read a cell as a formula. */
static bool
csv_formula_start(const char *s)
{
	return *s && strchr("=+-@\t\r", *s);
}

void
csv_text_field(FILE *out, const char *s, struct strbuf *tmp)
{
	bool formula = csv_formula_start(s);
	const char *shown = escape_str(tmp, s);   /* no CR or LF after this */
	bool quote = strpbrk(shown, ",\"") != NULL;
	if (quote)
		fputc('"', out);
	if (formula)
		fputc('\'', out);
	for (; *shown; shown++) {
		if (*shown == '"')
			fputc('"', out);
		fputc(*shown, out);
	}
	if (quote)
		fputc('"', out);
}

/* ",N", or an empty cell where the dump's region lines do not print the column. */
static void
csv_line_figure(FILE *out, const struct vmmap_dump *d, enum vmmap_metric_field f, uint64_t v)
{
	if (vmmap_dump_lines_have(d, f))
		fprintf(out, ",%" PRIu64, v);
	else
		fputc(',', out);
}

void
vmmap_csv_write_header(FILE *out)
{
	fputs("dump,process,pid,type,purge,count,vsize,resident,dirty,swapped\r\n", out);
}

void
vmmap_csv_write_dump(FILE *out, const struct vmmap_dump *d, size_t index)
{
	struct strbuf tmp = STRBUF_INIT;
	const struct vmmap_type_stats **types;
	size_t n = vmmap_dump_sorted_types(d, &types);
	for (size_t t = 0; t < n; t++) {
		for (int k = 0; k < VMMAP_PURGE_STATES; k++) {
			const struct vmmap_amounts *a = &types[t]->by_purge[vmmap_purge_order[k]];
			if (!a->count)
				continue;
			fprintf(out, "%zu,", index);
			csv_text_field(out, d->process ? d->process : "", &tmp);
			fputc(',', out);
			if (d->has_pid)
				fprintf(out, "%" PRIu64, d->pid);
			fputc(',', out);
			csv_text_field(out, types[t]->name, &tmp);
			fprintf(out, ",%c,%" PRIu64 ",%" PRIu64,
				vmmap_purge_char(vmmap_purge_order[k]), a->count, a->vsize);
			csv_line_figure(out, d, VMMAP_FIELD_RESIDENT, a->resident);
			csv_line_figure(out, d, VMMAP_FIELD_DIRTY, a->dirty);
			csv_line_figure(out, d, VMMAP_FIELD_SWAPPED, a->swapped);
			fputs("\r\n", out);
		}
	}
	free(types);
	strbuf_release(&tmp);
}

void
vmmap_csv_write(FILE *out, const struct vmmap_capture *cap)
{
	vmmap_csv_write_header(out);
	for (size_t i = 0; i < cap->ndumps; i++)
		vmmap_csv_write_dump(out, cap->dumps[i], i + 1);
}
