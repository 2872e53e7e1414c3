#ifndef IOTALLY_MODEL_CLASSES_H
#define IOTALLY_MODEL_CLASSES_H

/*
 * The classes model: what `ioclasscount` and `ioalloccount` would read from
 * one IOKitDiagnostics dictionary (a snapshot), for every snapshot a capture
 * holds.
 *
 * Counts are kept as read, as signed 64-bit values: the kernel's counters
 * are 32-bit `int`s, and every writer shows a negative one differently
 * (ioreg text sign-extends to 1844674407..., XML writes "-1", old ioclasscount
 * builds print 4294967295). Parsers turn each of those back into the signed
 * value; reports decide how to print it.
 *
 * A snapshot owns its names (copied, length-delimited: names may hold any
 * byte but NUL). A capture owns its snapshots.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/hashmap.h"
#include "util/regex.h"

/* The id of the JSON report (docs/json/classes.*): written by report/, read back by ingest/. */
#define CLASSES_SCHEMA "iotally.classes/1"
/* The id of the rows of `iotally classes --format ndjson` (docs/json/classes-ndjson.*). */
#define CLASSES_NDJSON_SCHEMA "iotally.classes-ndjson/1"

enum class_count_state {
	CLASS_COUNT_OK,
	CLASS_COUNT_UNREADABLE,  /* ioclasscount printed "?? (error reading/converting value)" */
	CLASS_COUNT_ABSENT,      /* a class-names query answered "<no such class>" */
};

struct class_count {
	char *name;              /* NUL-terminated copy */
	size_t len;
	int64_t value;           /* signed, as the kernel holds it (when state is OK) */
	enum class_count_state state;
	uint64_t line;           /* input line the entry came from */
};

enum alloc_kind {
	ALLOC_INSTANCE,
	ALLOC_CONTAINER,
	ALLOC_IOMALLOC,
	ALLOC_PAGEABLE,
	ALLOC_KINDS,
};

/* "Instance allocation", ... : the IOKitDiagnostics key, in ioalloccount's order. */
const char *alloc_kind_key(enum alloc_kind k);
/* The kind for an IOKitDiagnostics key, or -1. */
int alloc_kind_from_key(const char *key, size_t len);
/*
 * "instance", "container", "iomalloc", "pageable": the one name of each
 * allocation total, as metrics spell it ("alloc:instance": diff gates,
 * trend series) and as iotally's JSON and NDJSON key it.
 */
const char *alloc_kind_name(enum alloc_kind k);
/* The kind a name of alloc_kind_name() spells, or -1. */
int alloc_kind_from_name(const char *name);

enum classes_source {
	CLASSES_SRC_IOREG_TEXT,     /* ioreg -l: "IOKitDiagnostics" = {...} */
	CLASSES_SRC_IOREG_XML,      /* ioreg -a: <key>IOKitDiagnostics</key><dict> */
	CLASSES_SRC_IOCLASSCOUNT,   /* saved ioclasscount / ioalloccount output */
	CLASSES_SRC_KEXT_INFO,      /* OSBundleClasses OSMetaClassTrackingCount */
};

/* "ioreg-text", "ioreg-xml", "ioclasscount", "kext-info" (JSON and messages). */
const char *classes_source_name(enum classes_source s);

struct classes_snapshot {
	enum classes_source source;
	uint64_t line;               /* where the snapshot starts in the input */
	bool hex;                    /* ioreg -x numbers */
	bool query;                  /* saved class-names line: holds only the queried classes */
	bool has_classes;            /* the dictionary had a Classes entry (even an empty one) */

	struct class_count *classes; /* in input order */
	size_t nclasses, classes_alloc;
	/*
	 * Lookups by name: while every name so far came in strictly increasing
	 * byte order (ioreg writes them sorted), `indexed` is false, the index
	 * is empty and a lookup is a binary search of classes; the first name
	 * out of order puts every class into the index, which then answers.
	 */
	bool indexed;
	struct strmap index;         /* name -> index in classes, when indexed */

	int64_t alloc[ALLOC_KINDS];
	bool alloc_present[ALLOC_KINDS];
	uint64_t duplicates;         /* repeated class names, ignored after the first */
	bool truncated;              /* the input ended inside it: counts are partial */
};

