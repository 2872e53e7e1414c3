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
 * The longest name taken, in bytes as given: PATH_MAX on Linux and more
 * than macOS's 1024, so no file a capture wrote is refused; a longer one
 * is no file's name, and refusing it before anything is kept for it
 * bounds what every reader holds per member.
 */
#define MEMBER_NAME_MAX 4096u

/*
 * The normal form of `name` (owned), or NULL with *why set to a phrase
 * ("is empty", "is an absolute path", "leaves its folder ('..')", "is
 * longer than 4096 bytes ...").
 */
char *member_name_normal(const char *name, const char **why);

/*
 * Names seen so far: files and the folders above them, as a tree. Each
 * node is keyed by its parent's number and its own last component, so a
 * name of L bytes adds about L bytes of keys however deep it is (keying
 * every folder by its full path would add L*L/4 for "a/a/.../x").
 */
struct member_set {
	struct strmap nodes;   /* value: node number << 1, | 1 for a file */
	size_t count;          /* nodes so far; the root, number 0, is not stored */
};

void member_set_init(struct member_set *s);
void member_set_release(struct member_set *s);
/*
 * Add the file `normal` (a normal form). NULL, or why it cannot be added:
 * "is there twice", "is both a file and a folder".
 */
const char *member_set_add_file(struct member_set *s, const char *normal);

#endif
