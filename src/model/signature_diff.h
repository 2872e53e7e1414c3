#ifndef IOTALLY_MODEL_SIGNATURE_DIFF_H
#define IOTALLY_MODEL_SIGNATURE_DIFF_H

/*
 * The components of a signature (model/signature.h) read from each kind's
 * before/after diff, by the thresholds of SIGNATURE_RULE
 * (docs/signatures.md). Each adds what grew; none finishes the signature.
 */

#include "model/diff_classes.h"
#include "model/diff_footprint.h"
#include "model/diff_track.h"
#include "model/diff_vmmap.h"
#include "model/signature.h"

/*
 * GPU types of two dumps with region lines: per purge state (N and '-':
 * volatile and empty regions are the system's to reclaim) and size bucket,
 * the regions and bytes that grew. Also the OS version and time the AFTER
 * dump's header gives.
 */
void signature_add_vmmap(struct signature *s, const struct diff_vmmap *d);
/* Classes whose count grew; containers only when nothing else did. */
void signature_add_classes(struct signature *s, const struct diff_classes *d);
/* Call sites that are new or grew, by their first frame past the allocator. */
void signature_add_track(struct signature *s, const struct diff_track *d);
/* Footprint categories whose dirty bytes grew. */
void signature_add_footprint(struct signature *s, const struct diff_footprint *d);

#endif
