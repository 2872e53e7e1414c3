#ifndef IOTALLY_MODEL_GPU_H
#define IOTALLY_MODEL_GPU_H

/*
 * What iotally counts as GPU memory in a vmmap dump, and the one `gpu`
 * metric family (docs/gpu.md). Declared here once: the report headline,
 * diff gates, trend metrics, NDJSON dump rows and the fleet queries all
 * mean these types and these fields.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * GPU memory as vmmap names it: every type whose full name starts with
 * "IOAccelerator" or "IOSurface", and "owned unmapped (graphics)" (GPU
 * memory with no CPU mapping). `name` must be a full name (model/vmmap.h,
 * vmmap_dump_finish).
 */
bool gpu_type_counts(const char *name, size_t len);

/*
 * The documented full name of a GPU type that region lines print cut to
 * vmmap's 24-byte column ("owned unmapped (graphics" for "owned unmapped
 * (graphics)"), or NULL. Used when the dump has no summary row to take
 * the full name from.
 */
const char *gpu_type_full_name(const char *name, size_t len);

/* The fields of a vmmap type that a metric can name ("vmmap:TYPE.FIELD"). */
enum vmmap_metric_field {
	VMMAP_FIELD_COUNT,
	VMMAP_FIELD_VSIZE,
	VMMAP_FIELD_RESIDENT,
	VMMAP_FIELD_DIRTY,
	VMMAP_FIELD_SWAPPED,
	VMMAP_FIELD_VOLATILE,
	VMMAP_FIELD_NONVOLATILE,
	VMMAP_FIELD_EMPTY,
	VMMAP_FIELDS,
};

enum metric_unit {
	METRIC_COUNT,
	METRIC_BYTES,
};

/* How a capture has a field: region lines, the summary table, or both. */
#define VMMAP_FROM_LINES   1u
#define VMMAP_FROM_SUMMARY 2u

struct vmmap_field_desc {
	const char *name;       /* as metrics spell it: "vsize" */
	enum metric_unit unit;
	bool gpu;               /* in the gpu family: vmmap:gpu.<name> */
	unsigned sources;       /* VMMAP_FROM_*: which captures can have it */
	/* Region lines: the 1-based place of its column in [VSIZE RSDNT DIRTY
	 * SWAP] (the line must print at least that many), 0 = every line has
	 * it (the count). Summary: its enum vmmap_column, -1 = REGION COUNT. */
	unsigned line_column;
	int summary_column;
	bool gateable;          /* a diff gate can name it */
};

/* Indexed by enum vmmap_field. */
extern const struct vmmap_field_desc vmmap_fields[VMMAP_FIELDS];

/* The field a metric names, or -1. */
int vmmap_field_find(const char *name);
/* "count, vsize, resident, ..." of the fields that `sources` can have, for messages. */
const char *vmmap_field_list(unsigned sources);

struct vmmap_amounts;
/*
 * A field of a region line's amounts (model/vmmap.h): the count and the
 * sizes a line prints; 0 for a field only summary tables have. The one
 * mapping of fields to amounts that diff gates, trend series and the gpu
 * family read.
 */
uint64_t vmmap_amounts_field(const struct vmmap_amounts *a, enum vmmap_metric_field f);

/* The gpu family's metric name of a field: "gpu.vsize". */
#define GPU_FAMILY "gpu"

struct vmmap_dump;

/*
 * Do the dump's region lines give field f? Format 2.2/2.3 region lines
 * print only VSIZE, so resident, dirty and swapped are unknown there
 * (never 0). A dump without region lines has every field as an empty sum
 * (its summary table says what it has).
 */
bool vmmap_dump_lines_have(const struct vmmap_dump *d, enum vmmap_metric_field f);

/*
 * Does the dump say what GPU memory it has, even none? True when it lists
 * a GPU type, or is whole enough that a GPU type it does not list has none
 * (a region section's header, a summary table read to its TOTAL rows).
 * False for an excerpt (a few grepped header, row or region lines) or
 * iotally's JSON made for other types (vmmap_dump.gpu_left_out) that
 * lists none: its GPU figures are unknown, never 0 (docs/gpu.md).
 */
bool vmmap_dump_gpu_absence_known(const struct vmmap_dump *d);
/*
 * Why not, as a noun phrase: "an excerpt (...)", or "iotally's JSON, made
 * for other region types than the GPU ones,".
 */
const char *vmmap_dump_gpu_unknown_why(const struct vmmap_dump *d);

/*
 * Does a selection of types (a capture's filter) take in the GPU types, so
 * that a GPU type it does not hold has none? Every type, or one that
 * selects IOAccelerator and IOSurface as `vmmap --types` does (iotally's
 * default). A JSON report made for other types says nothing of GPU memory.
 */
struct vmmap_filter;
bool gpu_types_selected(const struct vmmap_filter *f);

/*
 * One figure of the gpu family of a dump: field f summed over its GPU
 * types. From the region lines (exact; counted regions, as every table
 * shows them) when the dump has any, else from its summary table (vmmap's
 * rounded figures: *rounded set). False when the dump does not have the
 * figure (no such column printed): unknown, never 0.
 */
bool vmmap_dump_gpu_figure(const struct vmmap_dump *d, enum vmmap_metric_field f,
			   uint64_t *out, bool *rounded);

/*
 * The footprint kind (model/footprint.h). GPU memory as Apple's footprint
 * names its categories: exactly these names (docs/gpu.md, docs/footprint.md).
 * footprint:gpu.dirty is the Dirty column summed over them: the memory the
 * kernel charges the process for them.
 */
extern const char *const footprint_gpu_categories[];
extern const size_t footprint_gpu_ncategories;
bool footprint_category_is_gpu(const char *name, size_t len);

/* The columns of footprint's category table, in the order it prints them. */
enum footprint_field {
	FOOTPRINT_DIRTY,
	FOOTPRINT_SWAPPED,
	FOOTPRINT_CLEAN,
	FOOTPRINT_RECLAIMABLE,
	FOOTPRINT_WIRED,
	FOOTPRINT_REGIONS,
	FOOTPRINT_FIELDS,
};

struct footprint_field_desc {
	const char *name;       /* as metrics spell it: "dirty" */
	const char *column;     /* as footprint heads it: "Dirty", "(Swapped)" */
	enum metric_unit unit;
	bool gpu;               /* in the gpu family: footprint:gpu.<name> */
	bool gateable;          /* a diff gate can name it */
};

/* Indexed by enum footprint_field. */
extern const struct footprint_field_desc footprint_fields[FOOTPRINT_FIELDS];

/* The field a metric names ("dirty"), or -1. */
int footprint_field_find(const char *name, size_t len);
/* The field a column heading names ("Dirty", "(Wired)"), or -1. */
int footprint_field_for_column(const char *heading, size_t len);

#endif
