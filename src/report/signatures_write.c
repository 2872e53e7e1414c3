/*
 * `iotally signatures` written out: the bucket table (text fitted to
 * SIGNATURES_TEXT_WIDTH columns, Markdown fitted to a GitHub comment), the
 * component view, one bucket with every member and the command that
 * reports each, the JSON document and the NDJSON rows.
 */

#include "report/signatures_write.h"

#include "report/jsontext.h"
#include "report/ndjson.h"
#include "report/report_md_write.h"
#include "report/textfmt.h"
#include "report/texttable.h"
#include "util/escape.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static json_int_t
clamp(uint64_t v)
{
	return v > INT64_MAX ? INT64_MAX : (json_int_t)v;
}

/* "+384 MiB"; "-" for none (a signature of counts only). */
static void
bytes_cell(struct strbuf *sb, uint64_t bytes)
{
	char s[32];
	if (!bytes) {
		strbuf_addch(sb, '-');
		return;
	}
	signature_bytes_text(bytes, s);
	strbuf_addf(sb, "+%s", s);
}

static void
count_cell(struct strbuf *sb, uint64_t count)
{
	if (count)
		strbuf_addf(sb, "+%llu", (unsigned long long)count);
	else
		strbuf_addch(sb, '-');
}

/* The day of a capture time as written ("2026-09-05 13:23:00 +0000": "2026-09-05"). */
static void
day_cell(struct strbuf *sb, const char *when)
{
	bool day = when && strlen(when) >= 10 && when[4] == '-' && when[7] == '-';
	if (!when)
		strbuf_addch(sb, '-');
	else
		strbuf_add(sb, when, day ? 10 : strlen(when));
}

/*
 * A bucket's label with its medians in it where it has one component
 * (model/signature.h, signature_label_with()); the row's own label when
 * the rule is not this one's.
 */
static char *
bucket_label(const struct signature_bucket *k)
{
	const struct signature_record *r = k->first_record;
	struct signature_figures fig = { k->median_bytes, k->median_count };
	char *label;
	if (r->canonical && strcmp(r->rule, SIGNATURE_RULE) == 0 &&
	    signature_label_with(r->canonical, &fig, &label) == 0)
		return label;
	return xstrdup(r->label ? r->label : "");
}

/* ---- columns that are left out when empty in every row ---- */

enum bucket_col {
	COL_PAIRS, COL_ID, COL_BYTES, COL_COUNT, COL_OS, COL_MACHINES, COL_LAST, COL_SIGNATURE,
	COLS,
};

/* The first capture time is in --bucket and JSON: the table keeps to 120 columns. */
static const char *const col_headers[COLS] = {
	"PAIRS", "ID", "BYTES", "COUNT", "OS", "MODELS", "LAST SEEN", "SIGNATURE",
};
static const char col_align[COLS] = "rlrrrrll";
/* What the headers stand for, said once under the summary line. */
static const char col_legend[] =
	"BYTES, COUNT: median growth of a pair; OS, MODELS: OS versions and machine models "
	"seen; LAST SEEN: latest capture day";

/* Cell c of bucket k (the signature cell uncut). */
static void
bucket_cell(struct strbuf *sb, const struct signature_bucket *k, enum bucket_col c)
{
	strbuf_reset(sb);
	switch (c) {
	case COL_PAIRS: strbuf_addf(sb, "%zu", k->count); break;
	case COL_ID: strbuf_addstr(sb, k->first_record->id); break;
	case COL_BYTES: bytes_cell(sb, k->median_bytes); break;
	case COL_COUNT: count_cell(sb, k->median_count); break;
	case COL_OS: strbuf_addf(sb, "%zu", k->nos); break;
	case COL_MACHINES: strbuf_addf(sb, "%zu", k->nmachines); break;
	case COL_LAST: day_cell(sb, k->last); break;
	case COL_SIGNATURE: {
		char *label = bucket_label(k);
		strbuf_addstr(sb, label);
		free(label);
		break;
	}
	case COLS: break;
	}
}

