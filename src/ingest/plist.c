#include "ingest/plist.h"

#include "util/array.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/SAX2.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* libxml2's initialisation, run once (plist_read()). */
static pthread_once_t xml_once = PTHREAD_ONCE_INIT;

enum elem {
	E_PLIST,
	E_DICT,
	E_ARRAY,
	E_KEY,
	E_STRING,
	E_INTEGER,
	E_REAL,
	E_TRUE,
	E_FALSE,
	E_DATE,
	E_DATA,
	E_NONE,
};

static const char *const elem_names[] = {
	"plist", "dict", "array", "key", "string", "integer", "real", "true",
	"false", "date", "data",
};

const char *
plist_type_name(enum plist_type t)
{
	static const char *const names[] = {
		"string", "integer", "real", "true", "false", "date", "data",
	};
	return (size_t)t < ARRAY_SIZE(names) ? names[t] : "?";
}

struct frame {
	enum elem kind;          /* E_PLIST, E_DICT or E_ARRAY */
	struct strbuf key;       /* dict: the pending key */
	bool have_key;
	bool have_value;         /* plist: its one value was seen */
	uint64_t line;
};

struct pstate {
	xmlParserCtxtPtr ctxt;
	const struct plist_opts *opts;
	plist_callback cb;
	void *cbctx;
	const char *path;
	struct diag *err;
	bool failed;             /* *err holds the reason; the parser was stopped */
	bool finishing;          /* inside the final, terminating chunk */

	struct frame *frames;
	size_t nframes, frames_alloc;
	enum elem leaf;          /* an open key or scalar element, or E_NONE */
	uint64_t leaf_line;
	struct strbuf text;
	bool seen_root;
};

static uint64_t
cur_line(const struct pstate *st)
{
	return st->ctxt ? (uint64_t)xmlSAX2GetLineNumber(st->ctxt) : 0;
}

static uint64_t
cur_col(const struct pstate *st)
{
	return st->ctxt ? (uint64_t)xmlSAX2GetColumnNumber(st->ctxt) : 0;
}

static void
stop(struct pstate *st)
{
	st->failed = true;
	if (st->ctxt)
		xmlStopParser(st->ctxt);
}

static void __attribute__((format(printf, 2, 3)))
fail(struct pstate *st, const char *fmt, ...)
{
	if (st->failed)
		return;
	char msg[DIAG_MSG_MAX];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	diag_set(st->err, DIAG_DATA, st->path, cur_line(st), cur_col(st), "%s", msg);
	stop(st);
}

static void
quote(struct strbuf *sb, const xmlChar *s)
{
	if (s)
		diag_quote(sb, (const char *)s, strlen((const char *)s), 80);
}

static enum elem
elem_from_name(const xmlChar *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(elem_names); i++)
		if (strcmp((const char *)name, elem_names[i]) == 0)
			return (enum elem)i;
	return E_NONE;
}

static struct frame *
top_frame(struct pstate *st)
{
	return st->nframes ? &st->frames[st->nframes - 1] : NULL;
}

static void
emit(struct pstate *st, struct plist_item *it)
{
	if (st->failed)
		return;
	it->line = cur_line(st);
	if (st->cb(st->cbctx, it, st->err) < 0)
		stop(st);
}

/* Enclosing <dict>s and <array>s (the <plist> wrapper does not count). */
static size_t
container_depth(const struct pstate *st)
{
	return st->nframes && st->frames[0].kind == E_PLIST ? st->nframes - 1 : st->nframes;
}

/* The key a new value sits under; false (after failing) when there is none. */
static bool
take_key(struct pstate *st, struct plist_item *it, const char *what)
{
	struct frame *f = top_frame(st);
	it->key = NULL;
	it->keylen = 0;
	it->depth = container_depth(st);
	if (!f) {
		if (st->seen_root) {
			fail(st, "a second top-level <%s> in the property list", what);
			return false;
		}
		st->seen_root = true;
		return true;
	}
	if (f->kind == E_PLIST) {
		if (f->have_value) {
			fail(st, "<plist> holds more than one value (a second <%s>)", what);
			return false;
		}
		f->have_value = true;
		st->seen_root = true;
		return true;
	}
	if (f->kind == E_DICT) {
		if (!f->have_key) {
			fail(st, "<%s> in a <dict> without a <key> before it", what);
			return false;
		}
		it->key = f->key.buf;
		it->keylen = f->key.len;
	}
	return true;
}

