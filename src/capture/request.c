/*
 * What `iotally capture` is asked to do (capture/request.h): each option's
 * value, then the rules of the modes.
 */

#include "capture/request.h"

#include "bundle/manifest.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static int
parse_uint(const char *opt, const char *v, uint64_t *out, struct diag *err)
{
	char *end;
	if (!v[0] || v[0] == '-')
		goto bad;
	unsigned long long n = strtoull(v, &end, 10);
	if (*end || n > 1000000000ull)
		goto bad;
	*out = n;
	return 0;
bad:
	return diag_set(err, DIAG_USAGE, NULL, 0, 0, "%s wants a whole number, not '%s'", opt, v);
}

/*
 * The kinds a step of the plan captures, as bits 1 << enum bundle_kind: a
 * kind a bundle may hold that no step captures is no kind of --kinds.
 */
static unsigned
plan_kinds(const struct capture_plan *plan)
{
	unsigned bits = 0;
	for (size_t i = 0; i < plan->n; i++)
		bits |= 1u << plan->steps[i].kind;
	return bits;
}

/* "--kinds 'ARG': each kind is A, B, C or D": the kinds the plan captures. */
static int
refuse_kinds(const char *arg, unsigned kinds, struct diag *err)
{
	struct strbuf sb = STRBUF_INIT;
	for (int k = 0; k < BUNDLE_NKINDS; k++) {
		if (!(kinds & (1u << k)))
			continue;
		kinds &= ~(1u << k);
		strbuf_addf(&sb, "%s%s", sb.len == 0 ? "" : kinds ? ", " : " or ",
			    bundle_kind_name((enum bundle_kind)k));
	}
	diag_set(err, DIAG_USAGE, NULL, 0, 0, "--kinds '%s': each kind is %s", arg, sb.buf);
	strbuf_release(&sb);
	return -1;
}

/* --kinds NAME,NAME...: bits 1 << enum bundle_kind, each a kind the plan captures. */
static int
parse_kinds(const char *arg, const struct capture_plan *plan, unsigned *out, struct diag *err)
{
	unsigned kinds = plan_kinds(plan), bits = 0;
	const char *p = arg;
	for (;;) {
		const char *comma = strchr(p, ',');
		size_t n = comma ? (size_t)(comma - p) : strlen(p);
		bool found = false;
		for (int k = 0; k < BUNDLE_NKINDS; k++) {
			const char *name = bundle_kind_name((enum bundle_kind)k);
			if ((kinds & (1u << k)) && strlen(name) == n && strncmp(name, p, n) == 0) {
				bits |= 1u << k;
				found = true;
			}
		}
		if (!found)
			return refuse_kinds(arg, kinds, err);
		if (!comma)
			break;
		p = comma + 1;
	}
	*out = bits;
	return 0;
}

/* The options only --repeat takes. */
static int
take_repeat(struct capture_request *c, int id, const char *arg, struct diag *err)
{
	struct capture_opts *o = c->o;
	uint64_t v;
	c->repeat_only = id != CAPTURE_ARG_REPEAT || c->repeat_only;
	switch (id) {
	case CAPTURE_ARG_REPEAT:
		if (parse_uint("--repeat", arg, &v, err) < 0)
			return -1;
		if (v < 3 || v > 999)
			return diag_set(err, DIAG_USAGE, NULL, 0, 0,
					"--repeat must be between 3 and 999 (a rate needs 3 "
					"iterations)");
		o->count = v;
		c->repeat = true;
		return 0;
	case CAPTURE_ARG_WARMUP:
		if (parse_uint("--warmup", arg, &v, err) < 0)
			return -1;
		if (v > 999)
			return diag_set(err, DIAG_USAGE, NULL, 0, 0, "--warmup must be at most 999");
		o->warmup = v;
		return 0;
	case CAPTURE_ARG_KEEP_GOING:
		o->keep_going = true;
		return 0;
	case CAPTURE_ARG_KINDS:
		c->have_kinds = true;
		return parse_kinds(arg, o->plan, &o->kinds, err);
	case CAPTURE_ARG_SETTLE:
		if (parse_uint("--settle", arg, &v, err) < 0)
			return -1;
		o->interval_ms = v * 1000;
		c->have_settle = true;
		return 0;
	default:
		return 0;
	}
}

/* A number of bytes (decimal or 0x hex), as ioclasscount's strtol reads it. */
static int
parse_bytes(const char *opt, const char *v, uint64_t *out, struct diag *err)
{
	char *end;
	if (!v[0] || v[0] == '-' || v[0] == '+' || v[0] == ' ')
		goto bad;
	unsigned long long n = strtoull(v, &end, 0);
	if (*end || n > INT32_MAX)
		goto bad;
	*out = n;
	return 0;
bad:
	return diag_set(err, DIAG_USAGE, NULL, 0, 0,
			"%s wants a number of bytes up to %ld, not '%s'", opt, (long)INT32_MAX, v);
}

