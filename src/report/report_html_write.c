#include "report/report_html_write.h"

#include "report/report_json_write.h"
#include "report/report_text.h"
#include "util/hashmap.h"
#include "util/size.h"
#include "util/xalloc.h"

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* Chart geometry, in SVG user units (CSS pixels). */
#define CHART_W 720
#define LABEL_W 230
#define ROW_H 22
#define ICICLE_ROW_H 18
#define HIST_H 180

static const char css[] =
	":root{--bg:#fff;--fg:#1f2328;--muted:#59636e;--line:#d1d9e0;--head:#f6f8fa;"
	"--n:#1f6feb;--v:#bf8700;--e:#8c959f;--x:#8250df;--grow:#cf222e;--shrink:#0969da;"
	"--same:#afb8c1;--bar:#1f6feb;--bar2:#fb8500;--warn:#9a6700}"
	"@media (prefers-color-scheme:dark){:root{--bg:#0d1117;--fg:#e6edf3;--muted:#9198a1;"
	"--line:#3d444d;--head:#151b23;--n:#4493f8;--v:#d29922;--e:#656c76;--x:#ab7df8;"
	"--grow:#f85149;--shrink:#4493f8;--same:#3d444d;--bar:#4493f8;--bar2:#fb8f44;"
	"--warn:#d29922}}"
	"body{margin:0 auto;max-width:1200px;padding:1rem 1.5rem;background:var(--bg);"
	"color:var(--fg);font:14px/1.45 system-ui,-apple-system,'Segoe UI',sans-serif}"
	"h1{font-size:1.5rem;margin:.2rem 0}h2{font-size:1.2rem;border-bottom:1px solid "
	"var(--line);padding-bottom:.2rem;margin-top:2rem}"
	".verdict{font-size:1.1rem;font-weight:600}"
	"ul.summary{list-style:none;padding:0;margin:.4rem 0;font-size:1.05rem}"
	"ul.summary li{margin:.15rem 0}ul.summary b{font-weight:600}"
	"ul.summary+.verdict{font-size:.9rem;font-weight:400;color:var(--muted)}"
	"ul.summary ol{font:12px ui-monospace,SFMono-Regular,Menlo,monospace;margin:.2rem 0;"
	"color:var(--muted)}"
	".warn{color:var(--warn)}"
	"table{border-collapse:collapse;margin:.5rem 0 1rem;font-variant-numeric:tabular-nums;"
	"display:block;max-width:100%;overflow-x:auto}"
	"caption{text-align:left;font-weight:600;padding:.2rem 0}"
	"th,td{border:1px solid var(--line);padding:.15rem .5rem;vertical-align:top}"
	"th{background:var(--head);text-align:left}"
	"td.num{text-align:right;white-space:nowrap}"
	"td.name{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:12px;"
	"overflow-wrap:break-word}"
	"tr.bt td{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:12px}"
	"tr.bt ol{margin:0;padding-left:2rem}"
	".pair{display:flex;flex-wrap:wrap;gap:1.5rem;align-items:flex-start}"
	".pair>*{min-width:0;max-width:100%}"
	"figure{margin:.5rem 0}figcaption{font-weight:600;margin-bottom:.2rem}"
	"svg{max-width:100%;height:auto}svg text{fill:var(--fg);font:11px system-ui,sans-serif}"
	"svg .axis{stroke:var(--muted);stroke-width:1}"
	".s0{fill:var(--n)}.s1{fill:var(--v)}.s2{fill:var(--e)}.s3{fill:var(--x)}"
	".b0{fill:var(--bar)}.b1{fill:var(--bar2)}"
	".grow{fill:var(--grow)}.shrink{fill:var(--shrink)}.same{fill:var(--same)}"
	".h0{fill:#e76f51}.h1{fill:#f4a261}.h2{fill:#e9c46a}.h3{fill:#d62828}"
	".h4{fill:#f77f00}.h5{fill:#fcbf49}.h6{fill:#e85d04}.h7{fill:#dc2f02}"
	"svg rect.node{stroke:var(--bg);stroke-width:.5}svg text.in{fill:#000}"
	"svg rect.node.new{stroke:var(--fg);stroke-width:1.5;stroke-dasharray:3 2}"
	"svg text.in tspan.new{font-weight:700}"
	".more,.note{color:var(--muted)}summary{cursor:pointer;color:var(--muted)}"
	"svg text.val{font-weight:600}"
	"footer{margin-top:2rem;color:var(--muted);font-size:12px}"
	/* A phone: charts keep their text size and scroll in their own box, as tables do. */
	"@media (max-width:700px){body{padding:.5rem .75rem}figure{overflow-x:auto;"
	"max-width:100%}figure svg{max-width:none}h1{font-size:1.2rem}"
	"ul.summary{font-size:.95rem}"
	/* ... and a pair's delta column in sight without scrolling: names and
	 * words wrap anywhere, figures between number and unit. */
	"th,td{padding:.1rem .25rem}th{font-size:12px}"
	"td:not(.num){overflow-wrap:anywhere;min-width:3rem}td.num{white-space:normal}}"
	"@media print{body{max-width:none;padding:0;font-size:11px}.pair{display:block}"
	"h2{break-after:avoid}figure,tr{break-inside:avoid}}";

/* Timelines of a series: a line, its points, the fitted slope, a badge. */
static const char css_timeline[] =
	"svg.timeline .tl-line{fill:none;stroke:var(--bar);stroke-width:1.5}"
	"svg.timeline .tl-pt{fill:var(--bar)}"
	"svg.timeline .tl-fit{stroke:var(--grow);stroke-width:1.5;stroke-dasharray:5 3}"
	"svg.timeline text.badge{fill:#fff;font-weight:700}"
	"svg.timeline .tl-warm{fill:var(--same);opacity:.35}"
	"svg.timeline .tl-break{fill:none;stroke:var(--muted);stroke-width:1.5}"
	".badge-leak{fill:var(--grow)}.badge-plateau{fill:var(--v)}.badge-growing{fill:var(--x)}"
	".badge-step{fill:var(--bar2)}.badge-other{fill:var(--muted)}"
	"figure.timeline p.note{margin:0;max-width:480px;font-size:12px}";

void
report_html_escape(const char *s, size_t max_chars, struct strbuf *out)
{
	struct strbuf clean = STRBUF_INIT;
	report_text_clean(s ? s : "", max_chars, &clean);
	for (const char *p = clean.buf; *p; p++) {
		switch (*p) {
		case '&': strbuf_addstr(out, "&amp;"); break;
		case '<': strbuf_addstr(out, "&lt;"); break;
		case '>': strbuf_addstr(out, "&gt;"); break;
		case '"': strbuf_addstr(out, "&quot;"); break;
		case '\'': strbuf_addstr(out, "&#39;"); break;
		default: strbuf_addch(out, *p); break;
		}
	}
	strbuf_release(&clean);
}

