#include "ingest/classes_xml_read.h"

#include "ingest/plist.h"
#include "util/size.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

enum xrole {
	XR_OTHER,
	XR_DIAG,          /* the IOKitDiagnostics dictionary */
	XR_CLASSES,       /* its Classes dictionary */
	XR_INHERIT,       /* an IOObjectInheritance array */
	XR_IGNORED,       /* a value inside Classes that is not a number */
};

struct xframe {
	enum xrole role;
	bool is_dict;
	struct classes_snapshot *snap;   /* XR_DIAG, XR_CLASSES */
	char *meta_name, *super_name, *object_class;
	bool has_tracking;
	int64_t tracking;
	char **inherit;
	size_t ninherit, inherit_alloc;
};

#define TOP_KEYS_SHOWN 6

struct xml_reader {
	struct classes_capture *cap;
	struct classes_capture kext;     /* counts from OSMetaClassTrackingCount */
	struct hierarchy *h;
	const char *path;
	struct diag_list *warnings;
	struct xframe *frames;
	size_t nframes, frames_alloc;
	size_t ndiag;
	/* What the document holds, for an error when there is no IOKitDiagnostics. */
	bool top_is_array;
	size_t top_entries;
	struct strbuf top_keys;
	size_t ntop_keys;
};

static void
xframe_release(struct xframe *f)
{
	free(f->meta_name);
	free(f->super_name);
	free(f->object_class);
	for (size_t i = 0; i < f->ninherit; i++)
		free(f->inherit[i]);
	free(f->inherit);
}

static bool
key_is(const struct plist_item *it, const char *k)
{
	return it->key && it->keylen == strlen(k) && memcmp(it->key, k, it->keylen) == 0;
}

static struct xframe *
xtop(struct xml_reader *x)
{
	return x->nframes ? &x->frames[x->nframes - 1] : NULL;
}

static int
parse_integer(const struct plist_item *it, const char *path, int64_t *v, struct diag *err)
{
	bool hex;
	int rc = classes_parse_int(it->text, it->textlen, v, &hex);
	if (rc == SIZE_OK)
		return 0;
	struct strbuf q = STRBUF_INIT, k = STRBUF_INIT;
	diag_quote(&q, it->text, it->textlen, 60);
	diag_quote(&k, it->key ? it->key : "", it->keylen, 80);
	diag_set(err, DIAG_DATA, path, it->line, 0, "the <integer> '%s' of '%s' %s", q.buf, k.buf,
		 rc == SIZE_OVERFLOW ? "does not fit in 64 bits" : "is not a number");
	strbuf_release(&q);
	strbuf_release(&k);
	return -1;
}

static void
note_top(struct xml_reader *x, const struct plist_item *it)
{
	if (it->depth == 1 && it->key) {
		if (x->ntop_keys < TOP_KEYS_SHOWN) {
			if (x->ntop_keys)
				strbuf_addstr(&x->top_keys, ", ");
			diag_quote(&x->top_keys, it->key, it->keylen, 60);
		}
		x->ntop_keys++;
	}
	if (it->depth == 1)
		x->top_entries++;
}

static void
push(struct xml_reader *x, enum xrole role, bool is_dict, struct classes_snapshot *snap)
{
	x->frames = xgrow(x->frames, &x->frames_alloc, x->nframes + 1, sizeof(*x->frames));
	struct xframe *f = &x->frames[x->nframes++];
	memset(f, 0, sizeof(*f));
	f->role = role;
	f->is_dict = is_dict;
	f->snap = snap;
}

static void
add_unreadable_class(struct classes_snapshot *s, const struct plist_item *it)
{
	/* ioclasscount prints "?? (error reading/converting value)" for a non-number. */
	classes_snapshot_add(s, it->key, it->keylen, 0, CLASS_COUNT_UNREADABLE, it->line);
}

