#include "model/track.h"

#include "util/view.h"
#include "util/xalloc.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* ---- records ---------------------------------------------------------- */

void
track_record_init(struct track_record *r)
{
	memset(r, 0, sizeof(*r));
	strbuf_init(&r->text);
}

void
track_record_reset(struct track_record *r)
{
	struct track_frame *frames = r->frames;
	size_t alloc = r->frames_alloc;
	struct strbuf text = r->text;
	strbuf_reset(&text);
	memset(r, 0, sizeof(*r));
	r->frames = frames;
	r->frames_alloc = alloc;
	r->text = text;
}

void
track_record_release(struct track_record *r)
{
	free(r->frames);
	strbuf_release(&r->text);
	track_record_init(r);
}

struct track_text
track_record_add_text(struct track_record *r, const char *p, size_t n)
{
	struct track_text t = { r->text.len, n };
	strbuf_add(&r->text, p, n);
	/* Each string ends in a NUL so reports can use it as a C string. */
	strbuf_addch(&r->text, '\0');
	return t;
}

struct track_frame *
track_record_add_frame(struct track_record *r)
{
	r->frames = xgrow(r->frames, &r->frames_alloc, r->nframes + 1, sizeof(*r->frames));
	struct track_frame *f = &r->frames[r->nframes++];
	memset(f, 0, sizeof(*f));
	return f;
}

static void
add_view(struct strbuf *out, const struct track_record *r, struct track_text t)
{
	strbuf_add(out, track_str(r, t), t.len);
}

static void
format_frame(const struct track_record *r, const struct track_frame *f,
	     enum track_layout layout, struct strbuf *out)
{
	size_t width = layout == TRACK_LAYOUT_97 ? 24 : 36;
	strbuf_addf(out, "%2" PRIu64 " ", f->index);
	add_view(out, r, f->module);
	if (f->module.len < width)
		strbuf_addchars(out, ' ', width - f->module.len);
	if (layout == TRACK_LAYOUT_97)
		strbuf_addf(out, "      0x%" PRIx64 " ", f->address);
	else if (f->zero_address)
		strbuf_addf(out, "    %018d ", 0);
	else
		strbuf_addf(out, "    0x%016" PRIx64 " ", f->address);
	add_view(out, r, f->symbol);
	if (f->has_offset)
		strbuf_addf(out, " + 0x%" PRIx64, f->offset);
	if (f->has_source) {
		strbuf_addstr(out, " (");
		add_view(out, r, f->source);
		strbuf_addch(out, ')');
	}
	strbuf_addch(out, '\n');
}

static void
format_trailer(const struct track_record *r, struct strbuf *out)
{
	strbuf_addch(out, '<');
	add_view(out, r, r->trailer_process);
	strbuf_addf(out, "(%" PRId64 ")>\n", r->trailer_pid);
}

void
track_record_format(const struct track_record *r, enum track_layout layout,
		    struct strbuf *out)
{
	if (r->type == TRACK_RECORD_MAP) {
		strbuf_addf(out, "[0x%" PRIx64 ", 0x%" PRIx64 "] ", r->map_address, r->bytes);
		add_view(out, r, r->map_process);
		strbuf_addf(out, "(%" PRId64 ") [%" PRIu64 "]\n", r->map_pid, r->index);
	} else {
		strbuf_addf(out, "0x%" PRIx64 " bytes (0x%" PRIx64 " + 0x%" PRIx64 "), %" PRId64
			    " call%s%s [%" PRIu64 "]\n", r->bytes, r->size[0], r->size[1],
			    r->count, r->count == 1 ? "" : "s",
			    layout == TRACK_LAYOUT_97 ? "," : "", r->index);
	}
	for (size_t i = 0; i <= r->nframes; i++) {
		if (r->has_trailer && r->trailer_at == i)
			format_trailer(r, out);
		if (i < r->nframes)
			format_frame(r, &r->frames[i], layout, out);
	}
}

/* ---- frame classes ---------------------------------------------------- */

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

/* ---- filters ---------------------------------------------------------- */