/*
 * How much of the report a rendering shows: the page is rendered again,
 * each time smaller, until it fits REPORT_HTML_LIMIT. The JSON at its end
 * is cut the same way (report_json_write.h); `charts` is per section.
 * The first level is the whole page, the last a bare one (headline,
 * warnings, no section) that fits whatever the input.
 */
struct html_fold {
	struct report_fold data;
	size_t charts;
};

static const struct html_fold folds[] = {
	{ { 0, SIZE_MAX, SIZE_MAX, SIZE_MAX, SIZE_MAX, false }, SIZE_MAX },
	{ { 1000, REPORT_HTML_ROWS, 40, REPORT_CHART_ITEMS_MAX, 100, false }, 40 },
	{ { 200, 100, 24, 200, 50, false }, 20 },
	{ { 100, 50, 12, 100, 20, false }, 10 },
	{ { 60, 20, 8, 40, 10, false }, 5 },
	{ { 40, 5, 4, 10, 5, false }, 2 },
	{ { 40, 0, 0, 0, 3, false }, 0 },
	{ { 40, 0, 0, 0, 3, true }, 0 },
};

#define NFOLDS (sizeof(folds) / sizeof(folds[0]))

/*
 * The level being rendered: read by the writers below rather than passed
 * down every call (a page is rendered by one thread, but -j may render
 * several pages at once).
 */
static _Thread_local const struct html_fold *fold = &folds[0];

static void
esc(struct strbuf *out, const char *s)
{
	report_html_escape(s, fold->data.chars, out);
}

/* The first n bytes of s, escaped. */
static void
esc_n(struct strbuf *out, const char *s, size_t n)
{
	char *part = xmemdup0(s, n);
	esc(out, part);
	free(part);
}

/* A figure as words for a tooltip: "16 KiB (16384 bytes)". */
static void
figure_title(struct strbuf *out, bool bytes, int64_t v)
{
	char b[32];
	if (!bytes) {
		strbuf_addf(out, "%" PRId64, v);
		return;
	}
	if (v < 0)
		size_format_binary_delta(v, b);
	else
		size_format_binary((uint64_t)v, b);
	strbuf_addf(out, "%s (%" PRId64 " bytes)", b, v);
}

/* num / den of `scale` units, in tenths of a unit (integer arithmetic). */
static int64_t
tenths(int64_t num, int64_t den, int64_t scale)
{
	if (den <= 0)
		return 0;
	return (int64_t)((__int128)num * scale * 10 / den);
}

/* A coordinate given in tenths: "12.3". */
static void
put_tenths(struct strbuf *out, int64_t t)
{
	if (t < 0) {
		strbuf_addch(out, '-');
		t = -t;
	}
	strbuf_addf(out, "%" PRId64 ".%" PRId64, t / 10, t % 10);
}

static void
coord(struct strbuf *out, int64_t num, int64_t den, int64_t scale)
{
	put_tenths(out, tenths(num, den, scale));
}

/* ---- charts ------------------------------------------------------------- */

static void
svg_open(struct strbuf *out, const struct report_chart *c, int height)
{
	strbuf_addf(out, "<figure><figcaption>");
	esc(out, c->title);
	strbuf_addf(out, "</figcaption><svg xmlns=\"http://www.w3.org/2000/svg\" "
		    "class=\"chart %s\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
		    "role=\"img\" aria-label=\"", c->kind == REPORT_CHART_ICICLE ? "icicle" : "bars",
		    CHART_W, height, CHART_W, height);
	esc(out, c->title);
	strbuf_addstr(out, "\">");
}

static void
svg_close(struct strbuf *out, const struct report_chart *c)
{
	strbuf_addstr(out, "</svg>");
	if (c->omitted)
		strbuf_addf(out, "<p class=\"more\">%" PRIu64 " more item%s not drawn.</p>",
			    c->omitted, c->omitted == 1 ? "" : "s");
	strbuf_addstr(out, "</figure>");
}

static void
label_text(struct strbuf *out, int x, int y, const char *anchor, const char *label,
	   size_t max_chars)
{
	strbuf_addf(out, "<text x=\"%d\" y=\"%d\" text-anchor=\"%s\">", x, y, anchor);
	report_html_escape(label, max_chars, out);
	strbuf_addstr(out, "</text>");
}

static void
legend(struct strbuf *out, const struct report_chart *c, int y, const char *prefix)
{
	int x = LABEL_W;
	for (size_t k = 0; k < c->nseries; k++) {
		strbuf_addf(out, "<rect class=\"%s%zu key\" x=\"%d\" y=\"%d\" width=\"10\" "
			    "height=\"10\"/>", prefix, k, x, y - 9);
		label_text(out, x + 14, y, "start", c->series[k], 24);
		x += 24 + 7 * (int)strlen(c->series[k]);
	}
}

/* A figure as a short label on a chart: "~429.08 MiB", "+3", "12". */
static void
figure_label(struct strbuf *out, bool bytes, int64_t v)
{
	char b[32];
	if (bytes && v < 0)
		size_format_binary_delta(v, b);
	else if (bytes)
		size_format_binary((uint64_t)v, b);
	else
		snprintf(b, sizeof(b), "%" PRId64, v);
	strbuf_addstr(out, b);
}

/* Room for the bar's total right of the longest bar. */
#define VALUE_W 100
/* Average glyph width of the 11 px chart font, to tell whether a label fits. */
#define GLYPH_W 7

/* The sum of an item's series, saturated at INT64_MAX (each value is at most that). */
static int64_t
item_sum(const struct report_chart *c, const struct report_chart_item *it)
{
	int64_t sum = 0;
	for (size_t k = 0; k < c->nseries; k++)
		if (it->v[k] > 0 && __builtin_add_overflow(sum, it->v[k], &sum))
			return INT64_MAX;
	return sum;
}

/*
 * Bars of stacked segments; each bar's total written right of it, each
 * segment wide enough for its figure labelled inside; every segment's
 * tooltip gives its exact figure.
 */
