#ifndef IOTALLY_UTIL_MEMBER_NAME_H
#define IOTALLY_UTIL_MEMBER_NAME_H

/*
 * The one rule for the names of a bundle's files: member names of a tar
 * archive, file paths a manifest records, sample folders of a series. The
 * readers (ingest/bundle.c, util/arcread.c) and the redaction rewriter
 * (capture/redact_tree.c) all apply it, so that a name one of them takes
 * is the name the others see.
 *
 * A name is relative and stays inside its folder: it is cut into
 * components at '/', empty and "." components are dropped (so "b//x",
 * "b/./x", "./b/x" and "b/x/." are all "b/x"), and a ".." component or a
 * leading '/' refuses it. Two spellings of one name are one name: a set
 * of names (member_set) refuses the second, and a name that is both a
 * file and a folder ("b/x" and "b/x/y").
 */

#include <stdbool.h>
#include <stddef.h>

#include "util/hashmap.h"

/*
 * The normal form of `name` (owned), or NULL with *why set to a phrase
 * ("is empty", "is an absolute path", "leaves its folder ('..')").
 */
char *member_name_normal(const char *name, const char **why);

/* Names seen so far: files and the folders above them. */
struct member_set {
	struct strmap names;   /* value: 1 a file, 2 a folder */
};

void member_set_init(struct member_set *s);
void member_set_release(struct member_set *s);
/*
 * Add the file `normal` (a normal form). NULL, or why it cannot be added:
 * "is there twice", "is both a file and a folder".
 */
const char *member_set_add_file(struct member_set *s, const char *normal);

#endif
