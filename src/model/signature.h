#ifndef IOTALLY_MODEL_SIGNATURE_H
#define IOTALLY_MODEL_SIGNATURE_H

/*
 * Leak signatures (docs/signatures.md): a short, stable description of
 * what grew between two captures, the same on every machine and OS build
 * where the same leak happens, so that many pairs can be bucketed like
 * crash reports.
 *
 * A signature is a list of components, one per thing that grew past the
 * rule's thresholds, each in one section:
 *   gpu    a vmmap GPU type, purge state and the size bucket of the
 *          regions that grew ("the unit"), not how many grew;
 *   class  an IOKit class whose instance count grew;
 *   track  a tracked call site that is new or grew: module and symbol of
 *          its first frame that is not the kernel's allocator, without
 *          offset, address or argument list;
 *   fp     a footprint category whose dirty bytes grew.
 * The canonical text is the rule's name followed by the components'
 * keys, in section order then by key; nothing in it depends on sizes
 * beyond their bucket, pids, addresses, paths, user names or times. The
 * id is the first SIGNATURE_ID_DIGITS hex digits of its SHA-256. A change
 * to anything that decides the text (thresholds, bucket edges, key
 * spelling, the caps) is a new SIGNATURE_RULE, never a silent move.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The rule: its name and version, the first word of every canonical text. */
#define SIGNATURE_RULE "iotsig/1"
#define SIGNATURE_ID_DIGITS 12
#define SIGNATURE_ID_SIZE (SIGNATURE_ID_DIGITS + 1)

enum signature_section {
	SIGNATURE_TREND,      /* a series' verdict: LEAK, GROWING, PLATEAU */
	SIGNATURE_GPU,
	SIGNATURE_CLASS,
	SIGNATURE_TRACK,
	SIGNATURE_FP,
	SIGNATURE_SECTIONS,
};

/* "trend", "gpu", "class", "track", "fp". */
const char *signature_section_name(enum signature_section s);

/* Thresholds of the rule (docs/signatures.md; part of SIGNATURE_RULE). */
#define SIGNATURE_GPU_BYTES (32ull << 20)      /* a group whose bytes grew this much */
#define SIGNATURE_GPU_UNITS 8                  /* or whose regions grew this many ... */
#define SIGNATURE_GPU_UNITS_BYTES (4ull << 20) /* ... and by at least this many bytes */
#define SIGNATURE_CLASS_MIN 8                  /* instances, and 10 % of BEFORE */
#define SIGNATURE_TRACK_BYTES (1ull << 20)     /* a new or grown call site */
#define SIGNATURE_FP_BYTES (64ull << 20)       /* dirty bytes, and 20 % of BEFORE */
#define SIGNATURE_PER_SECTION 3                /* components kept per section */

struct signature_component {
	enum signature_section section;
	char *key;          /* canonical: no sizes beyond buckets, no addresses */
	char *label;        /* for people */
	uint64_t bytes;     /* growth, to rank within the section */
	uint64_t count;
};

struct signature {
	struct signature_component *c;
	size_t n, alloc;
	/* Filled by signature_finish(): */
	bool finished;
	char *canonical;    /* "iotsig/1 gpu:...; class:..."; NULL when nothing grew */
	char *label;
	char id[SIGNATURE_ID_SIZE];
	uint64_t growth_bytes;   /* bytes of the kept components */
	uint64_t growth_count;   /* instances / regions / allocations of the kept components */
	/* What the captures say of where and when (owned, NULL when unknown);
	 * statistics of a bucket, never part of the key. */
	char *os_version, *machine, *captured;
};

void signature_init(struct signature *s);
void signature_release(struct signature *s);

/*
 * Add a component (the key is copied; its label is the rule's, made from
 * the section and key). A key added twice in one section is one
 * component, its growth summed (saturating).
 */
void signature_add(struct signature *s, enum signature_section sec, const char *key,
		   uint64_t bytes, uint64_t count);
/* Set a statistic: *field = a copy of value (NULL or "" leaves it unset). */
void signature_set_meta(char **field, const char *value);

/*
 * Keep the SIGNATURE_PER_SECTION largest components of each section (by
 * bytes, then count, then key), order them by section then key, and make
 * the canonical text, id and label. Nothing grew: canonical stays NULL.
 */
void signature_finish(struct signature *s);
/* Has it a signature (something grew)? Only after signature_finish(). */
bool signature_has(const struct signature *s);

/*
 * The label of a canonical text of SIGNATURE_RULE: each component's words
 * for people, "; "-separated, made from its section and key alone (so a
 * text has one label, whoever computed it): `IOSurface non-volatile +16 MiB
 * regions`, `OSDictionary +instances`, `M: S +bytes`, `footprint C dirty
 * +bytes`, `series LEAK`. 0 and *label (owned), or -1 when the text is not
 * the rule's followed by a component.
 */
int signature_label_of(const char *canonical, char **label);

/* A signature's growth, to word a label with (a bucket's medians, a pair's own). */
struct signature_figures {
	uint64_t bytes, count;
};

/*
 * The same label with the growth in it where the signature has one
 * component besides its `trend` one (then the growth is that component's):
 * `OSDictionary +394 instances`, `M: S +1 MiB`; a GPU component names its
 * unit, so its words are unchanged. `fig` NULL: signature_label_of().
 */
int signature_label_with(const char *canonical, const struct signature_figures *fig,
			 char **label);

/* One component of a canonical text: its section and key (pointing into the text). */
struct signature_part {
	enum signature_section section;
	const char *key;
	size_t len;
};

/*
 * The components of a canonical text of SIGNATURE_RULE, in its order
 * (*parts owned, its keys point into `canonical`). 0, or -1 as
 * signature_label_of().
 */
int signature_parts_of(const char *canonical, struct signature_part **parts, size_t *n);

/*
 * A growth in bytes as labels and the signatures table word it: "384 MiB",
 * "400.88 MiB" (binary units, at most two decimals; the exact bytes are in
 * JSON and NDJSON). The one place labels format bytes.
 */
void signature_bytes_text(uint64_t bytes, char out[32]);

struct strbuf;
/* A component's words, as in a label (without figures). */
void signature_part_label(const struct signature_part *part, struct strbuf *out);

/* The id of a canonical text: the first SIGNATURE_ID_DIGITS hex of its SHA-256. */
void signature_id_of(const char *canonical, char id[SIGNATURE_ID_SIZE]);

/*
 * The size bucket of a region (power of two nearest its size, by the
 * geometric midpoint): log2 of the bucket, so 100..181 MiB is 27 (128 MiB).
 */
unsigned signature_size_bucket(uint64_t vsize);
/* "128M", "256K", "2G": a bucket written for keys and labels. */
void signature_bucket_text(unsigned bucket, char *out, size_t size);

/*
 * A call site's symbol as a key: the argument list (from the first '('
 * outside angle brackets), a trailing " const" and template arguments
 * (collapsed to <T>) dropped; written to out (at most size - 1 bytes).
 */
void signature_symbol_text(const char *sym, size_t len, char *out, size_t size);

#endif