struct classes_capture {
	struct classes_snapshot **snapshots;
	size_t nsnapshots, snapshots_alloc;
};

void classes_capture_init(struct classes_capture *cap);
void classes_capture_release(struct classes_capture *cap);
struct classes_snapshot *classes_capture_add(struct classes_capture *cap,
					     enum classes_source source,
					     uint64_t line);
/* Append every snapshot of `from` to `to`, leaving `from` empty. */
void classes_capture_move(struct classes_capture *to, struct classes_capture *from);

void classes_snapshot_free(struct classes_snapshot *s);

/*
 * Add one class. Returns the entry, or NULL when the name is already in
 * the snapshot (the first value stays; `duplicates` counts it).
 */
struct class_count *classes_snapshot_add(struct classes_snapshot *s,
					 const char *name, size_t len,
					 int64_t value, enum class_count_state state,
					 uint64_t line);
/* Exact, case-sensitive lookup, as ioclasscount does. NULL when absent. */
const struct class_count *classes_snapshot_find(const struct classes_snapshot *s,
						const char *name, size_t len);
/* Does the snapshot hold class counts (ioclasscount, ioreg) / any allocation total (ioalloccount, ioreg)? */
bool classes_snapshot_holds_counts(const struct classes_snapshot *s);
bool classes_snapshot_holds_totals(const struct classes_snapshot *s);

/*
 * A count as a 32-bit kernel counter: true and *out set when the value is
 * readable and fits in 32 signed bits (what CFNumberGetValue(SInt32) gives).
 */
bool class_count_as_int32(const struct class_count *c, int32_t *out);
/* Known, readable and not zero / below zero. */
bool class_count_is_nonzero(const struct class_count *c);
bool class_count_is_negative(const struct class_count *c);

/*
 * What ioclasscount makes of a count, the rule `iotally classes` warns by:
 * a negative 32-bit count is an over-released object, which the 64-bit
 * tool prints as its unsigned 64-bit value (*as32 set); a readable count
 * that is no 32-bit number cannot be converted and prints '??'; unreadable
 * and absent counts were said by the capture itself.
 */
enum class_count_problem {
	CLASS_COUNT_FINE,
	CLASS_COUNT_OVER_RELEASED,
	CLASS_COUNT_NOT_INT32,
};
enum class_count_problem class_count_problem(const struct class_count *c, int32_t *as32);

struct strbuf;
/*
 * What a negative allocation total means, as one warning sentence (the
 * totals' counterpart of the per-class negative-count warning): true with
 * the sentence added to `out`, false when total `k` is absent or not
 * negative. Every command that shows the totals says it.
 */
bool classes_alloc_negative_message(const struct classes_snapshot *s, enum alloc_kind k,
				    struct strbuf *out);

/*
 * ioclasscount's order: CFStringCompare with kCFCompareCaseInsensitive,
 * whose ASCII path folds A-Z to a-z and compares code units (so '_' sorts
 * before letters). Names equal when folded are ordered by their bytes so
 * the result is deterministic.
 */
int classes_name_cmp(const char *a, size_t alen, const char *b, size_t blen);

/*
 * Entries of a snapshot in listing order (caller frees *out, not the
 * entries), "<no such class>" answers of a saved class-names query included.
 */
size_t classes_snapshot_sorted(const struct classes_snapshot *s,
			       const struct class_count ***out);
/* Reorder entries by count descending (unreadable last), ties in listing order. */
void classes_sort_by_count(const struct class_count **v, size_t n);

/* Which classes a listing shows. */
struct classes_filter {
	const struct regex *const *match; /* any of these matches; none given: every name */
	size_t nmatch;
	bool nonzero;                /* leave out classes whose count is 0 */
	bool has_top;                /* only the `top` largest counts, largest first */
	uint64_t top;
};

bool classes_filter_selects(const struct classes_filter *f, const struct class_count *c);
/*
 * The selected entries in listing order (by count with `has_top`).
 * Caller frees *out.
 */
size_t classes_snapshot_select(const struct classes_snapshot *s,
			       const struct classes_filter *f,
			       const struct class_count ***out);

#endif
