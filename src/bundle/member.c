#include "bundle/member.h"

#include "util/beneath.h"
#include "util/member_name.h"

#include <stdlib.h>

int
member_open_beneath(const char *root, const char *name, const char *shown, struct diag *err)
{
	const char *why;
	char *normal = member_name_normal(name, &why);
	if (!normal)
		return diag_set(err, DIAG_DATA, shown, 0, 0, "is not read: its name %s", why);
	int fd = open_beneath(root, normal, shown, err);
	free(normal);
	return fd;
}