static void
chart_stacked(struct strbuf *out, const struct report_chart *c)
{
	int64_t max = 0;
	for (size_t i = 0; i < c->nitems; i++) {
		int64_t sum = 0;
		for (size_t k = 0; k < c->nseries; k++)
			sum += c->items[i].v[k] / 4;   /* quarters: a sum of 4 cannot overflow */
		max = sum > max ? sum : max;
	}
	int plot = CHART_W - LABEL_W - VALUE_W;
	int h = ROW_H * (int)c->nitems + 34;
	svg_open(out, c, h);
	for (size_t i = 0; i < c->nitems; i++) {
		const struct report_chart_item *it = &c->items[i];
		int y = ROW_H * (int)i + 4;
		label_text(out, LABEL_W - 8, y + 14, "end", it->label, 34);
		int64_t at = 0;
		for (size_t k = 0; k < c->nseries; k++) {
			int64_t w = it->v[k] / 4;
			if (w <= 0)
				continue;
			int64_t x10 = 10 * LABEL_W + tenths(at, max, plot);
			int64_t w10 = tenths(w, max, plot);
			strbuf_addf(out, "<rect class=\"s%zu\" x=\"", k);
			put_tenths(out, x10);
			strbuf_addf(out, "\" y=\"%d\" width=\"", y);
			put_tenths(out, w10);
			strbuf_addf(out, "\" height=\"%d\"><title>", ROW_H - 6);
			esc(out, it->label);
			strbuf_addstr(out, ", ");
			esc(out, c->series[k]);
			strbuf_addstr(out, ": ");
			figure_title(out, c->bytes, it->v[k]);
			strbuf_addstr(out, "</title></rect>");
			struct strbuf fig = STRBUF_INIT;
			figure_label(&fig, c->bytes, it->v[k]);
			if (w10 >= 10 * (GLYPH_W * (int64_t)fig.len + 6)) {
				strbuf_addstr(out, "<text class=\"in val\" x=\"");
				put_tenths(out, x10);
				strbuf_addf(out, "\" dx=\"3\" y=\"%d\">%s</text>", y + 12, fig.buf);
			}
			strbuf_release(&fig);
			at += w;
		}
		if (at > 0) {
			struct strbuf fig = STRBUF_INIT;
			figure_label(&fig, c->bytes, item_sum(c, it));
			strbuf_addstr(out, "<text class=\"val\" x=\"");
			put_tenths(out, 10 * LABEL_W + tenths(at, max, plot));
			strbuf_addf(out, "\" dx=\"4\" y=\"%d\">%s</text>", y + 12, fig.buf);
			strbuf_release(&fig);
		}
	}
	legend(out, c, h - 8, "s");
	svg_close(out, c);
}

/* The item of the largest value of series k (the first of equals), or SIZE_MAX. */
static size_t
largest_item(const struct report_chart *c, size_t k)
{
	size_t best = SIZE_MAX;
	for (size_t i = 0; i < c->nitems; i++)
		if (c->items[i].v[k] > 0 && (best == SIZE_MAX || c->items[i].v[k] > c->items[best].v[k]))
			best = i;
	return best;
}

/*
 * Vertical bars per bucket, one per series side by side; the largest bar
 * of each series labelled with its figure above it; every bar's tooltip
 * gives its exact figure and, for bytes, how many regions make it.
 */
static void
chart_histogram(struct strbuf *out, const struct report_chart *c)
{
	int64_t max = 1;
	for (size_t i = 0; i < c->nitems; i++)
		for (size_t k = 0; k < c->nseries; k++)
			max = c->items[i].v[k] > max ? c->items[i].v[k] : max;
	int h = HIST_H + 84;
	int top = 14, left = 70, plot = CHART_W - left - 10;
	int slot = c->nitems ? plot / (int)c->nitems : plot;
	int bw = (slot - 4) / (int)(c->nseries ? c->nseries : 1);
	svg_open(out, c, h);
	strbuf_addf(out, "<line class=\"axis\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>",
		    left, top + HIST_H + 10, left + plot, top + HIST_H + 10);
	strbuf_addf(out, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">", left - 4, top + 14);
	figure_label(out, c->bytes, max);
	strbuf_addf(out, "</text><text x=\"%d\" y=\"%d\" text-anchor=\"end\">0</text>",
		    left - 4, top + HIST_H + 10);
	for (size_t i = 0; i < c->nitems; i++) {
		const struct report_chart_item *it = &c->items[i];
		int x = left + slot * (int)i + 2;
		for (size_t k = 0; k < c->nseries; k++) {
			int64_t y10 = 10 * (top + 10) + tenths(max - it->v[k], max, HIST_H);
			strbuf_addf(out, "<rect class=\"b%zu\" x=\"%d\" y=\"", k, x + bw * (int)k);
			put_tenths(out, y10);
			strbuf_addf(out, "\" width=\"%d\" height=\"",
				    bw > 1 ? bw - 1 : 1);
			coord(out, it->v[k], max, HIST_H);
			strbuf_addstr(out, "\"><title>");
			esc(out, it->label);
			strbuf_addstr(out, ", ");
			esc(out, c->series[k]);
			strbuf_addstr(out, ": ");
			figure_title(out, c->bytes, it->v[k]);
			if (c->counts)
				strbuf_addf(out, " in %" PRId64 " region%s", it->counts[k],
					    it->counts[k] == 1 ? "" : "s");
			strbuf_addstr(out, "</title></rect>");
			/* The largest bar of each series (once where two are the same bucket). */
			size_t big = largest_item(c, k);
			if (big == i && (k == 0 || largest_item(c, 0) != i || it->v[k] != it->v[0])) {
				int tx = x + bw * (int)k + bw / 2;
				strbuf_addf(out, "<text class=\"val\" x=\"%d\" y=\"", tx);
				put_tenths(out, y10 - 30);
				strbuf_addstr(out, "\" text-anchor=\"middle\">");
				figure_label(out, c->bytes, it->v[k]);
				strbuf_addstr(out, "</text>");
			}
		}
		/* The bucket's lower bound, slanted under the axis. */
		char lower[80];
		const char *sp = strstr(it->label, " to ");
		size_t n = sp ? (size_t)(sp - it->label) : strlen(it->label);
		if (n >= sizeof(lower))
			n = sizeof(lower) - 1;
		memcpy(lower, it->label, n);
		lower[n] = '\0';
		int tx = x + slot / 2, ty = top + HIST_H + 24;
		strbuf_addf(out, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\" "
			    "transform=\"rotate(-40 %d %d)\">", tx, ty, tx, ty);
		esc(out, lower);
		strbuf_addstr(out, "</text>");
	}
	if (c->nseries > 1)
		legend(out, c, h - 6, "b");
	svg_close(out, c);
}

