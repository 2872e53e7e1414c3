#ifndef IOTALLY_MODEL_TRACK_CLASSIFY_H
#define IOTALLY_MODEL_TRACK_CLASSIFY_H

/*
 * What a tracking record's frames say about it: which frames are the
 * kernel itself, user space or a per-class marker, the module a record is
 * charged to, its category, and a frame's name in a folded stack.
 *
 * Pure functions of one record (and, for the category, the queue the
 * capture's command line named): they keep no state and never allocate,
 * except into the strbuf they are given. Returned names point into the
 * record (valid until it is reset) or are static.
 */

#include <stdbool.h>
#include <stddef.h>

#include "model/track_record.h"
#include "util/strbuf.h"

/* "<Class>::gMetaClass" frames mark per-class records; *len gets the class length. */
bool track_frame_metaclass(const struct track_record *r, const struct track_frame *f,
			   const char **cls, size_t *len);
/* A frame of the kernel itself (not a kext, not user space). */
bool track_frame_is_kernel(const struct track_record *r, const struct track_frame *f);
/* A user-space frame of the record's process. */
bool track_frame_is_user(const struct track_record *r, const struct track_frame *f);

/*
 * The module a record is charged to: its first frame that is neither the
 * kernel itself, a gMetaClass marker nor user space, else "kernel".
 * *len gets the length.
 */
const char *track_record_module(const struct track_record *r, size_t *len);

/*
 * The category of a record: "IOMap" for mappings, the class of its
 * gMetaClass frame, `queue` (the single queue the capture's command line
 * named, or NULL), "IOMalloc" or "IOWire" from the allocating frames, else
 * NULL. *len gets the length.
 */
const char *track_record_category(const struct track_record *r, const char *queue,
				  size_t *len);

/*
 * A frame's name in a folded stack: its symbol without offset, else its
 * module, else "[unknown]"; ';' and tabs, which the folded format uses,
 * become ':' and ' '.
 */
void track_frame_folded_name(const struct track_record *r, const struct track_frame *f,
			     struct strbuf *out);

#endif