/* The options only a session takes. */
static int
take_session(struct capture_request *c, int id, const char *arg, struct diag *err)
{
	struct session_opts *so = c->so;
	uint64_t v;
	c->session_only = true;
	switch (id) {
	case CAPTURE_ARG_KEEP:
		so->keep = true;
		return 0;
	case CAPTURE_ARG_CAPSIZE:
		so->have_capsize = true;
		return parse_bytes("--capsize", arg, &so->capsize, err);
	case CAPTURE_ARG_EXCLUDE:
		so->exclude = true;
		return 0;
	case CAPTURE_ARG_SIZE:
		so->have_size = true;
		return parse_bytes("--size", arg, &so->size, err);
	case CAPTURE_ARG_MAPS_ALL:
		so->maps_all = true;
		return 0;
	case CAPTURE_ARG_DURATION:
		if (parse_uint("--duration", arg, &v, err) < 0)
			return -1;
		if (v == 0)
			return diag_set(err, DIAG_USAGE, NULL, 0, 0, "--duration must be at least 1");
		so->duration_ms = v * 1000;
		return 0;
	default:
		return 0;
	}
}

/* --pid, --timeout, --count, --interval. */
static int
take_number(struct capture_request *c, int id, const char *arg, struct diag *err)
{
	struct capture_opts *o = c->o;
	uint64_t v;
	switch (id) {
	case CAPTURE_ARG_PID:
		if (parse_uint("--pid", arg, &v, err) < 0 || v == 0)
			return diag_set(err, DIAG_USAGE, NULL, 0, 0,
					"--pid wants a process id, not '%s'", arg);
		o->pid = (int64_t)v;
		return 0;
	case CAPTURE_ARG_TIMEOUT:
		if (parse_uint("--timeout", arg, &v, err) < 0)
			return -1;
		if (v == 0)
			return diag_set(err, DIAG_USAGE, NULL, 0, 0, "--timeout must be at least 1");
		o->timeout_ms = v * 1000;
		return 0;
	case CAPTURE_ARG_COUNT:
		if (parse_uint("--count", arg, &v, err) < 0)
			return -1;
		if (v == 0 || v > 999)
			return diag_set(err, DIAG_USAGE, NULL, 0, 0,
					"--count must be between 1 and 999");
		o->count = v;
		c->have_count = true;
		return 0;
	case CAPTURE_ARG_INTERVAL:
		if (parse_uint("--interval", arg, &v, err) < 0)
			return -1;
		o->interval_ms = v * 1000;
		c->have_interval = true;
		return 0;
	default:
		return 0;
	}
}

int
capture_request_take(struct capture_request *c, int id, const char *arg, bool after_dashdash,
		     struct diag *err)
{
	struct capture_opts *o = c->o;
	switch (id) {
	case 0:
		/* Checked once every option is known (--track or --session may come later). */
		if (after_dashdash)
			c->command[c->ncommand++] = (char *)arg;   /* a session's COMMAND */
		else
			c->names[c->n++] = (char *)arg;
		return 0;
	case CAPTURE_ARG_SESSION:
		c->session = true;
		return 0;
	case CAPTURE_ARG_KEEP:
	case CAPTURE_ARG_CAPSIZE:
	case CAPTURE_ARG_EXCLUDE:
	case CAPTURE_ARG_SIZE:
	case CAPTURE_ARG_MAPS_ALL:
	case CAPTURE_ARG_DURATION:
		return take_session(c, id, arg, err);
	case CAPTURE_ARG_REPEAT:
	case CAPTURE_ARG_WARMUP:
	case CAPTURE_ARG_KEEP_GOING:
	case CAPTURE_ARG_KINDS:
	case CAPTURE_ARG_SETTLE:
		return take_repeat(c, id, arg, err);
	case CAPTURE_ARG_PROCESS:
		o->process = arg;
		return 0;
	case CAPTURE_ARG_OUTPUT:
		if (!arg[0])
			return diag_set(err, DIAG_USAGE, NULL, 0, 0, "-o wants a folder name");
		o->output = arg;
		return 0;
	case CAPTURE_ARG_TRACK:
		o->track = true;
		return 0;
	case CAPTURE_ARG_NO_REDACT:
		o->redact = false;
		return 0;
	case CAPTURE_ARG_ARCHIVE:
		o->archive = true;
		return 0;
	case CAPTURE_ARG_TOOLS_DIR:
		if (!arg[0])
			return diag_set(err, DIAG_USAGE, NULL, 0, 0, "--tools-dir wants a folder");
		o->tools_dir = arg;
		return 0;
	default:
		return take_number(c, id, arg, err);
	}
}