static void
chart_diverging(struct strbuf *out, const struct report_chart *c)
{
	int64_t max = 1;
	for (size_t i = 0; i < c->nitems; i++) {
		int64_t v = c->items[i].v[0];
		int64_t m = v < 0 ? (v == INT64_MIN ? INT64_MAX : -v) : v;
		max = m > max ? m : max;
	}
	int h = ROW_H * (int)c->nitems + 10;
	int half = (CHART_W - LABEL_W - 20) / 2, mid = LABEL_W + 10 + half;
	svg_open(out, c, h);
	strbuf_addf(out, "<line class=\"axis\" x1=\"%d\" y1=\"0\" x2=\"%d\" y2=\"%d\"/>", mid,
		    mid, h);
	for (size_t i = 0; i < c->nitems; i++) {
		const struct report_chart_item *it = &c->items[i];
		int64_t v = it->v[0];
		int64_t m = v < 0 ? (v == INT64_MIN ? INT64_MAX : -v) : v;
		int y = ROW_H * (int)i + 4;
		label_text(out, LABEL_W - 8, y + 14, "end", it->label, 34);
		strbuf_addf(out, "<rect class=\"%s\" x=\"", v > 0 ? "grow" : v < 0 ? "shrink" : "same");
		put_tenths(out, 10 * mid - (v < 0 ? tenths(m, max, half) : 0));
		strbuf_addf(out, "\" y=\"%d\" width=\"", y);
		coord(out, m, max, half);
		strbuf_addf(out, "\" height=\"%d\"><title>", ROW_H - 6);
		esc(out, it->label);
		strbuf_addstr(out, ": ");
		if (c->bytes) {
			figure_title(out, true, v);
		} else {
			strbuf_addf(out, "%+" PRId64, v);
		}
		strbuf_addstr(out, "</title></rect>");
		strbuf_addf(out, "<text class=\"val\" x=\"%d\" y=\"%d\" text-anchor=\"%s\">%+"
			    PRId64 "</text>",
			    v < 0 ? mid + 4 : mid - 4, y + 14, v < 0 ? "start" : "end", v);
	}
	svg_close(out, c);
}

static unsigned
name_hue(const char *s)
{
	return (unsigned)(hash_bytes(s, strlen(s)) % 8);
}

/*
 * A node of a before/after icicle whose every site is new: no bytes before,
 * some after. Its values say so (v[3] before, v[2] after), so the JSON needs
 * no flag of its own.
 */
static bool
icicle_node_new(const struct report_chart *c, const struct report_chart_item *it)
{
	return c->differential && it->v[3] == 0 && it->v[2] > 0;
}

static void
chart_icicle(struct strbuf *out, const struct report_chart *c)
{
	uint32_t depth = 0, new_depth = UINT32_MAX;
	int64_t maxd = 1;
	for (size_t i = 0; i < c->nitems; i++) {
		depth = c->items[i].depth > depth ? c->items[i].depth : depth;
		int64_t d = c->items[i].v[1];
		int64_t m = d < 0 ? (d == INT64_MIN ? INT64_MAX : -d) : d;
		maxd = m > maxd ? m : maxd;
	}
	int h = ICICLE_ROW_H * (int)(depth + 1) + 4;
	svg_open(out, c, h);
	for (size_t i = 0; i < c->nitems; i++) {
		const struct report_chart_item *it = &c->items[i];
		/*
		 * Items come depth first, and a new node's children are new too:
		 * only the topmost node of a new run says NEW in its label.
		 */
		if (it->depth <= new_depth)
			new_depth = UINT32_MAX;
		bool fresh = icicle_node_new(c, it);
		bool first_new = fresh && new_depth == UINT32_MAX;
		if (first_new)
			new_depth = it->depth;
		int y = ICICLE_ROW_H * (int)it->depth;
		int64_t wpx10 = (int64_t)((__int128)it->v[0] * CHART_W * 10 / (c->total ? c->total : 1));
		if (c->differential) {
			int64_t d = it->v[1];
			int64_t m = d < 0 ? (d == INT64_MIN ? INT64_MAX : -d) : d;
			int tenths = d ? 3 + (int)((__int128)m * 7 / maxd) : 10;
			strbuf_addf(out, "<rect class=\"node %s%s\" fill-opacity=\"%d.%d\" x=\"",
				    d > 0 ? "grow" : d < 0 ? "shrink" : "same",
				    fresh ? " new" : "", tenths / 10, tenths % 10);
		} else {
			strbuf_addf(out, "<rect class=\"node h%u\" x=\"", name_hue(it->label));
		}
		coord(out, it->start, c->total, CHART_W);
		strbuf_addf(out, "\" y=\"%d\" width=\"", y);
		coord(out, it->v[0], c->total, CHART_W);
		strbuf_addf(out, "\" height=\"%d\"><title>", ICICLE_ROW_H - 1);
		esc(out, it->label);
		strbuf_addstr(out, ": ");
		figure_title(out, true, c->differential ? it->v[2] : it->v[0]);
		if (c->differential) {
			strbuf_addstr(out, ", before ");
			figure_title(out, true, it->v[3]);
			strbuf_addstr(out, ", change ");
			figure_title(out, true, it->v[1]);
		}
		if (fresh)
			strbuf_addstr(out, " (new: no bytes before)");
		strbuf_addstr(out, "</title></rect>");
		size_t chars = (size_t)(wpx10 / 10 / 7);
		if (chars >= 4) {
			strbuf_addstr(out, "<text class=\"in\" x=\"");
			coord(out, it->start, c->total, CHART_W);
			strbuf_addf(out, "\" dx=\"3\" y=\"%d\">", y + ICICLE_ROW_H - 5);
			if (first_new && chars >= 8) {
				strbuf_addstr(out, "<tspan class=\"new\">NEW</tspan> ");
				chars -= 4;
			}
			report_html_escape(it->label, chars - 1, out);
			strbuf_addstr(out, "</text>");
		}
	}
	svg_close(out, c);
}

/* Timeline geometry: two side by side on a wide page. */
#define TL_W 480
#define TL_H 160
#define TL_LEFT 84
#define TL_RIGHT 14
#define TL_TOP 36
#define TL_BOTTOM 30

/* The badge's colour class: the verdicts that rank first have their own. */
static const char *
badge_class(const char *badge)
{
	static const char *const own[][2] = {
		{ "LEAK", "badge-leak" }, { "PLATEAU", "badge-plateau" },
		{ "GROWING", "badge-growing" }, { "STEP", "badge-step" },
	};
	for (size_t i = 0; badge && i < sizeof(own) / sizeof(own[0]); i++)
		if (strcmp(badge, own[i][0]) == 0)
			return own[i][1];
	return "badge-other";
}

struct tl_scale {
	int64_t lo, hi;
	size_t n;
};

/* x of item i, in tenths of a unit. */
static int64_t
tl_x(const struct tl_scale *sc, size_t i)
{
	int plot = TL_W - TL_LEFT - TL_RIGHT;
	if (sc->n < 2)
		return 10 * (TL_LEFT + plot / 2);
	return 10 * TL_LEFT + tenths((int64_t)i, (int64_t)(sc->n - 1), plot);
}