/* Is column c empty (0, none, unknown) in every bucket shown? */
static bool
col_empty(const struct signature_bucket *b, size_t n, enum bucket_col c)
{
	for (size_t i = 0; i < n; i++) {
		const struct signature_bucket *k = &b[i];
		bool empty = c == COL_BYTES ? !k->median_bytes
			   : c == COL_COUNT ? !k->median_count
			   : c == COL_OS ? !k->nos
			   : c == COL_MACHINES ? !k->nmachines
			   : c == COL_LAST ? !k->last : false;
		if (!empty)
			return false;
	}
	return true;
}

/* The width of a cell as shown (escaped). */
static size_t
shown_width(const char *s, struct strbuf *tmp)
{
	return text_width(escape_str(tmp, s));
}

/*
 * Text: the columns but the last, then the signature cut to what is left
 * of SIGNATURES_TEXT_WIDTH (its whole text is in JSON and --bucket).
 */
static size_t
signature_room(const struct signature_bucket *b, size_t n, const bool *shown)
{
	struct strbuf cell = STRBUF_INIT, tmp = STRBUF_INIT;
	size_t used = 0;
	for (int c = 0; c < COL_SIGNATURE; c++) {
		if (!shown[c])
			continue;
		size_t w = strlen(col_headers[c]);
		for (size_t i = 0; i < n; i++) {
			bucket_cell(&cell, &b[i], (enum bucket_col)c);
			size_t cw = shown_width(cell.buf, &tmp);
			w = cw > w ? cw : w;
		}
		used += w + 2;
	}
	strbuf_release(&cell);
	strbuf_release(&tmp);
	size_t least = strlen(col_headers[COL_SIGNATURE]) + 8;
	return used + least >= SIGNATURES_TEXT_WIDTH ? least : SIGNATURES_TEXT_WIDTH - used;
}

/* A label cut to `room` columns (bytes of ASCII; a multibyte label cut by bytes, shorter). */
static void
cut_label(struct strbuf *out, const char *label, size_t room)
{
	struct strbuf tmp = STRBUF_INIT;
	if (shown_width(label, &tmp) <= room)
		escape_addstr(out, label);
	else
		escape_add_cut(out, label, strlen(label), room > 3 ? room - 3 : 1);
	strbuf_release(&tmp);
}

static void
write_bucket_table(FILE *out, const struct signature_bucket *b, size_t n, bool markdown)
{
	bool shown[COLS];
	const char *headers[COLS];
	char align[COLS + 1];
	size_t ncols = 0;
	for (int c = 0; c < COLS; c++) {
		shown[c] = !col_empty(b, n, (enum bucket_col)c);
		if (shown[c]) {
			headers[ncols] = col_headers[c];
			align[ncols++] = col_align[c];
		}
	}
	align[ncols] = '\0';
	size_t room = markdown ? SIZE_MAX : signature_room(b, n, shown);
	struct text_table t;
	struct strbuf cell = STRBUF_INIT, cut = STRBUF_INIT;
	text_table_init(&t, ncols, headers, align);
	for (size_t i = 0; i < n; i++)
		for (int c = 0; c < COLS; c++) {
			if (!shown[c])
				continue;
			bucket_cell(&cell, &b[i], (enum bucket_col)c);
			if (c == COL_SIGNATURE && room != SIZE_MAX) {
				strbuf_reset(&cut);
				cut_label(&cut, cell.buf, room);
				text_table_add(&t, cut.buf);
			} else {
				text_table_add(&t, cell.buf);
			}
		}
	text_table_write(out, &t, markdown);
	text_table_release(&t);
	strbuf_release(&cell);
	strbuf_release(&cut);
}