static int
on_container_begin(struct xml_reader *x, const struct plist_item *it, bool is_dict,
		   struct diag *err)
{
	struct xframe *parent = xtop(x);
	enum xrole prole = parent ? parent->role : XR_OTHER;
	if (prole == XR_CLASSES) {
		add_unreadable_class(parent->snap, it);
		push(x, XR_IGNORED, is_dict, NULL);
		return 0;
	}
	if (prole == XR_DIAG && key_is(it, "Classes") && is_dict) {
		if (parent->snap->has_classes)
			return diag_set(err, DIAG_DATA, x->path, it->line, 0,
					"a second 'Classes' entry in IOKitDiagnostics");
		parent->snap->has_classes = true;
		push(x, XR_CLASSES, true, parent->snap);
		return 0;
	}
	if (prole != XR_DIAG && prole != XR_IGNORED && key_is(it, "IOKitDiagnostics")) {
		if (!is_dict) {
			diag_list_add(x->warnings, DIAG_WARNING, x->path, it->line,
				      "an IOKitDiagnostics value that is not a <dict>; skipped");
		} else {
			struct classes_snapshot *s =
				classes_capture_add(x->cap, CLASSES_SRC_IOREG_XML, it->line);
			x->ndiag++;
			push(x, XR_DIAG, true, s);
			return 0;
		}
	}
	if (!is_dict && parent && parent->is_dict && key_is(it, "IOObjectInheritance")) {
		push(x, XR_INHERIT, false, NULL);
		return 0;
	}
	push(x, prole == XR_IGNORED ? XR_IGNORED : XR_OTHER, is_dict, NULL);
	return 0;
}

/* ioreg -a -i: IOObjectInheritance (root-most first, OSObject left out) + IOObjectClass. */
static void
add_inheritance(struct hierarchy *h, const struct xframe *f)
{
	size_t prev = hierarchy_intern(h, "OSObject", 8);
	for (size_t i = 0; i < f->ninherit; i++) {
		size_t cls = hierarchy_intern(h, f->inherit[i], strlen(f->inherit[i]));
		hierarchy_set_super(h, cls, prev);
		prev = cls;
	}
	if (f->object_class &&
	    (f->ninherit == 0 || strcmp(f->inherit[f->ninherit - 1], f->object_class) != 0)) {
		size_t cls = hierarchy_intern(h, f->object_class, strlen(f->object_class));
		hierarchy_set_super(h, cls, prev);
	}
	h->sources |= HIER_FROM_IOREG_XML;
}

/* An OSBundleClasses entry: OSMetaClassName, OSMetaClassSuperclassName, OSMetaClassTrackingCount. */
static void
add_metaclass(struct xml_reader *x, const struct xframe *f, uint64_t line)
{
	if (x->h) {
		size_t cls = hierarchy_intern(x->h, f->meta_name, strlen(f->meta_name));
		x->h->classes[cls].defined = true;
		if (f->super_name) {
			size_t sup = hierarchy_intern(x->h, f->super_name, strlen(f->super_name));
			hierarchy_set_super(x->h, cls, sup);
		}
		if (f->has_tracking)
			hierarchy_set_tracking(x->h, cls, f->tracking);
		x->h->sources |= HIER_FROM_KEXT_INFO;
	}
	if (f->has_tracking) {
		if (!x->kext.nsnapshots) {
			struct classes_snapshot *s =
				classes_capture_add(&x->kext, CLASSES_SRC_KEXT_INFO, line);
			s->has_classes = true;
		}
		classes_snapshot_add(x->kext.snapshots[0], f->meta_name, strlen(f->meta_name),
				     f->tracking, CLASS_COUNT_OK, line);
	}
}

static void
on_container_end(struct xml_reader *x, const struct plist_item *it)
{
	struct xframe *f = xtop(x);
	if (f->role == XR_DIAG && f->snap->duplicates)
		diag_list_add(x->warnings, DIAG_WARNING, x->path, it->line,
			      "%" PRIu64 " class names appear twice in 'Classes'; the first "
			      "value of each is used", f->snap->duplicates);
	if (f->is_dict && f->meta_name)
		add_metaclass(x, f, it->line);
	if (f->is_dict && f->object_class && f->ninherit && x->h)
		add_inheritance(x->h, f);
	xframe_release(f);
	x->nframes--;
}

static char *
text_copy(const struct plist_item *it)
{
	return xmemdup0(it->text, it->textlen);
}