/* y of value v, in tenths (the span as a 128-bit difference: no overflow). */
static int64_t
tl_y(const struct tl_scale *sc, int64_t v)
{
	int plot = TL_H - TL_TOP - TL_BOTTOM;
	__int128 span = (__int128)sc->hi - sc->lo;
	if (span <= 0)
		return 10 * (TL_TOP + plot / 2);
	__int128 above = (__int128)sc->hi - v;
	if (above < 0)
		above = 0;
	if (above > span)
		above = span;
	return 10 * TL_TOP + (int64_t)(above * plot * 10 / span);
}

/*
 * One metric over the samples: its values joined by a line (broken where a
 * sample has none), each point's tooltip its sample and exact figure, the
 * fitted slope dashed over the analysed window, the verdict as a badge, the
 * first and last figures written beside their points and the range on the
 * axis.
 */
static void
chart_timeline(struct strbuf *out, const struct report_chart *c)
{
	struct tl_scale sc = { INT64_MAX, INT64_MIN, c->nitems };
	size_t first = SIZE_MAX, last = SIZE_MAX;
	for (size_t i = 0; i < c->nitems; i++) {
		if (c->items[i].absent)
			continue;
		int64_t v = c->items[i].v[0];
		sc.lo = v < sc.lo ? v : sc.lo;
		sc.hi = v > sc.hi ? v : sc.hi;
		first = first == SIZE_MAX ? i : first;
		last = i;
	}
	if (first == SIZE_MAX)
		return;
	/*
	 * The y axis starts at zero, so that a line's rise reads as its share
	 * of the level; unless zero would flatten it (its range under a
	 * quarter of its top), when the axis starts at its lowest value and a
	 * break is drawn on it to say so.
	 */
	bool axis_break = false;
	if (sc.lo > 0 && sc.hi - sc.lo >= sc.hi / 4)
		sc.lo = 0;
	else if (sc.lo > 0)
		axis_break = true;
	strbuf_addstr(out, "<figure class=\"timeline\"><figcaption>");
	esc(out, c->title);
	strbuf_addf(out, "</figcaption><svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart "
		    "timeline\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\" "
		    "aria-label=\"", TL_W, TL_H, TL_W, TL_H);
	esc(out, c->title);
	if (c->badge) {
		strbuf_addstr(out, ": ");
		esc(out, c->badge);
	}
	strbuf_addstr(out, "\">");
	int bottom = TL_H - TL_BOTTOM;
	strbuf_addf(out, "<line class=\"axis\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>"
		    "<line class=\"axis\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>",
		    TL_LEFT, TL_TOP, TL_LEFT, bottom, TL_LEFT, bottom, TL_W - TL_RIGHT, bottom);
	/* The analysed window starts after the warm-up: its samples shaded. */
	if (c->has_fit && c->fit.from > 0 && c->fit.from < c->nitems) {
		int64_t x0 = tl_x(&sc, 0), x1 = tl_x(&sc, c->fit.from);
		strbuf_addstr(out, "<rect class=\"tl-warm\" x=\"");
		put_tenths(out, x0);
		strbuf_addf(out, "\" y=\"%d\" width=\"", TL_TOP);
		put_tenths(out, x1 - x0);
		strbuf_addf(out, "\" height=\"%d\"><title>warm-up: the first %zu samples, not "
			    "in the fit</title></rect>", bottom - TL_TOP, c->fit.from);
	}
	if (axis_break)
		strbuf_addf(out, "<path class=\"tl-break\" d=\"M%d %dl8 -4M%d %dl8 -4\"/>",
			    TL_LEFT - 4, bottom - 6, TL_LEFT - 4, bottom - 2);
	/* The range on the axis: highest at the top, lowest at the bottom. */
	strbuf_addf(out, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">", TL_LEFT - 4, TL_TOP + 4);
	figure_label(out, c->bytes, sc.hi);
	strbuf_addf(out, "</text><text x=\"%d\" y=\"%d\" text-anchor=\"end\">", TL_LEFT - 4,
		    bottom);
	figure_label(out, c->bytes, sc.lo);
	strbuf_addstr(out, "</text>");
	/* The samples' names under the axis: the first and the last. */
	label_text(out, TL_LEFT, bottom + 16, "start", c->items[0].label, 28);
	if (c->nitems > 1)
		label_text(out, TL_W - TL_RIGHT, bottom + 16, "end", c->items[c->nitems - 1].label, 28);
	if (c->has_fit && c->fit.from < c->nitems && c->fit.to < c->nitems) {
		strbuf_addstr(out, "<line class=\"tl-fit\" x1=\"");
		put_tenths(out, tl_x(&sc, c->fit.from));
		strbuf_addstr(out, "\" y1=\"");
		put_tenths(out, tl_y(&sc, c->fit.first));
		strbuf_addstr(out, "\" x2=\"");
		put_tenths(out, tl_x(&sc, c->fit.to));
		strbuf_addstr(out, "\" y2=\"");
		put_tenths(out, tl_y(&sc, c->fit.last));
		strbuf_addstr(out, "\"><title>fitted slope: ");
		figure_title(out, c->bytes, c->fit.first);
		strbuf_addstr(out, " to ");
		figure_title(out, c->bytes, c->fit.last);
		strbuf_addstr(out, "</title></line>");
	}
	strbuf_addstr(out, "<path class=\"tl-line\" d=\"");
	bool pen = false;
	for (size_t i = 0; i < c->nitems; i++) {
		if (c->items[i].absent) {
			pen = false;
			continue;
		}
		strbuf_addch(out, pen ? 'L' : 'M');
		put_tenths(out, tl_x(&sc, i));
		strbuf_addch(out, ' ');
		put_tenths(out, tl_y(&sc, c->items[i].v[0]));
		pen = true;
	}
	strbuf_addstr(out, "\"/>");
	for (size_t i = 0; i < c->nitems; i++) {
		const struct report_chart_item *it = &c->items[i];
		if (it->absent)
			continue;
		strbuf_addstr(out, "<circle class=\"tl-pt\" cx=\"");
		put_tenths(out, tl_x(&sc, i));
		strbuf_addstr(out, "\" cy=\"");
		put_tenths(out, tl_y(&sc, it->v[0]));
		strbuf_addstr(out, "\" r=\"2.5\"><title>");
		esc(out, it->label);
		strbuf_addstr(out, ": ");
		figure_title(out, c->bytes, it->v[0]);
		strbuf_addstr(out, "</title></circle>");
	}
	/* The first and last figures, above their points. */
	for (int end = 0; end < 2; end++) {
		size_t i = end ? last : first;
		if (end && last == first)
			break;
		strbuf_addstr(out, "<text class=\"val\" x=\"");
		put_tenths(out, tl_x(&sc, i));
		strbuf_addf(out, "\" dy=\"-6\" text-anchor=\"%s\" y=\"", end ? "end" : "start");
		put_tenths(out, tl_y(&sc, c->items[i].v[0]));
		strbuf_addstr(out, "\">");
		figure_label(out, c->bytes, c->items[i].v[0]);
		strbuf_addstr(out, "</text>");
	}
	if (c->badge) {
		int w = 12 + (GLYPH_W + 1) * (int)strlen(c->badge);   /* bold */
		strbuf_addf(out, "<rect class=\"%s\" x=\"%d\" y=\"2\" width=\"%d\" height=\"16\" "
			    "rx=\"3\"/><text class=\"badge\" x=\"%d\" y=\"14\" "
			    "text-anchor=\"middle\">", badge_class(c->badge), TL_W - TL_RIGHT - w, w,
			    TL_W - TL_RIGHT - w / 2);
		esc(out, c->badge);
		strbuf_addstr(out, "</text>");
	}
	strbuf_addstr(out, "</svg>");
	if (c->note) {
		strbuf_addstr(out, "<p class=\"note\">");
		esc(out, c->note);
		strbuf_addstr(out, "</p>");
	}
	strbuf_addstr(out, "</figure>");
}