/* "a, b, c and 93 more": the first `max` members' names; a line cut to `room` in text. */
static void
examples_line(FILE *out, const struct signature_bucket *k, const struct signature_record *recs,
	      size_t max, bool markdown)
{
	struct strbuf sb = STRBUF_INIT;
	size_t n = k->count < max ? k->count : max, shown = 0;
	if (markdown)
		strbuf_addf(&sb, "- `%s`: ", k->first_record->id);
	else
		strbuf_addf(&sb, "  %s  ", k->first_record->id);
	for (size_t i = 0; i < n; i++) {
		struct strbuf name = STRBUF_INIT;
		const char *pair = recs[k->members[i]].name;
		if (markdown)
			report_md_escape(pair, SIZE_MAX, &name);
		else
			escape_addstr(&name, pair);
		/* Text keeps to the width: the names that fit, the rest counted. */
		if (!markdown && shown > 0 &&
		    text_width(sb.buf) + 2 + text_width(name.buf) + 16 > SIGNATURES_TEXT_WIDTH) {
			strbuf_release(&name);
			break;
		}
		strbuf_addf(&sb, "%s%s", shown ? ", " : "", name.buf);
		strbuf_release(&name);
		shown++;
	}
	if (k->count > shown)
		strbuf_addf(&sb, " and %zu more", k->count - shown);
	fprintf(out, "%s\n", sb.buf);
	strbuf_release(&sb);
}

static void
summary_line(FILE *out, const struct signature_buckets *b, bool markdown)
{
	fprintf(out, "%s%zu pair%s: %zu with growth in %zu bucket%s, %zu without, %zu not "
		"compared (rule " SIGNATURE_RULE ")%s\n\n",
		markdown ? "**iotally signatures:** " : "iotally signatures: ", b->records,
		b->records == 1 ? "" : "s", b->grew, b->n, b->n == 1 ? "" : "s", b->no_growth,
		b->failed, b->partial ? "; partial: an input could not be read to its end" : "");
}

static void
write_buckets(FILE *out, const struct signature_buckets *b, const struct signature_record *recs,
	      const struct signatures_view *v, bool markdown)
{
	size_t n = b->n;
	if (markdown && n > SIGNATURES_MD_BUCKETS)
		n = SIGNATURES_MD_BUCKETS;
	fprintf(out, "%s\n\n", col_legend);
	write_bucket_table(out, b->b, n, markdown);
	if (n < b->n)
		fprintf(out, "\n%zu more bucket%s of %zu pairs or fewer: `--format json` has every "
			"one.\n", b->n - n, b->n - n == 1 ? "" : "s", b->b[n].count);
	size_t examples = markdown && v->examples > SIGNATURES_MD_EXAMPLES ? SIGNATURES_MD_EXAMPLES
									   : v->examples;
	if (examples == 0)
		return;
	fprintf(out, markdown ? "\n**Examples** (every pair of a bucket: `iotally signatures "
				"--bucket ID`):\n\n"
			      : "\nExamples (every pair of a bucket: iotally signatures --bucket "
				"ID INPUT...):\n");
	for (size_t i = 0; i < n; i++)
		examples_line(out, &b->b[i], recs, examples, markdown);
}

