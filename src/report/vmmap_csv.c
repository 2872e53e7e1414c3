#include "report/vmmap_csv.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static void
csv_field(FILE *out, const char *s)
{
	if (!strpbrk(s, ",\"\r\n")) {
		fputs(s, out);
		return;
	}
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', out);
		fputc(*s, out);
	}
	fputc('"', out);
}

void
vmmap_csv_write(FILE *out, const struct vmmap_capture *cap)
{
	fputs("dump,process,pid,type,purge,count,vsize,resident,dirty,swapped\r\n", out);
	for (size_t i = 0; i < cap->ndumps; i++) {
		const struct vmmap_dump *d = cap->dumps[i];
		const struct vmmap_type_stats **types;
		size_t n = vmmap_dump_sorted_types(d, &types);
		for (size_t t = 0; t < n; t++) {
			for (int k = 0; k < VMMAP_PURGE_STATES; k++) {
				const struct vmmap_amounts *a = &types[t]->by_purge[vmmap_purge_order[k]];
				if (!a->count)
					continue;
				fprintf(out, "%zu,", i + 1);
				csv_field(out, d->process ? d->process : "");
				fputc(',', out);
				if (d->has_pid)
					fprintf(out, "%" PRIu64, d->pid);
				fputc(',', out);
				csv_field(out, types[t]->name);
				fprintf(out, ",%c,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64
					",%" PRIu64 "\r\n", vmmap_purge_char(vmmap_purge_order[k]),
					a->count, a->vsize, a->resident, a->dirty, a->swapped);
			}
		}
		free(types);
	}
}