static void
open_container(struct pstate *st, enum elem kind)
{
	struct plist_item it = { 0 };
	if (st->nframes >= st->opts->max_depth) {
		fail(st, "the property list nests deeper than %zu levels", st->opts->max_depth);
		return;
	}
	if (kind != E_PLIST) {
		if (!take_key(st, &it, elem_names[kind]))
			return;
		it.event = kind == E_DICT ? PLIST_DICT_BEGIN : PLIST_ARRAY_BEGIN;
		emit(st, &it);
		if (st->failed)
			return;
	} else if (st->nframes) {
		fail(st, "<plist> inside another element");
		return;
	}
	st->frames = xgrow(st->frames, &st->frames_alloc, st->nframes + 1,
			   sizeof(*st->frames));
	struct frame *f = &st->frames[st->nframes++];
	f->kind = kind;
	strbuf_init(&f->key);
	f->have_key = false;
	f->have_value = false;
	f->line = cur_line(st);
}

static void
close_container(struct pstate *st)
{
	struct frame *f = top_frame(st);
	enum elem kind = f->kind;
	if (kind == E_DICT && f->have_key) {
		fail(st, "<key> without a value at the end of a <dict>");
		return;
	}
	strbuf_release(&f->key);
	st->nframes--;
	if (kind == E_PLIST)
		return;
	/* After the pop, the enclosing dict (if any) consumed its key. */
	struct plist_item it = { 0 };
	it.event = kind == E_DICT ? PLIST_DICT_END : PLIST_ARRAY_END;
	it.depth = container_depth(st);
	struct frame *parent = top_frame(st);
	if (parent && parent->kind == E_DICT) {
		it.key = parent->key.buf;
		it.keylen = parent->key.len;
	}
	emit(st, &it);
	if (parent && parent->kind == E_DICT)
		parent->have_key = false;
}

static void
on_start(void *ctx, const xmlChar *localname, const xmlChar *prefix,
	 const xmlChar *uri, int nns, const xmlChar **ns, int nattr, int ndef,
	 const xmlChar **attrs)
{
	struct pstate *st = ctx;
	(void)uri, (void)nns, (void)ns, (void)nattr, (void)ndef, (void)attrs;
	if (st->failed)
		return;
	enum elem e = prefix ? E_NONE : elem_from_name(localname);
	if (e == E_NONE) {
		struct strbuf q = STRBUF_INIT;
		quote(&q, localname);
		fail(st, "<%s> is not a property-list element", q.buf);
		strbuf_release(&q);
		return;
	}
	if (st->leaf != E_NONE) {
		fail(st, "<%s> inside <%s>", elem_names[e], elem_names[st->leaf]);
		return;
	}
	if (e == E_PLIST || e == E_DICT || e == E_ARRAY) {
		open_container(st, e);
		return;
	}
	struct frame *f = top_frame(st);
	if (e == E_KEY && (!f || f->kind != E_DICT)) {
		fail(st, "<key> outside a <dict>");
		return;
	}
	if (e == E_KEY && f->have_key) {
		fail(st, "two <key>s in a row in a <dict>");
		return;
	}
	st->leaf = e;
	st->leaf_line = cur_line(st);
	strbuf_reset(&st->text);
}

static enum plist_type
scalar_type(enum elem e)
{
	switch (e) {
	case E_INTEGER:
		return PLIST_INTEGER;
	case E_REAL:
		return PLIST_REAL;
	case E_TRUE:
		return PLIST_TRUE;
	case E_FALSE:
		return PLIST_FALSE;
	case E_DATE:
		return PLIST_DATE;
	case E_DATA:
		return PLIST_DATA;
	case E_STRING:
	default:
		return PLIST_STRING;
	}
}

static void
close_leaf(struct pstate *st)
{
	enum elem e = st->leaf;
	st->leaf = E_NONE;
	if (e == E_KEY) {
		struct frame *f = top_frame(st);
		strbuf_reset(&f->key);
		strbuf_add(&f->key, st->text.buf, st->text.len);
		f->have_key = true;
		return;
	}
	struct plist_item it = { 0 };
	if (!take_key(st, &it, elem_names[e]))
		return;
	it.event = PLIST_SCALAR;
	it.type = scalar_type(e);
	it.text = st->text.buf;
	it.textlen = st->text.len;
	emit(st, &it);
	struct frame *f = top_frame(st);
	if (f && f->kind == E_DICT)
		f->have_key = false;
}