static int
on_scalar(struct xml_reader *x, const struct plist_item *it, struct diag *err)
{
	struct xframe *f = xtop(x);
	int64_t v;
	if (!f)
		return 0;
	switch (f->role) {
	case XR_CLASSES:
		if (it->type != PLIST_INTEGER) {
			add_unreadable_class(f->snap, it);
			return 0;
		}
		if (parse_integer(it, x->path, &v, err) < 0)
			return -1;
		classes_snapshot_add(f->snap, it->key, it->keylen, v, CLASS_COUNT_OK, it->line);
		return 0;
	case XR_DIAG: {
		int kind = alloc_kind_from_key(it->key, it->keylen);
		if (kind < 0 || it->type != PLIST_INTEGER) {
			if (key_is(it, "Classes"))
				diag_list_add(x->warnings, DIAG_WARNING, x->path, it->line,
					      "'Classes' is a <%s>, not a <dict>", plist_type_name(it->type));
			return 0;
		}
		if (parse_integer(it, x->path, &v, err) < 0)
			return -1;
		f->snap->alloc[kind] = v;
		f->snap->alloc_present[kind] = true;
		return 0;
	}
	case XR_INHERIT:
		if (it->type == PLIST_STRING && x->nframes >= 2 && it->textlen) {
			struct xframe *d = &x->frames[x->nframes - 2];
			d->inherit = xgrow(d->inherit, &d->inherit_alloc, d->ninherit + 1,
					   sizeof(*d->inherit));
			d->inherit[d->ninherit++] = text_copy(it);
		}
		return 0;
	case XR_OTHER:
		break;
	case XR_IGNORED:
	default:
		return 0;
	}
	if (!f->is_dict)
		return 0;
	if (key_is(it, "OSMetaClassName") && it->type == PLIST_STRING && !f->meta_name)
		f->meta_name = text_copy(it);
	else if (key_is(it, "OSMetaClassSuperclassName") && it->type == PLIST_STRING &&
		 !f->super_name)
		f->super_name = text_copy(it);
	else if (key_is(it, "IOObjectClass") && it->type == PLIST_STRING && !f->object_class)
		f->object_class = text_copy(it);
	else if (key_is(it, "OSMetaClassTrackingCount") && it->type == PLIST_INTEGER) {
		if (parse_integer(it, x->path, &v, err) < 0)
			return -1;
		f->has_tracking = true;
		f->tracking = v;
	}
	return 0;
}

static int
on_plist_item(void *ctx, const struct plist_item *it, struct diag *err)
{
	struct xml_reader *x = ctx;
	if (it->event == PLIST_DICT_BEGIN || it->event == PLIST_ARRAY_BEGIN) {
		if (!x->nframes)
			x->top_is_array = it->event == PLIST_ARRAY_BEGIN;
		else
			note_top(x, it);
		return on_container_begin(x, it, it->event == PLIST_DICT_BEGIN, err);
	}
	if (it->event == PLIST_SCALAR) {
		if (x->nframes)
			note_top(x, it);
		return on_scalar(x, it, err);
	}
	if (x->nframes)
		on_container_end(x, it);
	return 0;
}

int
classes_xml_read(struct line_reader *r, struct classes_capture *cap, struct hierarchy *h,
		 const struct classes_read_opts *opts, struct diag_list *warnings,
		 struct diag *err)
{
	struct xml_reader x = { .cap = cap, .h = opts->want_hierarchy ? h : NULL,
				.path = r->path, .warnings = warnings };
	struct plist_opts popts = { .max_depth = CLASSES_MAX_DEPTH, .max_text = CLASSES_MAX_LINE };
	classes_capture_init(&x.kext);
	strbuf_init(&x.top_keys);
	int rc = plist_read(r, &popts, on_plist_item, &x, err);
	for (size_t i = 0; i < x.nframes; i++)
		xframe_release(&x.frames[i]);
	free(x.frames);
	if (rc == 0 && x.ndiag == 0 && x.kext.nsnapshots) {
		/* A kext-info dump: its tracking counts are ioclasscount's counts. */
		classes_capture_move(cap, &x.kext);
	}
	classes_capture_release(&x.kext);
	if (rc == 0 && x.ndiag == 0 && !cap->nsnapshots && opts->need_counts) {
		diag_set(err, DIAG_DATA, r->path, 0, 0,
			 "no IOKitDiagnostics dictionary in this property list (it is a top-level "
			 "<%s> holding %zu entr%s%s%s%s); ioreg -a leaves properties out without -l: "
			 "save the root with 'ioreg -a -l -d1'",
			 x.top_is_array ? "array" : "dict", x.top_entries,
			 x.top_entries == 1 ? "y" : "ies", x.ntop_keys ? ", keys " : "",
			 x.top_keys.buf, x.ntop_keys > TOP_KEYS_SHOWN ? ", ..." : "");
		rc = -1;
	}
	strbuf_release(&x.top_keys);
	return rc;
}