static void
write_components(FILE *out, const struct signature_buckets *b, bool markdown)
{
	static const char *const headers[] = { "PAIRS", "BUCKETS", "SECTION", "COMPONENT" };
	struct signature_components comps;
	signature_components_make(&comps, b);
	if (comps.n == 0) {
		signature_components_release(&comps);
		return;
	}
	fprintf(out, "%sPairs per component across buckets%s (a pair whose signature has several "
		"components counts in each):\n\n", markdown ? "**" : "", markdown ? "**" : "");
	size_t room = SIZE_MAX;
	if (!markdown) {
		size_t wp = strlen(headers[0]), wb = strlen(headers[1]), ws = strlen(headers[2]);
		for (size_t i = 0; i < comps.n; i++) {
			char s[32];
			size_t l = (size_t)snprintf(s, sizeof(s), "%zu", comps.c[i].pairs);
			wp = l > wp ? l : wp;
			l = (size_t)snprintf(s, sizeof(s), "%zu", comps.c[i].nbuckets);
			wb = l > wb ? l : wb;
			l = strlen(signature_section_name(comps.c[i].section));
			ws = l > ws ? l : ws;
		}
		room = SIGNATURES_TEXT_WIDTH - (wp + wb + ws + 6);
	}
	struct text_table t;
	struct strbuf cut = STRBUF_INIT;
	size_t shown = markdown && comps.n > SIGNATURES_MD_BUCKETS ? SIGNATURES_MD_BUCKETS : comps.n;
	text_table_init(&t, 4, headers, "rrll");
	for (size_t i = 0; i < shown; i++) {
		const struct signature_component_count *c = &comps.c[i];
		text_table_addf(&t, "%zu", c->pairs);
		text_table_addf(&t, "%zu", c->nbuckets);
		text_table_add(&t, signature_section_name(c->section));
		strbuf_reset(&cut);
		if (room == SIZE_MAX)
			strbuf_addstr(&cut, c->label);
		else
			cut_label(&cut, c->label, room);
		text_table_add(&t, cut.buf);
	}
	text_table_write(out, &t, markdown);
	if (shown < comps.n)
		fprintf(out, "\n%zu more component%s: `--format json` has every one.\n",
			comps.n - shown, comps.n - shown == 1 ? "" : "s");
	text_table_release(&t);
	strbuf_release(&cut);
	signature_components_release(&comps);
}

/* ---- one bucket, every member ---- */

enum member_col { MEM_PAIR, MEM_BYTES, MEM_COUNT, MEM_OS, MEM_MACHINE, MEM_CAPTURED, MEMS };

static const char *const mem_headers[MEMS] = {
	"PAIR", "GROWTH BYTES", "GROWTH COUNT", "OS VERSION", "MACHINE", "CAPTURED",
};
static const char mem_align[MEMS] = "lrrlll";

static const char *
mem_text(const struct signature_record *r, enum member_col c)
{
	return c == MEM_OS ? r->os_version : c == MEM_MACHINE ? r->machine
	       : c == MEM_CAPTURED ? r->captured : NULL;
}

static bool
mem_empty(const struct signature_bucket *k, const struct signature_record *recs,
	  enum member_col c)
{
	for (size_t i = 0; i < k->count; i++) {
		const struct signature_record *r = &recs[k->members[i]];
		if (c == MEM_PAIR || (c == MEM_BYTES && r->growth_bytes) ||
		    (c == MEM_COUNT && r->growth_count) || mem_text(r, c))
			return false;
	}
	return true;
}

static void
member_table(FILE *out, const struct signature_bucket *k, const struct signature_record *recs,
	     bool markdown)
{
	bool shown[MEMS];
	const char *headers[MEMS];
	char align[MEMS + 1];
	size_t ncols = 0;
	for (int c = 0; c < MEMS; c++) {
		shown[c] = !mem_empty(k, recs, (enum member_col)c);
		if (shown[c]) {
			headers[ncols] = mem_headers[c];
			align[ncols++] = mem_align[c];
		}
	}
	align[ncols] = '\0';
	struct text_table t;
	struct strbuf cell = STRBUF_INIT;
	text_table_init(&t, ncols, headers, align);
	for (size_t i = 0; i < k->count; i++) {
		const struct signature_record *r = &recs[k->members[i]];
		for (int c = 0; c < MEMS; c++) {
			if (!shown[c])
				continue;
			strbuf_reset(&cell);
			if (c == MEM_PAIR)
				strbuf_addstr(&cell, r->name);
			else if (c == MEM_BYTES)
				bytes_cell(&cell, r->growth_bytes);
			else if (c == MEM_COUNT)
				count_cell(&cell, r->growth_count);
			else
				strbuf_addstr(&cell, mem_text(r, (enum member_col)c) ? mem_text(r, (enum member_col)c) : "-");
			text_table_add(&t, cell.buf);
		}
	}
	text_table_write(out, &t, markdown);
	text_table_release(&t);
	strbuf_release(&cell);
}