static void
write_chart(struct strbuf *out, const struct report_chart *c)
{
	if (c->nitems == 0)
		return;
	switch (c->kind) {
	case REPORT_CHART_STACKED: chart_stacked(out, c); break;
	case REPORT_CHART_HISTOGRAM: chart_histogram(out, c); break;
	case REPORT_CHART_DIVERGING: chart_diverging(out, c); break;
	case REPORT_CHART_ICICLE: chart_icicle(out, c); break;
	case REPORT_CHART_TIMELINE: chart_timeline(out, c); break;
	}
}

/* ---- tables ------------------------------------------------------------- */

static void
write_cell(struct strbuf *out, const struct report_cell *c, bool exact_beside)
{
	switch (c->kind) {
	case REPORT_CELL_TEXT:
		strbuf_addstr(out, "<td>");
		esc(out, c->text);
		break;
	case REPORT_CELL_CODE:
		strbuf_addstr(out, "<td class=\"name\">");
		esc(out, c->text);
		break;
	case REPORT_CELL_EMPTY:
		strbuf_addstr(out, "<td class=\"num\">\xe2\x80\x93");
		break;
	default:
		strbuf_addstr(out, "<td class=\"num\" title=\"");
		report_cell_exact(c, out);
		strbuf_addstr(out, "\">");
		if (exact_beside)
			report_cell_figure_exact_beside(c, out);
		else
			report_cell_figure(c, out);
		break;
	}
	strbuf_addstr(out, "</td>");
}

static void
write_head(struct strbuf *out, const struct report_table *t, const char *id_suffix,
	   const char *title_suffix)
{
	strbuf_addstr(out, "<table id=\"t-");
	esc(out, t->id);
	strbuf_addf(out, "%s\"><caption>", id_suffix);
	esc(out, t->title);
	strbuf_addf(out, "%s</caption><thead><tr>", title_suffix);
	for (size_t c = 0; c < t->ncols; c++) {
		strbuf_addstr(out, "<th scope=\"col\">");
		esc(out, t->cols[c]);
		strbuf_addstr(out, "</th>");
	}
	strbuf_addstr(out, "</tr></thead><tbody>\n");
}

static void
write_row(struct strbuf *out, const struct report_table *t, size_t r)
{
	strbuf_addstr(out, "<tr>");
	for (size_t c = 0; c < t->ncols; c++)
		write_cell(out, report_table_cell(t, r, c), t->exact_beside);
	strbuf_addstr(out, "</tr>\n");
	char **lines = t->details ? t->details[r] : NULL;
	if (!lines)
		return;
	strbuf_addf(out, "<tr class=\"bt\"><td colspan=\"%zu\">backtrace, innermost "
		    "frame first<ol>", t->ncols);
	size_t i = 0;
	for (; lines[i] && i < fold->data.lines; i++) {
		strbuf_addstr(out, "<li>");
		esc(out, lines[i]);
		strbuf_addstr(out, "</li>");
	}
	size_t more = 0;
	while (lines[i + more])
		more++;
	if (more)
		strbuf_addf(out, "<li>\xe2\x80\xa6 %zu more frame%s</li>", more, more == 1 ? "" : "s");
	strbuf_addstr(out, "</ol></td></tr>\n");
}

/* Rows a table shows: REPORT_HTML_ROWS, fewer in a folded page. */
static size_t
rows_shown(void)
{
	return fold->data.rows < REPORT_HTML_ROWS ? fold->data.rows : REPORT_HTML_ROWS;
}

/* The rows whose folded flag is `folded`, at most rows_shown(): how many were written. */
static size_t
write_rows(struct strbuf *out, const struct report_table *t, bool all, bool folded)
{
	size_t n = 0;
	for (size_t r = 0; r < t->nrows && n < rows_shown(); r++) {
		if (report_table_row_folded(t, r, all) != folded)
			continue;
		write_row(out, t, r);
		n++;
	}
	return n;
}

static void
write_more(struct strbuf *out, uint64_t more, bool in_data)
{
	if (more)
		strbuf_addf(out, "<p class=\"more\">%" PRIu64 " more row%s not shown%s.</p>\n",
			    more, more == 1 ? "" : "s", in_data ? " (the data below holds them)" : "");
}

/* Does the data at the end hold every row of the table's model? */
static bool
in_data(const struct report_table *t)
{
	return t->nrows <= fold->data.rows;
}

/*
 * The rows that changed, then the unchanged ones folded in a <details>
 * whose summary counts them (none folded with --all).
 */
static void
write_table(struct strbuf *out, const struct report_table *t, bool all)
{
	if (t->nrows == 0)
		return;
	uint64_t folded = report_table_folded(t, all);
	size_t kept_folded = folded ? t->nunchanged : 0;
	size_t open = t->nrows - kept_folded;
	uint64_t omitted = report_table_omitted_open(t, all);
	if (open) {
		write_head(out, t, "", "");
		size_t shown = write_rows(out, t, all, false);
		strbuf_addstr(out, "</tbody></table>\n");
		write_more(out, omitted + (open - shown), open > shown && in_data(t));
	} else if (omitted) {
		write_more(out, omitted, false);
	}
	if (folded) {
		strbuf_addf(out, "<details class=\"unchanged\"><summary>%" PRIu64 " unchanged row%s "
			    "(<code>--all</code> shows them open)</summary>\n", folded,
			    folded == 1 ? "" : "s");
		if (kept_folded) {
			write_head(out, t, "-unchanged", ", unchanged");
			size_t shown = write_rows(out, t, all, true);
			strbuf_addstr(out, "</tbody></table>\n");
			write_more(out, kept_folded - shown, kept_folded > shown && in_data(t));
		}
		write_more(out, t->omitted_unchanged, false);
		strbuf_addstr(out, "</details>\n");
	}
	if (t->note) {
		strbuf_addstr(out, "<p class=\"note\">");
		esc(out, t->note);
		strbuf_addstr(out, "</p>\n");
	}
}