static void
on_end(void *ctx, const xmlChar *localname, const xmlChar *prefix, const xmlChar *uri)
{
	struct pstate *st = ctx;
	(void)localname, (void)prefix, (void)uri;
	if (st->failed)
		return;
	/* libxml2 has checked that the end tag matches the start tag. */
	if (st->leaf != E_NONE)
		close_leaf(st);
	else if (st->nframes)
		close_container(st);
}

static void
on_chars(void *ctx, const xmlChar *ch, int len)
{
	struct pstate *st = ctx;
	if (st->failed || len <= 0)
		return;
	if (st->leaf == E_NONE) {
		for (int i = 0; i < len; i++)
			if (ch[i] != ' ' && ch[i] != '\t' && ch[i] != '\n' && ch[i] != '\r') {
				fail(st, "text outside a <key> or value element");
				return;
			}
		return;
	}
	if (st->text.len + (size_t)len > st->opts->max_text) {
		fail(st, "a <%s> longer than %zu bytes", elem_names[st->leaf], st->opts->max_text);
		return;
	}
	strbuf_add(&st->text, ch, (size_t)len);
}

static void
on_entity_decl(void *ctx, const xmlChar *name, int type, const xmlChar *public_id,
	       const xmlChar *system_id, xmlChar *content)
{
	struct pstate *st = ctx;
	struct strbuf q = STRBUF_INIT;
	(void)type, (void)public_id, (void)content;
	quote(&q, name);
	if (system_id) {
		strbuf_addstr(&q, "' (an external entity, SYSTEM \"");
		quote(&q, system_id);
		strbuf_addstr(&q, "\")");
	} else {
		strbuf_addstr(&q, "'");
	}
	fail(st, "the document declares the entity '%s; property lists never declare "
	     "entities, and entities are neither expanded nor fetched", q.buf);
	strbuf_release(&q);
}

static void
on_unparsed_entity_decl(void *ctx, const xmlChar *name, const xmlChar *public_id,
			const xmlChar *system_id, const xmlChar *notation)
{
	(void)notation;
	on_entity_decl(ctx, name, 0, public_id, system_id, NULL);
}

static xmlEntityPtr
on_get_entity(void *ctx, const xmlChar *name)
{
	(void)ctx, (void)name;
	return NULL;
}

static void
on_reference(void *ctx, const xmlChar *name)
{
	struct pstate *st = ctx;
	struct strbuf q = STRBUF_INIT;
	quote(&q, name);
	fail(st, "reference to the undeclared entity '&%s;' (entities are never expanded)", q.buf);
	strbuf_release(&q);
}

static void
on_error(void *ctx, xmlErrorPtr e)
{
	struct pstate *st = ctx;
	if (st->failed || !e || e->level == XML_ERR_WARNING)
		return;
	char msg[256];
	size_t n = strlen(e->message ? e->message : "");
	snprintf(msg, sizeof(msg), "%.*s", (int)(n && e->message[n - 1] == '\n' ? n - 1 : n),
		 e->message ? e->message : "malformed XML");
	if (e->code == XML_ERR_UNDECLARED_ENTITY || e->code == XML_WAR_UNDECLARED_ENTITY) {
		fail(st, "%s (entities are never expanded)", msg);
		return;
	}
	if (st->finishing) {
		/* libxml2 only learns at the end of the input that elements are still open. */
		if (st->leaf != E_NONE)
			fail(st, "the property list is cut off inside a <%s> (opened at line %llu)",
			     elem_names[st->leaf], (unsigned long long)st->leaf_line);
		else if (st->nframes)
			fail(st, "the property list is cut off: <%s> opened at line %llu is not closed",
			     elem_names[top_frame(st)->kind],
			     (unsigned long long)top_frame(st)->line);
		else
			fail(st, "the property list ends early: %s", msg);
		return;
	}
	diag_set(st->err, DIAG_DATA, st->path, (uint64_t)(e->line > 0 ? e->line : 0),
		 (uint64_t)(e->int2 > 0 ? e->int2 : 0), "malformed XML: %s", msg);
	stop(st);
}

