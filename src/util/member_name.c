#include "util/member_name.h"

#include "util/strbuf.h"

#include <string.h>

char *
member_name_normal(const char *name, const char **why)
{
	if (name[0] == '/') {
		*why = "is an absolute path";
		return NULL;
	}
	struct strbuf sb = STRBUF_INIT;
	for (const char *p = name; *p;) {
		const char *e = strchr(p, '/');
		size_t len = e ? (size_t)(e - p) : strlen(p);
		if (len == 2 && p[0] == '.' && p[1] == '.') {
			strbuf_release(&sb);
			*why = "leaves its folder ('..')";
			return NULL;
		}
		if (len && !(len == 1 && p[0] == '.')) {
			if (sb.len)
				strbuf_addch(&sb, '/');
			strbuf_add(&sb, p, len);
		}
		p += len + (e != NULL);
	}
	if (!sb.len) {
		strbuf_release(&sb);
		*why = "is empty";
		return NULL;
	}
	return strbuf_detach(&sb, NULL);
}

enum { NAME_FILE = 1, NAME_FOLDER = 2 };

void
member_set_init(struct member_set *s)
{
	strmap_init(&s->names);
}

void
member_set_release(struct member_set *s)
{
	strmap_release(&s->names);
}

const char *
member_set_add_file(struct member_set *s, const char *normal)
{
	bool created;
	size_t len = strlen(normal);
	size_t *v = strmap_put(&s->names, normal, len, &created);
	if (!created)
		return *v == NAME_FILE ? "is there twice" : "is both a file and a folder";
	*v = NAME_FILE;
	/* Every folder above it, shallowest last: stop at one already seen as a folder. */
	for (size_t i = len; i-- > 0;) {
		if (normal[i] != '/')
			continue;
		v = strmap_put(&s->names, normal, i, &created);
		if (!created) {
			if (*v == NAME_FILE)
				return "is both a file and a folder";
			break;
		}
		*v = NAME_FOLDER;
	}
	return NULL;
}
