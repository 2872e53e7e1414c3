#include "cli/formats.h"

#include "cli/options.h"

int
cli_parse_format(const char *value, unsigned accepts, enum output_format *out,
		 struct diag *err)
{
	const char *names[OUTPUT_FORMATS];
	enum output_format which[OUTPUT_FORMATS];
	size_t n = 0;
	for (int f = 0; f < OUTPUT_FORMATS; f++)
		if (accepts & FORMAT_BIT(f)) {
			names[n] = output_format_names[f];
			which[n++] = (enum output_format)f;
		}
	int i = cli_choice("format", value, names, n, err);
	if (i < 0)
		return -1;
	*out = which[i];
	return 0;
}
