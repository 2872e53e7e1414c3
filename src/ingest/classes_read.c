#include "ingest/classes_read.h"

#include "ingest/classes_xml_read.h"
#include "ingest/detect.h"
#include "ingest/ioclasscount_text.h"
#include "ingest/ioreg_text.h"

static int
refuse(const char *path, enum input_kind kind, struct diag *err)
{
	switch (kind) {
	case INPUT_EMPTY:
		return diag_set(err, DIAG_DATA, path, 0, 0, "the input is empty");
	case INPUT_BPLIST:
		return diag_set(err, DIAG_DATA, path, 0, 0,
				"this is a binary property list (bplist00); convert it with "
				"'plutil -convert xml1 FILE' and read the XML");
	default:
		return diag_set(err, DIAG_DATA, path, 0, 0,
				"this is %s, not an IOKitDiagnostics capture (ioreg -l text, "
				"an ioreg -a or kext-info XML property list, or ioclasscount output)",
				input_kind_describe(kind));
	}
}

static int
check_needs(const char *path, enum input_kind kind, const struct classes_capture *cap,
	    const struct hierarchy *h, const struct classes_read_opts *opts,
	    struct diag *err)
{
	if (opts->need_hierarchy && (!h || hierarchy_empty(h)))
		return diag_set(err, DIAG_DATA, path, 0, 0,
				"%s holds no class hierarchy; one comes from a kext-info property "
				"list (OSBundleClasses, from OSKextCopyLoadedKextInfo) or from "
				"'ioreg -i' output (text or -a XML)", input_kind_describe(kind));
	if (!opts->need_counts || cap->nsnapshots)
		return 0;
	if (kind == INPUT_IOREG_TEXT)
		return diag_set(err, DIAG_DATA, path, 0, 0,
				"no \"IOKitDiagnostics\" = {...} property line in this ioreg output; "
				"it is a property of the root entry: save it with 'ioreg -l -w0 -d1'");
	return diag_set(err, DIAG_DATA, path, 0, 0,
			"no ioclasscount or ioalloccount output lines in this input");
}

int
classes_read(struct line_reader *r, struct classes_capture *cap, struct hierarchy *h,
	     const struct classes_read_opts *opts, struct diag_list *warnings,
	     struct diag *err)
{
	int rc;
	enum input_kind kind;
	line_reader_raise_max(r, CLASSES_MAX_LINE);
	if (input_detect_reader(r, &kind, err) < 0)
		return -1;
	switch (kind) {
	case INPUT_IOREG_TEXT:
		rc = ioreg_text_read(r, cap, h, opts, warnings, err);
		break;
	case INPUT_XML_PLIST:
		rc = classes_xml_read(r, cap, h, opts, warnings, err);
		break;
	case INPUT_IOCLASSCOUNT:
		rc = ioclasscount_text_read(r, cap, opts, warnings, err);
		break;
	default:
		return refuse(r->path, kind, err);
	}
	if (rc < 0)
		return -1;
	if (h)
		hierarchy_finish(h);
	return check_needs(r->path, kind, cap, h, opts, err);
}

int
classes_read_file(const char *path, struct classes_capture *cap, struct hierarchy *h,
		  const struct classes_read_opts *opts, struct diag_list *warnings,
		  struct diag *err)
{
	struct line_reader r;
	if (line_reader_open(&r, path, 0, err) < 0)
		return -1;
	int rc = classes_read(&r, cap, h, opts, warnings, err);
	line_reader_close(&r);
	return rc;
}