/* Each table with the charts drawn from it beside it; charts of no table last. */
static void
write_section(struct strbuf *out, const struct report_section *s, bool all)
{
	strbuf_addf(out, "<section id=\"%s\"><h2>", s->name ? s->name : "?");
	esc(out, s->title);
	strbuf_addstr(out, "</h2>\n");
	for (size_t p = 0; p < s->nparagraphs; p++) {
		strbuf_addstr(out, "<p>");
		esc(out, s->paragraphs[p]);
		strbuf_addstr(out, "</p>\n");
	}
	bool *drawn = calloc(s->ncharts + 1, sizeof(*drawn));
	size_t ndrawn = 0;
	for (size_t t = 0; t < s->ntables; t++) {
		const struct report_table *tab = s->tables[t];
		if (tab->nrows == 0)
			continue;
		strbuf_addstr(out, "<div class=\"pair\">");
		for (size_t c = 0; c < s->ncharts && ndrawn < fold->charts; c++) {
			if (drawn[c] || strcmp(s->charts[c]->table_id, tab->id) != 0)
				continue;
			write_chart(out, s->charts[c]);
			drawn[c] = true;
			ndrawn++;
		}
		strbuf_addstr(out, "<div>");
		write_table(out, tab, all);
		strbuf_addstr(out, "</div></div>\n");
	}
	for (size_t c = 0; c < s->ncharts && ndrawn < fold->charts; c++) {
		if (!drawn[c]) {
			write_chart(out, s->charts[c]);
			ndrawn++;
		}
	}
	if (ndrawn < s->ncharts)
		strbuf_addf(out, "<p class=\"more\">%zu more chart%s not drawn.</p>\n",
			    s->ncharts - ndrawn, s->ncharts - ndrawn == 1 ? "" : "s");
	free(drawn);
	strbuf_addstr(out, "</section>\n");
}

/* The JSON with < > & escaped: no "</script>" or "<!--" can end or open anything. */
static void
write_data(struct strbuf *out, const struct report *r)
{
	json_t *j = report_json(r, &fold->data);
	char *text = json_dumps(j, JSON_COMPACT | JSON_PRESERVE_ORDER);
	json_decref(j);
	strbuf_addstr(out, "<script type=\"application/json\" id=\"iotally-data\">");
	for (const char *p = text ? text : "null"; *p; p++) {
		if (*p == '<')
			strbuf_addstr(out, "\\u003c");
		else if (*p == '>')
			strbuf_addstr(out, "\\u003e");
		else if (*p == '&')
			strbuf_addstr(out, "\\u0026");
		else
			strbuf_addch(out, *p);
	}
	free(text);
	strbuf_addstr(out, "</script>\n");
}

static void
write_provenance_row(struct strbuf *out, const struct report_kv *kv)
{
	strbuf_addstr(out, "<tr><th scope=\"row\">");
	esc(out, kv->key);
	strbuf_addstr(out, "</th><td>");
	esc(out, kv->value);
	strbuf_addstr(out, "</td></tr>\n");
}

/*
 * The rows that matter first (report_provenance_rank()), in that order; the
 * others folded in a <details> (every row in one table with --all).
 */
static void
write_provenance(struct strbuf *out, const struct report *r)
{
	size_t rest = 0;
	strbuf_addstr(out, "<table id=\"t-provenance\"><tbody>\n");
	for (int rank = 0; !r->all && rank < REPORT_PROVENANCE_FIRST; rank++)
		for (size_t i = 0; i < r->nprovenance; i++)
			if (report_provenance_rank(r->provenance[i].key) == rank)
				write_provenance_row(out, &r->provenance[i]);
	for (size_t i = 0; i < r->nprovenance; i++) {
		if (r->all)
			write_provenance_row(out, &r->provenance[i]);
		else
			rest += report_provenance_rank(r->provenance[i].key) < 0;
	}
	strbuf_addstr(out, "</tbody></table>\n");
	if (!rest)
		return;
	strbuf_addf(out, "<details class=\"provenance-rest\"><summary>%zu more provenance "
		    "row%s</summary><table id=\"t-provenance-rest\"><tbody>\n", rest,
		    rest == 1 ? "" : "s");
	for (size_t i = 0; i < r->nprovenance; i++)
		if (report_provenance_rank(r->provenance[i].key) < 0)
			write_provenance_row(out, &r->provenance[i]);
	strbuf_addstr(out, "</tbody></table></details>\n");
}

/* Does the page draw a timeline (and need its style)? */
static bool
has_timeline(const struct report *r)
{
	for (int s = 0; s < REPORT_SECTIONS; s++)
		for (size_t c = 0; c < r->sections[s].ncharts; c++)
			if (r->sections[s].charts[c]->kind == REPORT_CHART_TIMELINE)
				return true;
	return false;
}

/* In a folded page, a line under the headline saying what was cut. */
static void
write_fold_note(struct strbuf *out)
{
	const struct report_fold *d = &fold->data;
	if (fold == &folds[0])
		return;
	strbuf_addstr(out, "<p class=\"warn\">This page was folded to keep it within "
		      REPORT_HTML_LIMIT_SHOWN ": ");
	if (d->bare)
		strbuf_addf(out, "only the headline and %zu warnings are shown", d->warnings);
	else
		strbuf_addf(out, "each text is cut to %zu characters; at most %zu rows a table, "
			    "%zu charts a section and %zu warnings are shown", d->chars,
			    rows_shown(), fold->charts, d->warnings);
	strbuf_addstr(out, ", and the data at the end of the page is cut the same way (its "
		      "omitted counts say how much). <code>--format markdown</code> writes a "
		      "shorter report.</p>\n");
}

static void
write_warnings(struct strbuf *out, const struct report *r)
{
	size_t n = r->nwarnings < fold->data.warnings ? r->nwarnings : fold->data.warnings;
	if (!r->nwarnings)
		return;
	/* One block under the summary: counted in sight, read on demand. */
	strbuf_addf(out, "<details class=\"warnings\"><summary class=\"warn\">%zu warning%s"
		    "</summary>\n", r->nwarnings, r->nwarnings == 1 ? "" : "s");
	for (size_t i = 0; i < n; i++) {
		strbuf_addstr(out, "<p class=\"warn\">Warning: ");
		esc(out, r->warnings[i]);
		strbuf_addstr(out, "</p>\n");
	}
	if (n < r->nwarnings)
		strbuf_addf(out, "<p class=\"warn\">%zu more warning%s left out.</p>\n",
			    r->nwarnings - n, r->nwarnings - n == 1 ? "" : "s");
	strbuf_addstr(out, "</details>\n");
}