/* libxml2 reports some errors (encoding conversion) outside the parser context. */
static void __attribute__((format(printf, 2, 3)))
quiet_generic_error(void *ctx, const char *fmt, ...)
{
	(void)ctx, (void)fmt;
}

static void
sax_init(xmlSAXHandler *sax)
{
	memset(sax, 0, sizeof(*sax));
	sax->initialized = XML_SAX2_MAGIC;
	sax->startElementNs = on_start;
	sax->endElementNs = on_end;
	sax->characters = on_chars;
	sax->cdataBlock = on_chars;
	sax->entityDecl = on_entity_decl;
	sax->unparsedEntityDecl = on_unparsed_entity_decl;
	sax->getEntity = on_get_entity;
	sax->getParameterEntity = on_get_entity;
	sax->reference = on_reference;
	sax->serror = on_error;
	/* No externalSubset / resolveEntity: the DTD is never loaded. */
}

static int
feed(struct pstate *st, const char *p, size_t n, bool last)
{
	st->finishing = last;
	int rc = xmlParseChunk(st->ctxt, p, (int)n, last);
	if (st->failed)
		return -1;
	if (rc != 0 || !st->ctxt->wellFormed) {
		diag_set(st->err, DIAG_DATA, st->path, cur_line(st), 0, "malformed XML");
		return -1;
	}
	return 0;
}

static void
pstate_release(struct pstate *st)
{
	for (size_t i = 0; i < st->nframes; i++)
		strbuf_release(&st->frames[i].key);
	free(st->frames);
	strbuf_release(&st->text);
	if (st->ctxt) {
		if (st->ctxt->myDoc)
			xmlFreeDoc(st->ctxt->myDoc);
		xmlFreeParserCtxt(st->ctxt);
	}
}

#define FEED_CHUNK (1u << 16)

int
plist_read(struct line_reader *r, const struct plist_opts *opts, plist_callback cb,
	   void *ctx, struct diag *err)
{
	struct pstate st = { 0 };
	xmlSAXHandler sax;
	struct strbuf chunk = STRBUF_INIT;
	struct line ln;
	int rc;

	st.opts = opts;
	st.cb = cb;
	st.cbctx = ctx;
	st.path = r->path;
	st.err = err;
	st.leaf = E_NONE;
	strbuf_init(&st.text);
	sax_init(&sax);
	/* libxml2 2.9 initialises itself on first use without a lock: once, here,
	 * before any parser, since -j N may read property lists on several threads. */
	pthread_once(&xml_once, xmlInitParser);
	/* Only cli/ prints: libxml2's error channel (one per thread) stays silent too. */
	xmlSetGenericErrorFunc(NULL, quiet_generic_error);
	st.ctxt = xmlCreatePushParserCtxt(&sax, &st, NULL, 0, NULL);
	if (!st.ctxt) {
		rc = diag_set(err, DIAG_SOFTWARE, r->path, 0, 0, "cannot create an XML parser");
		goto out;
	}
	xmlCtxtUseOptions(st.ctxt, XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
	while ((rc = line_reader_next(r, &ln, err)) > 0) {
		if (ln.overlong) {
			rc = diag_set(err, DIAG_DATA, r->path, ln.no, 0,
				      "a line longer than %zu bytes in an XML property list",
				      r->max_line);
			goto out;
		}
		strbuf_add(&chunk, ln.p, ln.len);
		strbuf_addch(&chunk, '\n');
		if (chunk.len >= FEED_CHUNK) {
			if ((rc = feed(&st, chunk.buf, chunk.len, false)) < 0)
				goto out;
			strbuf_reset(&chunk);
		}
	}
	if (rc < 0)
		goto out;
	if ((rc = feed(&st, chunk.buf, chunk.len, false)) < 0)
		goto out;
	if ((rc = feed(&st, NULL, 0, true)) < 0)
		goto out;
	if (!st.seen_root)
		rc = diag_set(err, DIAG_DATA, r->path, 0, 0,
			      "the XML document holds no property-list value");
out:
	strbuf_release(&chunk);
	pstate_release(&st);
	return rc < 0 ? -1 : 0;
}