void
track_filter_init(struct track_filter *f)
{
	memset(f, 0, sizeof(*f));
}

static void
free_list(char **list, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(list[i]);
	free(list);
}

void
track_filter_release(struct track_filter *f)
{
	free_list(f->sites, f->nsites);
	free_list(f->ignores, f->nignores);
	free_list(f->names, f->nnames);
	track_filter_init(f);
}

void
track_filter_add(char ***list, size_t *n, const char *s)
{
	*list = xrealloc(*list, (*n + 1) * sizeof(**list));
	(*list)[(*n)++] = xstrdup(s);
}

static bool
text_has_any(const char *text, size_t n, char *const *needles, size_t count)
{
	for (size_t i = 0; i < count; i++)
		if (view_find(text, n, needles[i]))
			return true;
	return false;
}

/* ---- capture ---------------------------------------------------------- */

void
track_capture_init(struct track_capture *cap)
{
	memset(cap, 0, sizeof(*cap));
	track_filter_init(&cap->filter);
	strmap_init(&cap->group_index);
	strmap_init(&cap->frame_index);
	track_listing_init(&cap->listing);
}

void
track_capture_release(struct track_capture *cap)
{
	track_filter_release(&cap->filter);
	free(cap->command);
	free(cap->queue);
	for (size_t i = 0; i < cap->nimages; i++) {
		free(cap->images[i].name);
		free(cap->images[i].uuid);
		free(cap->images[i].path);
	}
	free(cap->images);
	track_listing_release(&cap->listing);
	for (size_t i = 0; i < cap->ngroups; i++) {
		free(cap->groups[i].name);
		free(cap->groups[i].symbol);
		free(cap->groups[i].stack);
	}
	free(cap->groups);
	strmap_release(&cap->group_index);
	for (size_t i = 0; i < cap->nframe_names; i++)
		free(cap->frame_names[i]);
	free(cap->frame_names);
	strmap_release(&cap->frame_index);
	track_capture_init(cap);
}

void
track_capture_set_command(struct track_capture *cap, const char *text, size_t n,
			  enum track_kind kind, bool site_filtered,
			  const char *queue, size_t queue_len)
{
	free(cap->command);
	free(cap->queue);
	cap->command = xmemdup0(text, n);
	cap->kind = kind;
	cap->site_filtered = site_filtered;
	cap->queue = queue ? xmemdup0(queue, queue_len) : NULL;
}