void
signatures_report_command(struct strbuf *out, const struct signature_record *r)
{
	strbuf_addstr(out, "iotally report ");
	escape_add_shell_word(out, r->before);
	strbuf_addch(out, ' ');
	escape_add_shell_word(out, r->after);
}

/* A list with its total: "a, b (2)". */
static void
list_line(FILE *out, const char *title, const char *const *v, size_t n, bool markdown)
{
	struct strbuf sb = STRBUF_INIT;
	for (size_t i = 0; i < n; i++) {
		strbuf_addstr(&sb, i ? ", " : "");
		if (markdown)
			report_md_escape(v[i], SIZE_MAX, &sb);
		else
			escape_addstr(&sb, v[i]);
	}
	fprintf(out, "%s%s%s %s\n", markdown ? "**" : "", title, markdown ? ":**" : ":",
		n ? sb.buf : "-");
	strbuf_release(&sb);
}

static void
write_bucket(FILE *out, const struct signature_bucket *k, const struct signature_record *recs,
	     bool markdown)
{
	const struct signature_record *r = k->first_record;
	struct strbuf sb = STRBUF_INIT;
	char *label = bucket_label(k);
	fprintf(out, "%sbucket %s, %zu pair%s (rule ", markdown ? "**iotally signatures:** "
			: "iotally signatures: ", r->id, k->count, k->count == 1 ? "" : "s");
	escape_puts(out, r->rule);
	fputs(")\n\n", out);
	const char *head[] = { "Signature", "Canonical text" };
	const char *text[] = { label, r->canonical ? r->canonical : "-" };
	for (size_t i = 0; i < 2; i++) {
		strbuf_reset(&sb);
		if (markdown)
			report_md_escape(text[i], SIZE_MAX, &sb);
		else
			escape_addstr(&sb, text[i]);
		fprintf(out, "%s%s%s %s\n", markdown ? "**" : "", head[i], markdown ? ":**" : ":",
			sb.buf);
	}
	strbuf_reset(&sb);
	bytes_cell(&sb, k->median_bytes);
	strbuf_addstr(&sb, ", count ");
	count_cell(&sb, k->median_count);
	fprintf(out, "%sMedian growth%s %s\n", markdown ? "**" : "", markdown ? ":**" : ":", sb.buf);
	list_line(out, "OS versions", k->os_versions, k->nos, markdown);
	list_line(out, "Machines", k->machines, k->nmachines, markdown);
	const char *when[] = { k->first, k->last };
	list_line(out, "First and last capture", when, k->first ? 2 : 0, markdown);
	fputc('\n', out);
	member_table(out, k, recs, markdown);
	fprintf(out, "\n%s\n", markdown ? "Each pair's report:\n\n```sh" : "Each pair's report:");
	for (size_t i = 0; i < k->count; i++) {
		const struct signature_record *m = &recs[k->members[i]];
		strbuf_reset(&sb);
		if (m->before && m->after)
			signatures_report_command(&sb, m);
		else
		{
			strbuf_addstr(&sb, "# ");
			escape_addstr(&sb, m->name);
			strbuf_addstr(&sb, ": its row names no BEFORE and AFTER");
		}
		fprintf(out, "%s%s\n", markdown ? "" : "  ", sb.buf);
	}
	if (markdown)
		fputs("```\n", out);
	free(label);
	strbuf_release(&sb);
}

