#ifndef IOTALLY_BUNDLE_MEMBER_H
#define IOTALLY_BUNDLE_MEMBER_H

/*
 * Opening a file of a bundle folder by the name a manifest records or a
 * walk of the folder found: the name is put in normal form by the one
 * member-name rule (util/member_name.h: no absolute path, no "..", "b//x"
 * is "b/x"), then opened beneath the folder with util/beneath.h
 * (O_NOFOLLOW on every component, a regular file only, checked after
 * opening). Every reader of a bundle folder opens its files here or
 * through line_reader_map_folder_file(), which applies the same
 * open_beneath(): the manifest reader (ingest/bundle.c), the captures it
 * maps, and the redaction rewriter (capture/redact_tree.c).
 *
 * The two rules stay in util/ because util/ applies them too (tar member
 * names in util/arcread.c, mapped folder files in util/linereader.c);
 * this is where the bundle layer joins them.
 */

#include "util/diag.h"

/*
 * A descriptor open for reading the file `name` of the bundle folder
 * `root`, or -1 with *err naming `shown`: DIAG_DATA when the name rule
 * refuses `name` or the file is a link, folder, pipe or device,
 * DIAG_NOINPUT when it is missing.
 */
int member_open_beneath(const char *root, const char *name, const char *shown,
			struct diag *err);

#endif
