#include "util/member_name.h"

#include "util/strbuf.h"

#include <string.h>

/* Why a name past MEMBER_NAME_MAX is refused. */
static const char too_long[] = "is longer than 4096 bytes (PATH_MAX): no file has so long a name";

char *
member_name_normal(const char *name, const char **why)
{
	if (strnlen(name, MEMBER_NAME_MAX + 1) > MEMBER_NAME_MAX) {
		*why = too_long;
		return NULL;
	}
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

void
member_set_init(struct member_set *s)
{
	strmap_init(&s->nodes);
	s->count = 0;
}

void
member_set_release(struct member_set *s)
{
	strmap_release(&s->nodes);
}

/*
 * The node (parent, component): its value slot, created with a new number
 * when absent (*created set). The key is the parent's number's bytes then
 * the component, which member_name_normal() bounds.
 */
static size_t *
node_put(struct member_set *s, size_t parent, const char *comp, size_t len, bool *created)
{
	char key[sizeof(parent) + MEMBER_NAME_MAX];
	memcpy(key, &parent, sizeof(parent));
	memcpy(key + sizeof(parent), comp, len);
	size_t *v = strmap_put(&s->nodes, key, sizeof(parent) + len, created);
	if (*created)
		*v = ++s->count << 1;
	return v;
}

const char *
member_set_add_file(struct member_set *s, const char *normal)
{
	size_t parent = 0;   /* the root */
	bool created;
	for (const char *p = normal;;) {
		const char *e = strchr(p, '/');
		size_t len = e ? (size_t)(e - p) : strlen(p);
		if (len > MEMBER_NAME_MAX)
			return too_long;   /* not a normal form: member_name_normal() bounds it */
		size_t *v = node_put(s, parent, p, len, &created);
		if (!e) {
			if (!created)
				return (*v & 1) ? "is there twice" : "is both a file and a folder";
			*v |= 1;
			return NULL;
		}
		if (*v & 1)
			return "is both a file and a folder";
		parent = *v >> 1;
		p = e + 1;
	}
}
