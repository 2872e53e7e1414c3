#ifndef IOTALLY_MODEL_HIERARCHY_H
#define IOTALLY_MODEL_HIERARCHY_H

/*
 * The class hierarchy: class name -> direct superclass, as recorded by a
 * kext-info capture (OSBundleClasses) or by `ioreg -i` (class chains).
 * ioclasscount's counts are "adjusted": the kernel adds 1 to a class for
 * every direct subclass that has at least one instance, so
 *
 *     count(C) = direct(C) + |{ S : super(S) == C and count(S) >= 1 }|
 *
 * and with a hierarchy the direct counts can be recovered.
 *
 * The hierarchy owns its names. Build it with hierarchy_intern() and
 * hierarchy_set_super(), then call hierarchy_finish() once before walking
 * it: that fills the sorted child lists and finds classes that no root
 * reaches (a superclass cycle, only possible in corrupt input).
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/classes.h"
#include "util/hashmap.h"

#define HIER_NONE SIZE_MAX

struct hier_class {
	char *name;
	size_t len;
	size_t super;            /* index of the direct superclass, or HIER_NONE */
	bool defined;            /* recorded as a class, not only named as a superclass */
	bool has_tracking;       /* OSMetaClassTrackingCount was recorded */
	int64_t tracking;
	bool reachable;          /* a root reaches it (set by hierarchy_finish) */
	size_t *children;        /* sorted in listing order (set by hierarchy_finish) */
	size_t nchildren, children_alloc;
};

enum hier_source_bits {
	HIER_FROM_KEXT_INFO = 1,       /* OSBundleClasses */
	HIER_FROM_IOREG_TEXT = 2,      /* ioreg -i text headers */
	HIER_FROM_IOREG_XML = 4,       /* ioreg -a -i IOObjectInheritance */
};

struct hierarchy {
	struct hier_class *classes;
	size_t nclasses, classes_alloc;
	struct strmap index;
	unsigned sources;              /* enum hier_source_bits */
	uint64_t conflicts;            /* a second, different superclass for a class (ignored) */
	size_t unreachable;            /* classes in a superclass cycle */
	bool finished;
};

void hierarchy_init(struct hierarchy *h);
void hierarchy_release(struct hierarchy *h);
bool hierarchy_empty(const struct hierarchy *h);

/* The index of a class, added (undefined, no superclass) when new. */
size_t hierarchy_intern(struct hierarchy *h, const char *name, size_t len);
/* The index of a class, or HIER_NONE. */
size_t hierarchy_find(const struct hierarchy *h, const char *name, size_t len);

/*
 * Record super(child) = parent. A class that already has a different
 * superclass keeps the first one and `conflicts` counts the disagreement;
 * a class given as its own superclass is refused. 0, or -1 when refused
 * or conflicting.
 */
int hierarchy_set_super(struct hierarchy *h, size_t child, size_t parent);
void hierarchy_set_tracking(struct hierarchy *h, size_t cls, int64_t count);

void hierarchy_finish(struct hierarchy *h);

/* Roots (classes without a superclass), sorted in listing order. Caller frees. */
size_t hierarchy_roots(const struct hierarchy *h, size_t **out);

/*
 * The direct count of class `cls` given the adjusted counts of snapshot
 * `s`: its count minus its direct subclasses with count >= 1.
 * *live_subclasses receives that number of subclasses. false when the
 * class has no readable count in the snapshot.
 */
bool hierarchy_direct_count(const struct hierarchy *h, size_t cls,
			    const struct classes_snapshot *s, int64_t *direct,
			    uint64_t *live_subclasses);

/* A class whose count is below its number of direct subclasses in use. */
struct hier_identity_failure {
	size_t cls;
	int64_t count;
	uint64_t live_subclasses;
};

/*
 * Check count(C) >= live direct subclasses for every class of the
 * hierarchy that has a count >= 0 in `s` (a direct count below zero cannot
 * be: the captures disagree, or a counter was over-released). Returns how many
 * fail; *out (caller frees) lists them in listing order.
 */
size_t hierarchy_check_identity(const struct hierarchy *h, const struct classes_snapshot *s,
				struct hier_identity_failure **out);

/*
 * Classes of the hierarchy whose recorded OSMetaClassTrackingCount differs
 * from their count in `s`; *first (may be NULL) receives the first one in
 * listing order, or HIER_NONE.
 */
size_t hierarchy_tracking_mismatches(const struct hierarchy *h,
				     const struct classes_snapshot *s, size_t *first);

/*
 * Depth-first walk of the subtree under `root` in listing order, without
 * recursion (a hostile chain may be a million classes deep). The callback
 * gets each class with its depth below `root` (0 for the root itself).
 */
typedef void (*hierarchy_visit_fn)(const struct hierarchy *h, size_t cls,
				   size_t depth, void *ctx);
void hierarchy_walk(const struct hierarchy *h, size_t root,
		    hierarchy_visit_fn visit, void *ctx);

#endif