void
signatures_write_text(FILE *out, const struct signature_buckets *b,
		      const struct signature_record *recs, const struct signatures_view *v,
		      bool markdown)
{
	if (v->bucket) {
		write_bucket(out, &b->b[*v->bucket], recs, markdown);
		return;
	}
	summary_line(out, b, markdown);
	if (b->n == 0)
		return;
	if (v->by_component) {
		write_components(out, b, markdown);
		return;
	}
	write_buckets(out, b, recs, v, markdown);
	/* A bug's comment answers "how many pairs have this leak" too: both tables. */
	if (markdown) {
		fputc('\n', out);
		write_components(out, b, markdown);
	}
}

/* ---- JSON ---- */

static json_t *
text_array(const char *const *v, size_t n)
{
	json_t *a = json_array();
	for (size_t i = 0; i < n; i++)
		json_array_append_new(a, json_text(v[i]));
	return a;
}

static json_t *
text_or_null(const char *s)
{
	return s ? json_text(s) : json_null();
}

static json_t *
member_json(const struct signature_record *r)
{
	json_t *o = json_object();
	json_object_set_new_nocheck(o, "pair", text_or_null(r->name));
	json_object_set_new_nocheck(o, "before", text_or_null(r->before));
	json_object_set_new_nocheck(o, "after", text_or_null(r->after));
	json_object_set_new_nocheck(o, "kind", text_or_null(r->kind));
	json_object_set_new_nocheck(o, "growth_bytes", json_integer(clamp(r->growth_bytes)));
	json_object_set_new_nocheck(o, "growth_count", json_integer(clamp(r->growth_count)));
	json_object_set_new_nocheck(o, "os_version", text_or_null(r->os_version));
	json_object_set_new_nocheck(o, "machine", text_or_null(r->machine));
	json_object_set_new_nocheck(o, "captured", text_or_null(r->captured));
	return o;
}

static json_t *
bucket_json(const struct signature_bucket *k, const struct signature_record *recs,
	    size_t examples)
{
	const struct signature_record *r = k->first_record;
	json_t *o = json_object(), *ex = json_array(), *mem = json_array();
	json_object_set_new_nocheck(o, "id", json_string_nocheck(r->id));
	json_object_set_new_nocheck(o, "rule", json_text(r->rule));
	json_object_set_new_nocheck(o, "label", json_text(r->label));
	json_object_set_new_nocheck(o, "canonical", text_or_null(r->canonical));
	json_object_set_new_nocheck(o, "count", json_integer(clamp(k->count)));
	size_t n = k->count < examples ? k->count : examples;
	for (size_t j = 0; j < n; j++)
		json_array_append_new(ex, json_text(recs[k->members[j]].name));
	json_object_set_new_nocheck(o, "examples", ex);
	for (size_t j = 0; j < k->count; j++)
		json_array_append_new(mem, member_json(&recs[k->members[j]]));
	json_object_set_new_nocheck(o, "members", mem);
	json_object_set_new_nocheck(o, "os_versions", text_array(k->os_versions, k->nos));
	json_object_set_new_nocheck(o, "machines", text_array(k->machines, k->nmachines));
	json_object_set_new_nocheck(o, "first", text_or_null(k->first));
	json_object_set_new_nocheck(o, "last", text_or_null(k->last));
	json_object_set_new_nocheck(o, "median_growth_bytes", json_integer(clamp(k->median_bytes)));
	json_object_set_new_nocheck(o, "median_growth_count", json_integer(clamp(k->median_count)));
	return o;
}

/* The component view, of every bucket or of the one shown. */
static json_t *
components_json(const struct signature_buckets *b, const size_t *only)
{
	struct signature_components comps;
	json_t *arr = json_array();
	signature_components_make(&comps, b);
	for (size_t i = 0; i < comps.n; i++) {
		const struct signature_component_count *c = &comps.c[i];
		bool in = !only;
		for (size_t j = 0; only && j < c->nbuckets; j++)
			in |= c->buckets[j] == *only;
		if (!in)
			continue;
		json_t *o = json_object(), *ids = json_array();
		json_object_set_new_nocheck(o, "section",
					    json_string_nocheck(signature_section_name(c->section)));
		json_object_set_new_nocheck(o, "key", json_text(c->key));
		json_object_set_new_nocheck(o, "label", json_text(c->label));
		json_object_set_new_nocheck(o, "pairs", json_integer(clamp(c->pairs)));
		for (size_t j = 0; j < c->nbuckets; j++)
			json_array_append_new(ids, json_string_nocheck(b->b[c->buckets[j]].first_record->id));
		json_object_set_new_nocheck(o, "buckets", ids);
		json_array_append_new(arr, o);
	}
	signature_components_release(&comps);
	return arr;
}

