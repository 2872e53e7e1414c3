#include "model/track_classify.h"

#include "util/view.h"

#include <stdint.h>
#include <string.h>

bool
track_frame_metaclass(const struct track_record *r, const struct track_frame *f,
		      const char **cls, size_t *len)
{
	static const char suffix[] = "::gMetaClass";
	const size_t sl = sizeof(suffix) - 1;
	const char *s = track_str(r, f->symbol);
	size_t n = f->symbol.len;
	if (n <= sl || memcmp(s + n - sl, suffix, sl) != 0 || f->has_offset)
		return false;
	*cls = s;
	*len = n - sl;
	return true;
}

static bool
is_uuid(const char *s, size_t n)
{
	if (n != 36)
		return false;
	for (size_t i = 0; i < n; i++) {
		bool dash = i == 8 || i == 13 || i == 18 || i == 23;
		char c = s[i];
		bool hex = (c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'f');
		if (dash ? c != '-' : !hex)
			return false;
	}
	return true;
}

bool
track_frame_is_user(const struct track_record *r, const struct track_frame *f)
{
	/* Kernel frames are unslid kernel addresses, which have the top bit set. */
	return r->has_trailer && !f->zero_address && (f->address >> 63) == 0;
}

bool
track_frame_is_kernel(const struct track_record *r, const struct track_frame *f)
{
	const char *m = track_str(r, f->module);
	size_t n = f->module.len;
	if (track_frame_is_user(r, f))
		return false;
	if (n == 0 || (n == 6 && memcmp(m, "kernel", 6) == 0) || view_starts(m, n, "kernel.") ||
	    (n == 10 && memcmp(m, "__kernel__", 10) == 0) ||
	    (n == 14 && memcmp(m, "unknown kernel", 14) == 0) ||
	    (n == 6 && memcmp(m, "(null)", 6) == 0))
		return true;
	/* An address no image claims: module is kern.uuid, symbol "kernel". */
	return is_uuid(m, n) &&
	       (f->symbol.len == 0 ||
		(f->symbol.len == 6 && memcmp(track_str(r, f->symbol), "kernel", 6) == 0));
}

const char *
track_record_module(const struct track_record *r, size_t *len)
{
	const char *name = NULL;
	size_t n = 0;
	for (size_t i = 0; i < r->nframes && !name; i++) {
		const struct track_frame *f = &r->frames[i];
		const char *cls;
		size_t cl;
		if (track_frame_is_user(r, f) || track_frame_metaclass(r, f, &cls, &cl) ||
		    track_frame_is_kernel(r, f))
			continue;
		name = track_str(r, f->module);
		n = f->module.len;
		/* IOKitTools-105 printed an owner's UUID as module and its name as symbol. */
		const char *sym = track_str(r, f->symbol);
		if (is_uuid(name, n) && f->symbol.len && memchr(sym, '.', f->symbol.len) &&
		    !memchr(sym, '(', f->symbol.len) && !view_find(sym, f->symbol.len, "::")) {
			name = sym;
			n = f->symbol.len;
		}
	}
	if (!name) {
		name = "kernel";
		n = 6;
	}
	*len = n;
	return name;
}

static bool
symbol_is(const struct track_record *r, const struct track_frame *f, const char *prefix)
{
	return view_starts(track_str(r, f->symbol), f->symbol.len, prefix);
}

static bool
symbol_has(const struct track_record *r, const struct track_frame *f, const char *needle)
{
	return view_find(track_str(r, f->symbol), f->symbol.len, needle) != NULL;
}

const char *
track_record_category(const struct track_record *r, const char *queue, size_t *len)
{
	if (r->type == TRACK_RECORD_MAP) {
		*len = 5;
		return "IOMap";
	}
	for (size_t i = 0; i < r->nframes; i++) {
		const char *cls;
		if (track_frame_metaclass(r, &r->frames[i], &cls, len))
			return cls;
	}
	if (queue) {
		*len = strlen(queue);
		return queue;
	}
	/* The innermost allocating or wiring frame tells IOMalloc from IOWire. */
	for (size_t i = 0; i < r->nframes; i++) {
		const struct track_frame *f = &r->frames[i];
		if (symbol_is(r, f, "IOMalloc") || symbol_is(r, f, "IOFree")) {
			*len = 8;
			return "IOMalloc";
		}
		if (symbol_has(r, f, "::wireVirtual(") || symbol_has(r, f, "MemoryDescriptor::prepare(")) {
			*len = 6;
			return "IOWire";
		}
	}
	*len = 0;
	return NULL;
}

void
track_frame_folded_name(const struct track_record *r, const struct track_frame *f,
			struct strbuf *out)
{
	struct track_text t = f->symbol.len ? f->symbol : f->module;
	const char *name = track_str(r, t);
	if (t.len == 0) {
		strbuf_addstr(out, "[unknown]");
		return;
	}
	for (size_t k = 0; k < t.len; k++)
		strbuf_addch(out, name[k] == ';' ? ':' : name[k] == '\t' ? ' ' : name[k]);
}