/* "Process" (or "Target") of the provenance, or NULL. */
static const char *
page_process(const struct report *r)
{
	for (size_t i = 0; i < r->nprovenance; i++)
		if (strcmp(r->provenance[i].key, "Process") == 0 ||
		    strcmp(r->provenance[i].key, "Target") == 0)
			return r->provenance[i].value;
	return NULL;
}

/* "bundle (before/after)", "tracking session": what the page is of. */
static void
page_kind(struct strbuf *out, const struct report *r)
{
	if (r->facts.tracked_class) {
		strbuf_addstr(out, "tracking session");
		return;
	}
	esc(out, r->kind);
	strbuf_addstr(out, r->pair ? " (before/after)" : "");
}

/* The first summary line's figure, short: "Cost +64 MiB"; else its text. */
static void
title_figure(struct strbuf *out, const struct summary *s, bool pair)
{
	if (!s->n)
		return;
	const struct summary_line *l = &s->lines[0];
	strbuf_addstr(out, " \u00b7 ");
	if (!l->has_bytes) {
		esc(out, l->text);
		return;
	}
	char b[32];
	const char *colon = strchr(l->text, ':');
	size_t n = colon ? (size_t)(colon - l->text) : 0;
	size_format_text(l->bytes, pair || l->kind != SUMMARY_LINE_COST ? SIZE_TEXT_SIGNED : 0, b);
	strbuf_addf(out, "%.*s %s", (int)n, l->text, b);
}

/*
 * The summary block (model/summary.h): its lines first on the page, the
 * exact bytes of each figure in the line's tooltip, a call site's
 * backtrace under its line.
 */
static void
write_summary(struct strbuf *out, const struct summary *s)
{
	if (!s->n)
		return;
	strbuf_addstr(out, "<ul class=\"summary\" id=\"summary\">\n");
	for (size_t i = 0; i < s->n; i++) {
		const struct summary_line *l = &s->lines[i];
		strbuf_addf(out, "<li class=\"%s\"", summary_line_name(l->kind));
		if (l->has_bytes)
			strbuf_addf(out, " title=\"%" PRId64 " bytes\"", l->bytes);
		strbuf_addstr(out, ">");
		const char *colon = strchr(l->text, ':');
		if (colon) {
			strbuf_addstr(out, "<b>");
			esc_n(out, l->text, (size_t)(colon - l->text) + 1);
			strbuf_addstr(out, "</b>");
			esc(out, colon + 1);
		} else {
			esc(out, l->text);
		}
		if (l->ndetail) {
			strbuf_addstr(out, "<details class=\"backtrace\"><summary>backtrace</summary><ol start=\"0\">");
			for (size_t k = 0; k < l->ndetail; k++) {
				strbuf_addstr(out, "<li>");
				esc(out, l->detail[k]);
				strbuf_addstr(out, "</li>");
			}
			strbuf_addstr(out, "</ol></details>");
		}
		strbuf_addstr(out, "</li>\n");
	}
	strbuf_addstr(out, "</ul>\n");
}

static void
render(const struct report *r, struct strbuf *out)
{
	struct summary sum;
	summary_build(&r->facts, &sum);
	strbuf_addstr(out, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
		      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
		      "style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'\">\n"
		      "<meta name=\"referrer\" content=\"no-referrer\">\n"
		      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
		      "<meta name=\"color-scheme\" content=\"light dark\">\n<title>iotally: ");
	page_kind(out, r);
	const char *process = page_process(r);
	if (process) {
		strbuf_addstr(out, " \u00b7 ");
		esc(out, process);
	}
	title_figure(out, &sum, r->pair);
	strbuf_addstr(out, "</title>\n<style>");
	strbuf_addstr(out, css);
	if (has_timeline(r))
		strbuf_addstr(out, css_timeline);
	strbuf_addstr(out, "</style>\n</head>\n<body>\n<header><h1>iotally report: ");
	page_kind(out, r);
	strbuf_addstr(out, "</h1>\n");
	write_summary(out, &sum);
	if (r->verdict) {
		strbuf_addstr(out, "<p class=\"verdict\">");
		esc(out, r->verdict);
		strbuf_addstr(out, "</p>\n");
	}
	write_fold_note(out);
	write_warnings(out, r);
	strbuf_addstr(out, "</header>\n");
	for (int s = 0; s < REPORT_SECTIONS && !fold->data.bare; s++)
		if (r->sections[s].title)
			write_section(out, &r->sections[s], r->all);
	/* Where the figures come from: below them, folded; the answer comes first. */
	strbuf_addstr(out, "<section id=\"provenance\"><h2>Provenance</h2>\n"
		      "<details class=\"provenance\"");
	strbuf_addstr(out, r->all ? " open" : "");
	strbuf_addstr(out, "><summary>captures, process, times and inputs</summary>\n");
	if (!fold->data.bare)
		write_provenance(out, r);
	strbuf_addstr(out, "</details>\n<p class=\"note\">Sizes in binary units (1 KiB = 1024 "
		      "bytes); ~ marks a rounded figure. Every exact byte count is in the "
		      "cell's tooltip and in the data at the end of the page.</p></section>\n");
	strbuf_addstr(out, "<footer>Written by iotally. The report's data: the JSON in "
		      "<code>script#iotally-data</code> (schema " REPORT_JSON_SCHEMA
		      ").</footer>\n");
	write_data(out, r);
	strbuf_addstr(out, "</body>\n</html>\n");
	summary_release(&sum);
}

void
report_html_render(const struct report *r, struct strbuf *out)
{
	size_t start = out->len;
	for (size_t i = 0; i < NFOLDS; i++) {
		fold = &folds[i];
		out->len = start;
		if (out->alloc)   /* not the shared empty buffer, which threads may read */
			out->buf[start] = '\0';
		render(r, out);
		if (out->len - start <= REPORT_HTML_LIMIT)
			break;
	}
	fold = &folds[0];
}

int
report_html_write(FILE *out, const struct report *r)
{
	struct strbuf sb = STRBUF_INIT;
	report_html_render(r, &sb);
	size_t n = fwrite(sb.buf, 1, sb.len, out);
	int rc = n == sb.len ? 0 : -1;
	strbuf_release(&sb);
	return rc;
}
