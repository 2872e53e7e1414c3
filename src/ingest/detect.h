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

enum input_kind {
	INPUT_EMPTY,
	INPUT_BINARY,
	INPUT_BPLIST,          /* binary property list */
	INPUT_XML_PLIST,       /* ioreg -a, kext info */
	INPUT_XML_OTHER,
	INPUT_JSON,            /* JSON not written by iotally */
	INPUT_IOTALLY_JSON,    /* {"schema": "iotally.<kind>/N", ...} */
	INPUT_VMMAP,           /* also vmmap's failure message, broken region lines */
	INPUT_TOOL_REPORT,     /* leaks, malloc_history: the header block of vmmap, another tool */
	INPUT_IOREG_TEXT,
	INPUT_IOCLASSCOUNT,
	INPUT_TRACK,           /* ioclasscount --track / --leaks / --maps */
	INPUT_FOOTPRINT,       /* footprint's text output (not its JSON) */
	INPUT_HEAP,            /* Apple's heap report (heap PID) */
	INPUT_TEXT,            /* text of no kind we know */
};

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