void
track_capture_add_image(struct track_capture *cap, const struct track_image *img)
{
	cap->images = xgrow(cap->images, &cap->images_alloc, cap->nimages + 1,
			    sizeof(*cap->images));
	cap->images[cap->nimages++] = *img;
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
track_record_category(const struct track_capture *cap, const struct track_record *r,
		      size_t *len)
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
	if (cap->queue) {
		*len = strlen(cap->queue);
		return cap->queue;
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

static bool
names_match(const struct track_filter *f, const char *cat, size_t n)
{
	for (size_t i = 0; i < f->nnames; i++)
		if (cat && strlen(f->names[i]) == n && memcmp(f->names[i], cat, n) == 0)
			return true;
	return false;
}

/* ---- aggregation ------------------------------------------------------ */

static struct track_group *
group_get(struct track_capture *cap, const char *key, size_t keylen, uint64_t seq)
{
	bool created;
	size_t *slot = strmap_put(&cap->group_index, key, keylen, &created);
	if (created) {
		cap->groups = xgrow(cap->groups, &cap->groups_alloc, cap->ngroups + 1,
				    sizeof(*cap->groups));
		struct track_group *g = &cap->groups[cap->ngroups];
		memset(g, 0, sizeof(*g));
		g->first_seq = seq;
		g->last_seq = UINT64_MAX;
		*slot = cap->ngroups++;
	}
	return &cap->groups[*slot];
}

static int
checked_add(uint64_t *sum, uint64_t v, const char *what, const char *path,
	    uint64_t line, struct diag *err)
{
	if (!bytes_add(sum, v))
		return diag_set(err, DIAG_DATA, path, line, 0,
				"the %s passes 2^63 bytes; the capture is corrupt", what);
	return 0;
}

static int
group_add(struct track_group *g, const struct track_record *r, bool self,
	  const char *path, struct diag *err)
{
	if (g->last_seq == r->seq)
		return 0;
	g->last_seq = r->seq;
	if (checked_add(&g->bytes, r->bytes, "sum of a group", path, r->line, err) < 0)
		return -1;
	if (self)
		g->self_bytes += r->bytes;   /* at most g->bytes */
	g->records++;
	int64_t c = r->type == TRACK_RECORD_MAP ? 1 : r->count;
	/* Counts are %d of the kernel's uint32: saturate rather than wrap. */
	if ((c > 0 && g->count > INT64_MAX - c) || (c < 0 && g->count < INT64_MIN - c))
		g->count = c > 0 ? INT64_MAX : INT64_MIN;
	else
		g->count += c;
	return 0;
}

static void
set_group_name(struct track_group *g, const char *name, size_t n)
{
	if (!g->name)
		g->name = xmemdup0(name, n);
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

static int
aggregate_module(struct track_capture *cap, const struct track_record *r,
		 const char *path, struct diag *err)
{
	size_t n;
	const char *name = track_record_module(r, &n);
	struct track_group *g = group_get(cap, name, n, r->seq);
	set_group_name(g, name, n);
	return group_add(g, r, true, path, err);
}

static int
aggregate_symbols(struct track_capture *cap, const struct track_record *r,
		  struct strbuf *key, const char *path, struct diag *err)
{
	bool first = true;
	for (size_t i = 0; i < r->nframes; i++) {
		const struct track_frame *f = &r->frames[i];
		const char *cls;
		size_t cl;
		if (track_frame_metaclass(r, f, &cls, &cl))
			continue;
		strbuf_reset(key);
		add_view(key, r, f->module);
		strbuf_addch(key, '\0');
		add_view(key, r, f->symbol);
		struct track_group *g = group_get(cap, key->buf, key->len, r->seq);
		if (!g->name) {
			g->name = xmemdup0(track_str(r, f->module), f->module.len);
			g->symbol = xmemdup0(track_str(r, f->symbol), f->symbol.len);
		}
		if (group_add(g, r, first, path, err) < 0)
			return -1;
		first = false;
	}
	return 0;
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

/* The interned id of a frame's folded name (track_frame_folded_name). */
static uint32_t
frame_name_id(struct track_capture *cap, const struct track_record *r,
	      const struct track_frame *f, struct strbuf *tmp)
{
	struct track_text t = f->symbol.len ? f->symbol : f->module;
	const char *name = track_str(r, t);
	size_t len = t.len;
	if (len == 0 || memchr(name, ';', len) || memchr(name, '\t', len)) {
		strbuf_reset(tmp);
		track_frame_folded_name(r, f, tmp);
		name = tmp->buf;
		len = tmp->len;
	}
	bool created;
	size_t *slot = strmap_put(&cap->frame_index, name, len, &created);
	if (created) {
		cap->frame_names = xgrow(cap->frame_names, &cap->frame_names_alloc,
					 cap->nframe_names + 1, sizeof(*cap->frame_names));
		cap->frame_names[cap->nframe_names] = xmemdup0(name, len);
		*slot = cap->nframe_names++;
	}
	return (uint32_t)*slot;
}

/* The key of a folded stack: the ids of its frame names, outermost first. */
static void
folded_key(struct track_capture *cap, const struct track_record *r, struct strbuf *key)
{
	struct strbuf tmp = STRBUF_INIT;
	for (size_t i = r->nframes; i-- > 0;) {
		const char *cls;
		size_t cl;
		if (track_frame_metaclass(r, &r->frames[i], &cls, &cl))
			continue;
		uint32_t id = frame_name_id(cap, r, &r->frames[i], &tmp);
		strbuf_add(key, &id, sizeof(id));
	}
	strbuf_release(&tmp);
}

void
track_group_folded_text(const struct track_capture *cap, const struct track_group *g,
			struct strbuf *out)
{
	for (size_t i = 0; i < g->nstack; i++) {
		if (i)
			strbuf_addch(out, ';');
		strbuf_addstr(out, cap->frame_names[g->stack[i]]);
	}
	if (g->nstack == 0)
		strbuf_addstr(out, "[no frames]");
}

static int
aggregate(struct track_capture *cap, const struct track_record *r, const char *path,
	  struct diag *err)
{
	struct strbuf key = STRBUF_INIT;
	int rc = 0;
	switch (cap->by) {
	case TRACK_BY_NONE:
		break;
	case TRACK_BY_MODULE:
		rc = aggregate_module(cap, r, path, err);
		break;
	case TRACK_BY_SYMBOL:
		rc = aggregate_symbols(cap, r, &key, path, err);
		break;
	case TRACK_BY_CLASS: {
		size_t n;
		const char *cat = track_record_category(cap, r, &n);
		if (!cat) {
			cat = "(unknown)";
			n = 9;
		}
		struct track_group *g = group_get(cap, cat, n, r->seq);
		set_group_name(g, cat, n);
		rc = group_add(g, r, true, path, err);
		break;
	}
	case TRACK_BY_FOLDED: {
		folded_key(cap, r, &key);
		struct track_group *g = group_get(cap, key.buf, key.len, r->seq);
		if (!g->stack && key.len) {
			g->nstack = key.len / sizeof(uint32_t);
			g->stack = xmalloc(key.len);
			memcpy(g->stack, key.buf, key.len);
		}
		rc = group_add(g, r, true, path, err);
		break;
	}
	}
	strbuf_release(&key);
	return rc;
}

/* ---- listing ---------------------------------------------------------- */

void
track_capture_sort_kept(struct track_capture *cap)
{
	track_listing_sort(&cap->listing, cap->top);
}

/* ---- one record ------------------------------------------------------- */

static bool
passes_filters(const struct track_capture *cap, const struct track_record *r,
	       const struct strbuf *text)
{
	const struct track_filter *f = &cap->filter;
	if (r->bytes < f->min_bytes)
		return false;
	if (f->nsites && !text_has_any(text->buf, text->len, f->sites, f->nsites))
		return false;
	if (f->nignores && text_has_any(text->buf, text->len, f->ignores, f->nignores))
		return false;
	if (f->nnames || f->exclude) {
		size_t n;
		const char *cat = track_record_category(cap, r, &n);
		if (names_match(f, cat, n) == f->exclude)
			return false;
	}
	return true;
}

int
track_capture_add_record(struct track_capture *cap, const struct track_record *r,
			 const char *path, struct diag *err)
{
	struct strbuf text = STRBUF_INIT;
	int rc = 0;
	size_t n;

	cap->nrecords++;
	bytes_add_capped(&cap->records_sum, r->bytes, &cap->sum_overflow);
	/* Only NAME filters report how many records had no category. */
	if ((cap->filter.nnames || cap->filter.exclude) && !track_record_category(cap, r, &n))
		cap->uncategorised++;

	bool need_text = cap->filter.nsites || cap->filter.nignores ||
			 (cap->suppress && cap->suppress->len);
	if (need_text)
		track_record_format(r, cap->layout, &text);
	if (!passes_filters(cap, r, &text))
		goto out;
	if (cap->suppress && cap->suppress->len) {
		struct suppress_pattern *pat = suppress_list_match(cap->suppress, text.buf, text.len);
		if (pat) {
			if ((rc = checked_add(&cap->suppressed_bytes, r->bytes,
					      "sum of the suppressed records", path, r->line,
					      err)) < 0 ||
			    (rc = checked_add(&pat->bytes, r->bytes, "sum of a suppression's records",
					      path, r->line, err)) < 0)
				goto out;
			pat->records++;
			cap->suppressed_records++;
			goto out;
		}
	}
	if ((rc = checked_add(&cap->shown_bytes, r->bytes, "sum of the shown records",
			      path, r->line, err)) < 0)
		goto out;
	cap->shown_records++;
	if ((rc = aggregate(cap, r, path, err)) < 0)
		goto out;
	if (cap->on_record && (rc = cap->on_record(cap->on_record_ctx, r, path, err)) < 0)
		goto out;
	if (cap->keep_records)
		rc = track_listing_add(&cap->listing, cap->top, r, err);
out:
	strbuf_release(&text);
	return rc;
}

/* ---- queries ---------------------------------------------------------- */

uint64_t
track_capture_total(const struct track_capture *cap)
{
	if (cap->has_capture_total)
		return cap->capture_total;
	if (cap->has_total)
		return cap->total;
	return cap->records_sum;
}

static int
cmp_groups(const void *a, const void *b)
{
	const struct track_group *x = *(const struct track_group *const *)a;
	const struct track_group *y = *(const struct track_group *const *)b;
	/* Only --by symbol groups have a symbol: they sort by self bytes first. */
	if (x->symbol && y->symbol && x->self_bytes != y->self_bytes)
		return x->self_bytes > y->self_bytes ? -1 : 1;
	if (x->bytes != y->bytes)
		return x->bytes > y->bytes ? -1 : 1;
	if (!x->name || !y->name)   /* folded stacks: first seen first */
		return x->first_seq < y->first_seq ? -1 : x->first_seq > y->first_seq;
	int c = strcmp(x->name, y->name);
	if (c)
		return c;
	if (x->symbol && y->symbol && (c = strcmp(x->symbol, y->symbol)) != 0)
		return c;
	return x->first_seq < y->first_seq ? -1 : x->first_seq > y->first_seq;
}

size_t
track_capture_sorted_groups(const struct track_capture *cap, const struct track_group ***out)
{
	const struct track_group **v = xcalloc(cap->ngroups ? cap->ngroups : 1, sizeof(*v));
	for (size_t i = 0; i < cap->ngroups; i++)
		v[i] = &cap->groups[i];
	if (cap->ngroups)
		qsort(v, cap->ngroups, sizeof(*v), cmp_groups);
	*out = v;
	return cap->ngroups;
}

void
track_capture_check_total(const struct track_capture *cap, const char *path,
			  struct diag_list *warnings)
{
	if (!cap->has_total || cap->partial)
		return;
	if (cap->sum_overflow || cap->records_sum > cap->total)
		diag_list_add(warnings, DIAG_WARNING, path, 0,
			      "the records add up to 0x%" PRIx64 " bytes, more than the capture's "
			      "total 0x%" PRIx64 " (an edited or mixed capture?)",
			      cap->records_sum, cap->total);
	else if (cap->records_sum < cap->total && !cap->site_filtered)
		diag_list_add(warnings, DIAG_WARNING, path, 0,
			      "the records add up to 0x%" PRIx64 " bytes, less than the capture's "
			      "total 0x%" PRIx64 " (records are missing, or the capture was made "
			      "with --site/--ignore)", cap->records_sum, cap->total);
}

const char *
track_kind_name(enum track_kind k)
{
	switch (k) {
	case TRACK_KIND_TRACK:
		return "track";
	case TRACK_KIND_LEAKS:
		return "leaks";
	case TRACK_KIND_MAPS:
		return "maps";
	case TRACK_KIND_UNKNOWN:
	default:
		return NULL;
	}
}

const char *
track_layout_name(enum track_layout l)
{
	switch (l) {
	case TRACK_LAYOUT_97:
		return "IOKitTools-97";
	case TRACK_LAYOUT_105:
		return "IOKitTools-105";
	case TRACK_LAYOUT_108:
	default:
		return "IOKitTools-108+";
	}
}

const char *
track_by_name(enum track_by b)
{
	switch (b) {
	case TRACK_BY_MODULE:
		return "module";
	case TRACK_BY_SYMBOL:
		return "symbol";
	case TRACK_BY_CLASS:
		return "class";
	case TRACK_BY_FOLDED:
		return "folded";
	case TRACK_BY_NONE:
	default:
		return NULL;
	}
}