int
signatures_write_json(FILE *out, const struct signature_buckets *b,
		      const struct signature_record *recs, const struct signatures_view *v)
{
	json_t *root = json_document_new(SIGNATURES_SCHEMA), *arr = json_array();
	json_object_set_new_nocheck(root, "rule", json_string_nocheck(SIGNATURE_RULE));
	json_object_set_new_nocheck(root, "pairs", json_integer(clamp(b->records)));
	json_object_set_new_nocheck(root, "grew", json_integer(clamp(b->grew)));
	json_object_set_new_nocheck(root, "no_growth", json_integer(clamp(b->no_growth)));
	json_object_set_new_nocheck(root, "failed", json_integer(clamp(b->failed)));
	json_object_set_new_nocheck(root, "partial", json_boolean(b->partial));
	json_object_set_new_nocheck(root, "bucket", v->bucket
				    ? json_string_nocheck(b->b[*v->bucket].first_record->id)
				    : json_null());
	for (size_t i = 0; i < b->n; i++)
		if (!v->bucket || *v->bucket == i)
			json_array_append_new(arr, bucket_json(&b->b[i], recs, v->examples));
	json_object_set_new_nocheck(root, "buckets", arr);
	json_object_set_new_nocheck(root, "components", components_json(b, v->bucket));
	return json_document_write(out, root);
}

/* ---- NDJSON ---- */

static int
write_row(FILE *out, const struct signature_record *r)
{
	struct ndjson_row *o = ndjson_row_new(SIGNATURES_NDJSON_SCHEMA, "pair",
					      r->after ? r->after : r->name, r->kind);
	ndjson_set(o, "baseline", ndjson_text_or_null(r->before));
	ndjson_set(o, "pair", ndjson_text_or_null(r->name));
	ndjson_set(o, "status", json_string_nocheck(r->error ? "error" : "ok"));
	ndjson_set(o, "error", ndjson_text_or_null(r->error));
	ndjson_set(o, "grew", json_boolean(r->grew));
	ndjson_set(o, "signature_id", r->grew ? json_string_nocheck(r->id) : json_null());
	ndjson_set(o, "signature_label", ndjson_text_or_null(r->grew ? r->label : NULL));
	ndjson_set(o, "signature_rule", ndjson_text_or_null(r->grew ? r->rule : NULL));
	ndjson_set(o, "signature", ndjson_text_or_null(r->grew ? r->canonical : NULL));
	ndjson_set(o, "growth_bytes", ndjson_uint_or_null(r->grew, r->growth_bytes));
	ndjson_set(o, "growth_count", ndjson_uint_or_null(r->grew, r->growth_count));
	ndjson_set(o, "os_version", ndjson_text_or_null(r->os_version));
	ndjson_set(o, "machine", ndjson_text_or_null(r->machine));
	ndjson_set(o, "captured", ndjson_text_or_null(r->captured));
	return ndjson_row_write(out, o);
}

int
signatures_write_ndjson(FILE *out, const struct signature_record *recs, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (write_row(out, &recs[i]) < 0)
			return -1;
	return 0;
}

int
signatures_write_ndjson_bucket(FILE *out, const struct signature_bucket *k,
			       const struct signature_record *recs)
{
	for (size_t i = 0; i < k->count; i++)
		if (write_row(out, &recs[k->members[i]]) < 0)
			return -1;
	return 0;
}
