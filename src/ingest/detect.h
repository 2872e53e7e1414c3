#ifndef IOTALLY_INGEST_DETECT_H
#define IOTALLY_INGEST_DETECT_H

/*
 * Recognise what an input is from its first bytes, not from its name, so
 * that commands can dispatch on content and errors can say what a file
 * looks like when it is not what a command expects.
 */

#include <stdbool.h>
#include <stddef.h>

/* How much of the start of an input the detector wants to see. */
#define INPUT_DETECT_BYTES 65536

/*
 * The input kinds, one row each: the table of what a file can be. A row
 * names the kind (INPUT_<ID>), what a message says it is and, for a text
 * capture, its recogniser.
 *
 * INPUT_SHAPES, X(ID, description): told apart by the shape of their first
 * bytes before any recogniser runs (input_detect()), or named by one.
 * XML_PLIST: ioreg -a, kext info; JSON: not iotally's; IOTALLY_JSON:
 * {"schema": "iotally.<kind>/N", ...}; TOOL_REPORT: leaks, malloc_history
 * (the header block of vmmap, another tool); TEXT: what no recogniser took.
 */
#define INPUT_SHAPES(X) \
	X(EMPTY, "an empty file") \
	X(BINARY, "binary data") \
	X(BPLIST, "a binary property list") \
	X(XML_PLIST, "an XML property list") \
	X(XML_OTHER, "an XML document") \
	X(JSON, "a JSON document") \
	X(IOTALLY_JSON, "iotally JSON output") \
	X(TOOL_REPORT, "a report of another memory tool (leaks, malloc_history), " \
		       "which iotally does not read") \
	X(TEXT, "text that is none of the captures iotally reads")

/*
 * INPUT_CAPTURES, X(ID, recogniser, description): the text captures, whose
 * recognisers are tried in this order on text of none of the shapes above;
 * the first that names a kind decides. A recogniser is defined in its
 * format's own module and returns INPUT_<ID>, a kind its evidence names
 * (vmmap's: another tool's report) or INPUT_TEXT for none. heap's runs
 * before vmmap's, which takes heap's Analysis Tool line for another tool's.
 * HEAP: Apple's heap report (heap PID); VMMAP: also vmmap's failure message
 * and broken region lines; FOOTPRINT: its text output (not its JSON).
 */
#define INPUT_CAPTURES(X) \
	X(HEAP, heap_input_kind, "a heap report") \
	X(VMMAP, vmmap_input_kind, "a vmmap dump") \
	X(FOOTPRINT, footprint_input_kind, "footprint output") \
	X(TRACK, track_input_kind, "an ioclasscount --track/--leaks/--maps capture") \
	X(IOREG_TEXT, ioreg_text_input_kind, "ioreg text output") \
	X(IOCLASSCOUNT, ioclasscount_input_kind, "ioclasscount output")

#define INPUT_SHAPE_ENUM(id, description) INPUT_##id,
#define INPUT_CAPTURE_ENUM(id, recognise, description) INPUT_##id,
enum input_kind {
	INPUT_SHAPES(INPUT_SHAPE_ENUM)      /* INPUT_EMPTY first: 0 ends a list of kinds */
	INPUT_CAPTURES(INPUT_CAPTURE_ENUM)
};
#undef INPUT_SHAPE_ENUM
#undef INPUT_CAPTURE_ENUM

/* The recognisers of INPUT_CAPTURES, each over the first bytes of an input. */
#define INPUT_RECOGNISER_DECLARE(id, recognise, description) \
	enum input_kind recognise(const char *p, size_t n);
INPUT_CAPTURES(INPUT_RECOGNISER_DECLARE)
#undef INPUT_RECOGNISER_DECLARE

enum input_kind input_detect(const char *p, size_t n);

struct line_reader;
struct diag;
/* The kind of what a line reader is about to deliver, without consuming it. */
int input_detect_reader(struct line_reader *r, enum input_kind *kind, struct diag *err);

/*
 * The "schema" value of iotally JSON ("iotally.vmmap/1") found in the first
 * bytes, copied to out (NUL-terminated); 0, or -1 when there is none.
 */
int input_iotally_schema(const char *p, size_t n, char *out, size_t outsz);

/*
 * A tar archive (the "ustar" magic of its first header), e.g. a capture
 * bundle. Checked apart from input_detect(): a named bundle never reaches
 * it, so this is a bundle given where only a capture can be read.
 */
bool input_is_tar(const char *p, size_t n);

/*
 * Lines ended by CR alone (classic Mac OS line ends): a CR before more
 * text and no LF in the first n bytes. No vmmap, ioreg or ioclasscount
 * ever wrote them (all are Mac OS X tools, LF only), so such a file was
 * converted on its way; readers split at LF and would see one line.
 */
bool input_has_cr_line_ends(const char *p, size_t n);

/* "a vmmap dump", "binary data", "an XML property list", ... */
const char *input_kind_describe(enum input_kind kind);

#endif