/* What the options of a session and of a capture may not mix. */
/* --repeat: an action, a target, and no option of another mode. */
static int
check_repeat(struct capture_request *c, struct capture_opts *o, struct diag *err)
{
	if (!c->repeat)
		return c->repeat_only
		       ? diag_set(err, DIAG_USAGE, NULL, 0, 0, "--warmup, --keep-going, --kinds "
				  "and --settle go with --repeat")
		       : 0;
	if (c->session || c->session_only || o->track || c->have_interval || c->have_count)
		return diag_set(err, DIAG_USAGE, NULL, 0, 0,
				"--repeat does not go with %s", c->session ? "--session"
				: o->track ? "--track"
				: c->have_interval || c->have_count ? "--count and --interval"
				: "the options of --session");
	if (c->n)
		return diag_set(err, DIAG_USAGE, NULL, 0, 0,
				"unexpected operand '%s' (the action follows --: -- COMMAND "
				"ARGS...)", c->names[0]);
	if (!c->ncommand)
		return diag_set(err, DIAG_USAGE, NULL, 0, 0,
				"--repeat needs the action to repeat: -- COMMAND ARGS...");
	if (o->pid < 0 && !o->process)
		return diag_set(err, DIAG_USAGE, NULL, 0, 0,
				"--repeat needs the process to snapshot: --pid PID or --process "
				"NAME");
	if (!c->have_kinds)
		o->kinds = c->repeat_kinds;
	if (!c->have_settle)
		o->interval_ms = 0;   /* --count's 60 s between samples is no settle time */
	return 0;
}

static int
check_modes(struct capture_request *c, struct capture_opts *o, bool stdin_tty, struct diag *err)
{
	if (check_repeat(c, o, err) < 0)
		return -1;
	if (c->repeat)
		return 0;
	if (!c->session) {
		if (c->session_only)
			return diag_set(err, DIAG_USAGE, NULL, 0, 0,
					"--keep, --capsize, --exclude, --size, --maps-all and "
					"--duration go with --session");
		/* Outside a session, names after -- are class names too. */
		for (size_t i = 0; i < c->ncommand; i++)
			c->names[c->n++] = c->command[i];
		c->ncommand = 0;
		if (c->n && !o->track)
			return diag_set(err, DIAG_USAGE, NULL, 0, 0,
					"unexpected operand '%s' (class names follow --track)",
					c->names[0]);
		return 0;
	}
	if (o->track || o->count)
		return diag_set(err, DIAG_USAGE, NULL, 0, 0,
				"--session runs its own --track; it does not go with %s",
				o->track ? "--track" : "--count");
	if (c->ncommand && c->so->duration_ms)
		return diag_set(err, DIAG_USAGE, NULL, 0, 0,
				"give --duration or -- COMMAND, not both");
	if (!c->ncommand && !c->so->duration_ms && !stdin_tty)
		return diag_set(err, DIAG_USAGE, NULL, 0, 0,
				"--session waits for Enter on a terminal; without one, give "
				"--duration SECONDS or -- COMMAND ARGS...");
	return 0;
}

void
capture_request_init(struct capture_request *c, struct capture_opts *o,
		     struct session_opts *so, size_t max_operands, const struct capture_plan *plan)
{
	memset(c, 0, sizeof(*c));
	memset(o, 0, sizeof(*o));
	memset(so, 0, sizeof(*so));
	o->pid = -1;
	o->timeout_ms = 120000;
	o->interval_ms = 60000;
	o->redact = true;
	c->o = o;
	c->so = so;
	o->plan = plan;
	c->repeat_kinds = plan->repeat_kinds;
	c->names = xcalloc(max_operands + 1, sizeof(*c->names));
	c->command = xcalloc(max_operands + 1, sizeof(*c->command));
}

void
capture_request_release(struct capture_request *c)
{
	free(c->names);
	free(c->command);
	c->names = c->command = NULL;
}

int
capture_request_finish(struct capture_request *c, bool help, bool stdin_tty, struct diag *err)
{
	struct capture_opts *o = c->o;
	struct session_opts *so = c->so;
	if (o->pid >= 0 && o->process)
		return diag_set(err, DIAG_USAGE, NULL, 0, 0, "give --pid or --process, not both");
	if (c->have_interval && (!o->count || c->repeat))
		return diag_set(err, DIAG_USAGE, NULL, 0, 0, "--interval goes with --count");
	if (!help && check_modes(c, o, stdin_tty, err) < 0)
		return -1;
	o->track_names = c->names;
	o->ntrack_names = c->n;
	so->names = c->names;
	so->nnames = c->n;
	so->command = c->ncommand ? c->command : NULL;
	so->enter = !so->command && !so->duration_ms;   /* a session waits for Enter */
	return 0;
}

int
capture_exit_status(const struct capture_result *res)
{
	int status = 0;
	for (size_t i = 0; i < res->nsteps; i++) {
		const char *s = res->steps[i].status;
		if (strcmp(s, "denied") == 0)
			status = CAPTURE_EXIT_NOPERM;
		else if (status == 0 && strcmp(s, "ok") != 0 && strcmp(s, "skipped") != 0)
			status = CAPTURE_EXIT_UNAVAILABLE;
	}
	if (!status && !res->complete)
		status = CAPTURE_EXIT_UNAVAILABLE;
	return status;
}

bool
capture_step_said(const char *status, enum diag_severity *sev)
{
	if (strcmp(status, "ok") == 0)
		return false;
	*sev = strcmp(status, "skipped") == 0 ? DIAG_NOTE : DIAG_WARNING;
	return true;
}

const char *
capture_step_hint(const char *status)
{
	return strcmp(status, "denied") == 0
	       ? "run the capture with sudo to examine a process of another user" : NULL;
}
