/*
 * iotally capture: run Apple's tools on this Mac and write one bundle
 * (capture/capture.h) that every iotally command reads back.
 */

#include "cli/commands.h"

#include "capture/capture.h"
#include "capture/command.h"
#include "capture/session.h"
#include "cli/msgs.h"
#include "cli/options.h"
#include "bundle/manifest.h"
#include "util/array.h"
#include "util/diag.h"
#include "util/size.h"
#include "util/xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

const char cmd_capture_help[] =
	"usage: iotally capture [--pid PID | --process NAME] [-o DIR] [--track [NAME...]]\n"
	"                       [--timeout SECONDS] [--count N --interval SECONDS]\n"
	"                       [--no-redact] [--archive] [--tools-dir DIR]\n"
	"       iotally capture --session [--pid PID | --process NAME] [-o DIR] [--keep]\n"
	"                       [--capsize BYTES] [--exclude] [--size BYTES] [--maps-all]\n"
	"                       [--duration SECONDS] [NAME...] [-- COMMAND ARGS...]\n"
	"       iotally capture --repeat N [--warmup W] [--keep-going] [--kinds K,...]\n"
	"                       [--settle SECONDS] (--pid PID | --process NAME) [-o DIR]\n"
	"                       -- COMMAND ARGS...\n"
	"\n"
	"Runs Apple's tools on this Mac (from /usr/bin, /usr/sbin and /bin only, never\n"
	"through PATH or a shell, each as its own process with LC_ALL=C and a minimal\n"
	"environment) and writes one bundle folder: their outputs, and\n"
	"manifest.json (schema iotally.bundle/1) recording what ran, for how long, how\n"
	"it ended, and the size and sha256 of every file. Every iotally command reads\n"
	"the bundle (or its .tar.gz) on any machine.\n"
	"\n"
	"Steps, cheap first: sw_vers; sysctl (hw.model, hw.machine, hw.memsize,\n"
	"hw.pagesize, hw.ncpu, kern.osversion, kern.osproductversion, kern.version,\n"
	"kern.bootargs, one name per run); ioreg -a -l -d 1; ioclasscount;\n"
	"ioalloccount; ioclasscount --track (only with --track, as root, on a\n"
	"DEVELOPMENT or DEBUG kernel booted with io=0x00400000; otherwise recorded as\n"
	"skipped with the reason); with a target, footprint -f bytes -p PID (when on\n"
	"installed) and last vmmap -w -noCoalesce PID, which pauses the target.\n"
	"\n"
	"Each step ends as ok (exit status 0), failed (the tool is missing, or exited\n"
	"non-zero), denied (it exited non-zero saying \"do not have appropriate\n"
	"privileges\" on standard error: run with sudo), target-gone (\"no longer\n"
	"appears to be running\"), timeout (stopped after --timeout) or skipped; a\n"
	"failed step does not lose the others.\n"
	"\n"
	"A tracking session (--session; root, a DEVELOPMENT or DEBUG kernel booted\n"
	"with io=0x00400000) follows ioclasscount(8)'s workflow in one run. First a\n"
	"preflight that changes nothing and says what to change when it refuses:\n"
	"root, the kernel variant (kern.version), the io= boot-arg (kern.bootargs),\n"
	"the flags in ioclasscount's usage text. Then ioclasscount --reset (not\n"
	"with --keep), --capsize=BYTES (when given), --start; a capture into\n"
	"DIR/before; the wait (Enter on a terminal, --duration SECONDS, or the\n"
	"COMMAND after --, run as the user who ran sudo, its exit status recorded);\n"
	"a capture into DIR/after; ioclasscount --track [--exclude] [--size=BYTES]\n"
	"[NAME...], --leaks [NAME...] and --maps=PID (the target; -1 with\n"
	"--maps-all) into DIR/tracking; and always ioclasscount --stop, also after\n"
	"a failed or hung step, Ctrl-C, SIGTERM or SIGHUP. A failed --stop is said\n"
	"loudly with the command to run by hand; the first line printed is that\n"
	"command, for a kill that cannot be caught. DIR/session.json (schema\n"
	"iotally.session/1) records the steps, times, flags and the state tracking\n"
	"was left in. 'iotally diff DIR' compares its before and after captures.\n"
	"\n"
	"Leak per operation (--repeat N): the COMMAND after -- is the action (open\n"
	"and close a document, reload a level). It runs --warmup W times unmeasured,\n"
	"then N times, each run followed by a snapshot of the target: a series\n"
	"(DIR/001 ... DIR/N, DIR/series.json) whose manifests record each sample's\n"
	"iteration and the command's exit status. The COMMAND runs as the user who\n"
	"invoked iotally (as root, the user who ran sudo: SUDO_UID and SUDO_GID), in\n"
	"a process group of its own. A run that fails (exit status not 0) stops the\n"
	"series, which keeps the iterations taken; with --keep-going the failure is\n"
	"recorded and said, and the iteration's snapshot is taken. The snapshot is\n"
	"footprint of the target (it does not pause the process; vmmap does), or the\n"
	"kinds of --kinds. 'iotally rate DIR' gives each metric's change per\n"
	"iteration.\n"
	"\n"
	"Options:\n"
	"  --pid PID          capture this process too (vmmap, footprint)\n"
	"  --process NAME     the one process named exactly NAME (pgrep -x); several\n"
	"                     matches are an error that lists their pids\n"
	"  -o, --output DIR   the bundle folder (default iotally-<UTC time>-<name>-<pid>\n"
	"                     in this folder; never an existing one; DIR/ names DIR)\n"
	"  --track [NAME...]  also ioclasscount --track NAME... where it can work\n"
	"  --timeout SECONDS  per step (default 120); a hung tool is stopped\n"
	"  --count N          a series of N samples (DIR/001, DIR/002, ...);\n"
	"                     DIR/series.json is rewritten after each sample\n"
	"  --interval SECONDS  between the samples of --count (default 60)\n"
	"  --no-redact        keep user names, serial numbers and home paths (the\n"
	"                     manifest and this command say so loudly)\n"
	"  --archive          also write DIR.tar.gz, to attach to a bug report\n"
	"  --session          a guided tracking session (above)\n"
	"  --keep             session: keep what tracking collected so far (no --reset)\n"
	"  --capsize BYTES    session: ioclasscount --capsize (smallest allocation kept)\n"
	"  --exclude          session: track every queue except the NAMEs\n"
	"  --size BYTES       session: --track and --maps skip smaller sites\n"
	"  --maps-all         session: --maps=-1 (mappings of every process)\n"
	"  --duration SECONDS\n"
	"                     session: wait this long instead of for Enter\n"
	"  --repeat N         leak per operation: N iterations of the -- COMMAND, a\n"
	"                     snapshot after each (above)\n"
	"  --warmup W         repeat: W unmeasured runs of the COMMAND first\n"
	"                     (default 0)\n"
	"  --keep-going       repeat: a failed run is recorded, not the end\n"
	"  --kinds K,...      repeat: the snapshot's captures, of vmmap, classes,\n"
	"                     track and footprint (default footprint)\n"
	"  --settle SECONDS   repeat: pause after each run before what follows\n"
	"                     (default 0)\n"
	"  --tools-dir DIR    for testing: run the stand-ins in DIR (named vmmap,\n"
	"                     ioreg, sysctl, pgrep, ps, ...) instead of Apple's tools;\n"
	"                     the manifest records the paths that ran\n"
	"  -h, --help         show this help\n"
	"\n"
	"Redaction (on by default): IOConsoleUsers user names, IOPlatformSerialNumber,\n"
	"IOPlatformUUID and serial-number values become REDACTED (keys kept), and so\n"
	"does every other whole-word occurrence of those values and of the <name>\n"
	"of /Users/<name>/, which becomes /Users/USER/; /var/folders/<xx>/<random>/\n"
	"becomes /var/folders/REDACTED/;\n"
	"kern.bootargs keeps only io= and debug=. No host name is collected. The\n"
	"manifest lists each rule with its hit count, never the values. 'iotally\n"
	"redact' applies the same rules to a bundle or to captures saved by hand.\n"
	"\n"
	"Each output is redacted as the tool writes it, so no unredacted byte reaches\n"
	"the disk, into a private folder beside DIR that is renamed into place when\n"
	"complete. Ctrl-C, SIGTERM or SIGHUP stops the running tool; before the\n"
	"rename nothing is left under DIR, after it the bundle is complete and kept\n"
	"(a series keeps its complete samples); the last line says which.\n"
	"\n"
	"A series reports each sample on standard error as it finishes (n/N, the\n"
	"time, its status); on a terminal as one line rewritten in place.\n"
	"\n"
	"Exit status: 0 every step ok or skipped; 77 a step was denied (bundle\n"
	"written; run with sudo); 69 a step failed, timed out or lost its target\n"
	"(bundle written), or no such process; 64 usage error or an ambiguous\n"
	"--process; 65 pgrep answered something that is not a process id; 73 DIR\n"
	"exists or its folder is not writable; 74 write error. Interrupted, the\n"
	"command dies of the signal (the shell shows 130 for SIGINT, 143 SIGTERM).\n"
	"A session: 0 complete; 69 a refusal of the preflight (the kernel, the\n"
	"boot-args, the tool), a step that failed or an early stop (the session is\n"
	"written, partial), or --stop failed; 77 not root; 64 usage.\n"
	"\n"
	"Examples (the sudo ones on a Mac; the bundle reads anywhere):\n"
	"  sudo iotally capture --process WindowServer --archive\n"
	"  sudo iotally capture --pid 4242 -o leak --count 10 --interval 60\n"
	"  iotally fixtures/bundle/complete.tar.gz\n"
	"  iotally vmmap --all-types fixtures/bundle/complete\n"
	"  sudo iotally capture --session --process WindowServer -- ./repro.sh\n"
	"  sudo iotally capture --repeat 20 --warmup 2 --process Preview -- ./open-close.sh\n";

enum {
	OPT_PID = 1, OPT_PROCESS, OPT_OUTPUT, OPT_TRACK, OPT_TIMEOUT, OPT_COUNT,
	OPT_INTERVAL, OPT_NO_REDACT, OPT_ARCHIVE, OPT_TOOLS_DIR, OPT_HELP,
	OPT_SESSION, OPT_KEEP, OPT_CAPSIZE, OPT_EXCLUDE, OPT_SIZE, OPT_MAPS_ALL, OPT_DURATION,
	OPT_REPEAT, OPT_WARMUP, OPT_KEEP_GOING, OPT_KINDS, OPT_SETTLE,
};

static const struct cli_option options[] = {
	{ "pid", 0, true, OPT_PID },
	{ "process", 0, true, OPT_PROCESS },
	{ "output", 'o', true, OPT_OUTPUT },
	{ "track", 0, false, OPT_TRACK },
	{ "timeout", 0, true, OPT_TIMEOUT },
	{ "count", 0, true, OPT_COUNT },
	{ "interval", 0, true, OPT_INTERVAL },
	{ "no-redact", 0, false, OPT_NO_REDACT },
	{ "archive", 0, false, OPT_ARCHIVE },
	{ "tools-dir", 0, true, OPT_TOOLS_DIR },
	{ "help", 'h', false, OPT_HELP },
	{ "session", 0, false, OPT_SESSION },
	{ "keep", 0, false, OPT_KEEP },
	{ "capsize", 0, true, OPT_CAPSIZE },
	{ "exclude", 0, false, OPT_EXCLUDE },
	{ "size", 0, true, OPT_SIZE },
	{ "maps-all", 0, false, OPT_MAPS_ALL },
	{ "duration", 0, true, OPT_DURATION },
	{ "repeat", 0, true, OPT_REPEAT },
	{ "warmup", 0, true, OPT_WARMUP },
	{ "keep-going", 0, false, OPT_KEEP_GOING },
	{ "kinds", 0, true, OPT_KINDS },
	{ "settle", 0, true, OPT_SETTLE },
};

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

struct capture_parse {
	struct capture_opts *o;
	struct session_opts *so;
	bool *help;
	char **names;        /* the class names after --track (or of a session) */
	size_t n;
	char **command;      /* a session's -- COMMAND ARGS... */
	size_t ncommand;
	bool have_interval, have_count;
	bool repeat;         /* --repeat */
	bool session;        /* --session */
	bool session_only;   /* an option that only a session takes was given */
	bool repeat_only;    /* an option that only --repeat takes was given */
	bool have_kinds, have_settle;
};

/* --kinds vmmap,classes,...: bits 1 << enum bundle_kind. */
static int
parse_kinds(const char *arg, unsigned *out, struct diag *err)
{
	unsigned bits = 0;
	const char *p = arg;
	for (;;) {
		const char *comma = strchr(p, ',');
		size_t n = comma ? (size_t)(comma - p) : strlen(p);
		bool found = false;
		for (int k = 0; k < BUNDLE_NKINDS; k++) {
			const char *name = bundle_kind_name((enum bundle_kind)k);
			if (strlen(name) == n && strncmp(name, p, n) == 0) {
				bits |= 1u << k;
				found = true;
			}
		}
		if (!found)
			return diag_set(err, DIAG_USAGE, NULL, 0, 0,
					"--kinds '%s': each kind is vmmap, classes, track or "
					"footprint", arg);
		if (!comma)
			break;
		p = comma + 1;
	}
	*out = bits;
	return 0;
}

/* The options only --repeat takes. */
static int
take_repeat(struct capture_parse *c, int id, const char *arg, struct diag *err)
{
	struct capture_opts *o = c->o;
	uint64_t v;
	c->repeat_only = id != OPT_REPEAT || c->repeat_only;
	switch (id) {
	case OPT_REPEAT:
		if (parse_uint("--repeat", arg, &v, err) < 0)
			return -1;
		if (v < 3 || v > 999)
			return diag_set(err, DIAG_USAGE, NULL, 0, 0,
					"--repeat must be between 3 and 999 (a rate needs 3 "
					"iterations)");
		o->count = v;
		c->repeat = true;
		return 0;
	case OPT_WARMUP:
		if (parse_uint("--warmup", arg, &v, err) < 0)
			return -1;
		if (v > 999)
			return diag_set(err, DIAG_USAGE, NULL, 0, 0, "--warmup must be at most 999");
		o->warmup = v;
		return 0;
	case OPT_KEEP_GOING:
		o->keep_going = true;
		return 0;
	case OPT_KINDS:
		c->have_kinds = true;
		return parse_kinds(arg, &o->kinds, err);
	case OPT_SETTLE:
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
take_session(struct capture_parse *c, int id, const char *arg, struct diag *err)
{
	struct session_opts *so = c->so;
	uint64_t v;
	c->session_only = true;
	switch (id) {
	case OPT_KEEP:
		so->keep = true;
		return 0;
	case OPT_CAPSIZE:
		so->have_capsize = true;
		return parse_bytes("--capsize", arg, &so->capsize, err);
	case OPT_EXCLUDE:
		so->exclude = true;
		return 0;
	case OPT_SIZE:
		so->have_size = true;
		return parse_bytes("--size", arg, &so->size, err);
	case OPT_MAPS_ALL:
		so->maps_all = true;
		return 0;
	case OPT_DURATION:
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
take_number(struct capture_parse *c, int id, const char *arg, struct diag *err)
{
	struct capture_opts *o = c->o;
	uint64_t v;
	switch (id) {
	case OPT_PID:
		if (parse_uint("--pid", arg, &v, err) < 0 || v == 0)
			return diag_set(err, DIAG_USAGE, NULL, 0, 0,
					"--pid wants a process id, not '%s'", arg);
		o->pid = (int64_t)v;
		return 0;
	case OPT_TIMEOUT:
		if (parse_uint("--timeout", arg, &v, err) < 0)
			return -1;
		if (v == 0)
			return diag_set(err, DIAG_USAGE, NULL, 0, 0, "--timeout must be at least 1");
		o->timeout_ms = v * 1000;
		return 0;
	case OPT_COUNT:
		if (parse_uint("--count", arg, &v, err) < 0)
			return -1;
		if (v == 0 || v > 999)
			return diag_set(err, DIAG_USAGE, NULL, 0, 0,
					"--count must be between 1 and 999");
		o->count = v;
		c->have_count = true;
		return 0;
	case OPT_INTERVAL:
		if (parse_uint("--interval", arg, &v, err) < 0)
			return -1;
		o->interval_ms = v * 1000;
		c->have_interval = true;
		return 0;
	default:
		return 0;
	}
}

/* One option or operand (cli_take_fn). */
static int
take_arg(void *ctx, struct cli_parser *p, int id, const char *arg, struct diag *err)
{
	struct capture_parse *c = ctx;
	struct capture_opts *o = c->o;
	switch (id) {
	case CLI_OPERAND:
		/* Checked once every option is known (--track or --session may come later). */
		if (p->only_operands)
			c->command[c->ncommand++] = (char *)arg;   /* a session's COMMAND */
		else
			c->names[c->n++] = (char *)arg;
		return 0;
	case OPT_SESSION:
		c->session = true;
		return 0;
	case OPT_KEEP:
	case OPT_CAPSIZE:
	case OPT_EXCLUDE:
	case OPT_SIZE:
	case OPT_MAPS_ALL:
	case OPT_DURATION:
		return take_session(c, id, arg, err);
	case OPT_REPEAT:
	case OPT_WARMUP:
	case OPT_KEEP_GOING:
	case OPT_KINDS:
	case OPT_SETTLE:
		return take_repeat(c, id, arg, err);
	case OPT_PROCESS:
		o->process = arg;
		return 0;
	case OPT_OUTPUT:
		if (!arg[0])
			return diag_set(err, DIAG_USAGE, NULL, 0, 0, "-o wants a folder name");
		o->output = arg;
		return 0;
	case OPT_TRACK:
		o->track = true;
		return 0;
	case OPT_NO_REDACT:
		o->redact = false;
		return 0;
	case OPT_ARCHIVE:
		o->archive = true;
		return 0;
	case OPT_TOOLS_DIR:
		if (!arg[0])
			return diag_set(err, DIAG_USAGE, NULL, 0, 0, "--tools-dir wants a folder");
		o->tools_dir = arg;
		return 0;
	case OPT_HELP:
		*c->help = true;
		return 0;
	default:
		return take_number(c, id, arg, err);
	}
}

/* What the options of a session and of a capture may not mix. */
/* --repeat: an action, a target, and no option of another mode. */
static int
check_repeat(struct capture_parse *c, struct capture_opts *o, struct diag *err)
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
		o->kinds = 1u << BUNDLE_KIND_FOOTPRINT;
	if (!c->have_settle)
		o->interval_ms = 0;   /* --count's 60 s between samples is no settle time */
	return 0;
}

static int
check_modes(struct capture_parse *c, struct capture_opts *o, struct diag *err)
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
	if (!c->ncommand && !c->so->duration_ms && !isatty(STDIN_FILENO))
		return diag_set(err, DIAG_USAGE, NULL, 0, 0,
				"--session waits for Enter on a terminal; without one, give "
				"--duration SECONDS or -- COMMAND ARGS...");
	return 0;
}

static int
parse_args(int argc, char **argv, struct capture_opts *o, struct session_opts *so, bool *help,
	   char ***names, char ***command, bool *session, bool *repeat, struct diag *err)
{
	struct cli_parser p;
	struct capture_parse c = { .o = o, .so = so, .help = help };
	bool stopped_at_help = false;

	*names = c.names = xcalloc((size_t)argc + 1, sizeof(*c.names));
	*command = c.command = xcalloc((size_t)argc + 1, sizeof(*c.command));
	/* --help is taken like any option (CLI_DONE is no option's id): every
	 * option is still checked, and a usage error wins over the help. */
	if (cli_parse(&p, options, ARRAY_SIZE(options), argc, argv, CLI_DONE,
		      &stopped_at_help, take_arg, &c, err) < 0)
		return -1;
	if (o->pid >= 0 && o->process)
		return diag_set(err, DIAG_USAGE, NULL, 0, 0, "give --pid or --process, not both");
	if (c.have_interval && (!o->count || c.repeat))
		return diag_set(err, DIAG_USAGE, NULL, 0, 0, "--interval goes with --count");
	if (!*help && check_modes(&c, o, err) < 0)
		return -1;
	o->track_names = *names;
	o->ntrack_names = c.n;
	so->names = *names;
	so->nnames = c.n;
	so->command = c.ncommand ? *command : NULL;
	*session = c.session;
	*repeat = c.repeat;
	return 0;
}

static int
exit_status(const struct capture_result *res)
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

static void
print_summary(const struct capture_opts *o, const struct capture_result *res)
{
	for (size_t i = 0; i < res->nsteps; i++) {
		const struct capture_step_report *s = &res->steps[i];
		if (strcmp(s->status, "ok") == 0)
			continue;
		/* The step's id in place of a file name: "iotally: target.vmmap: warning: ..." */
		if (strcmp(s->status, "skipped") != 0)
			cli_warn(s->id, 0, "%s%s%s", s->status, s->reason ? ": " : "",
				 s->reason ? s->reason : "");
		else
			cli_note(s->id, 0, "%s%s%s", s->status, s->reason ? ": " : "",
				 s->reason ? s->reason : "");
		if (strcmp(s->status, "denied") == 0)
			cli_note(s->id, 0, "run the capture with sudo to examine a process of "
				 "another user");
	}
	if (!o->redact)
		cli_warn(NULL, 0, "redaction is OFF (--no-redact): the bundle may hold user names, "
			 "serial numbers and home paths; review it before sharing it (or run "
			 "'iotally redact' on it)");
	if (res->stopped)
		cli_warn(NULL, 0, "the series stopped early: %s", res->stopped);
	else if (res->failed_runs)
		cli_warn(NULL, 0, "the command failed in %zu of %llu iterations (--keep-going: "
			 "their snapshots were taken; series.json records each status)",
			 res->failed_runs, (unsigned long long)o->count);
	if (o->command)
		cli_out_line(stdout, "%s: series of %zu iteration%s after %llu warm-up run%s (%s)",
			     res->dir, res->nsamples, res->nsamples == 1 ? "" : "s",
			     (unsigned long long)o->warmup, o->warmup == 1 ? "" : "s",
			     res->complete ? "complete" : "partial");
	else if (o->count)
		cli_out_line(stdout, "%s: series of %zu sample%s (%s)", res->dir, res->nsamples,
			     res->nsamples == 1 ? "" : "s",
			     res->complete ? "complete" : "partial");
	else
		cli_out_line(stdout, "%s: %s bundle", res->dir,
			     res->complete ? "complete" : "partial");
	if (res->archive)
		cli_out_line(stdout, "%s: archive", res->archive);
}

/* ------------------------------------------------------ series progress */

struct progress {
	bool tty;
	const char *noun;    /* "sample", or "iteration" (--repeat) */
};

/* capture_progress_fn: one line per sample; on a terminal, one line rewritten in place. */
static void
print_progress(void *ctx, uint64_t k, uint64_t n, bool complete, const char *dir,
	       uint64_t elapsed_ms)
{
	const struct progress *pr = ctx;
	uint64_t s = elapsed_ms / 1000;
	char when[32];
	snprintf(when, sizeof(when), "%02llu:%02llu:%02llu", (unsigned long long)(s / 3600),
		 (unsigned long long)(s / 60 % 60), (unsigned long long)(s % 60));
	const char *status = complete ? "complete" : "partial";
	if (pr->tty) {
		/* Numbers and fixed words only: nothing from the outside reaches the terminal raw. */
		fprintf(stderr, "\r\033[Kiotally: %s %llu/%llu at %s: %s", pr->noun,
			(unsigned long long)k, (unsigned long long)n, when, status);
		if (k == n)
			fputc('\n', stderr);
		fflush(stderr);
		return;
	}
	cli_note(dir, 0, "%s %llu/%llu at %s: %s", pr->noun, (unsigned long long)k,
		 (unsigned long long)n, when, status);
}

/* capture_say_fn: a warm-up run or a failed iteration, as a note. */
static void
print_say(void *ctx, const char *line)
{
	const struct progress *pr = ctx;
	if (pr->tty)
		fputs("\r\033[K", stderr);   /* the progress line in place is replaced, not mixed */
	cli_note(NULL, 0, "%s", line);
}

/* ------------------------------------------------------------ sessions */

static void
session_say(void *ctx, const char *line)
{
	(void)ctx;
	cli_note("session", 0, "%s", line);
}

static int
run_session(struct session_opts *so)
{
	struct session_result res;
	struct diag err;
	diag_clear(&err);
	so->say = session_say;
	so->enter = !so->command && !so->duration_ms;
	int rc = session_run(so, &res, &err);
	int status = 0;
	if (rc < 0) {
		cli_print_diag(&err);
		status = err.code == DIAG_USAGE ? DIAG_USAGE : err.code;
	} else {
		if (res.aborted)
			cli_warn("session", 0, "stopped early: %s", res.aborted);
		if (!so->cap.redact)
			cli_warn(NULL, 0, "redaction is OFF (--no-redact): the session may hold user "
				 "names, serial numbers and home paths; review it before sharing it");
		cli_out_line(stdout, "%s: %s session", res.dir, res.complete ? "complete" : "partial");
		if (res.archive)
			cli_out_line(stdout, "%s: archive", res.archive);
		status = res.complete ? 0 : CAPTURE_EXIT_UNAVAILABLE;
	}
	if (res.tracking == SESSION_TRACKING_MAYBE_ON) {
		cli_error("session", 0, "KERNEL TRACKING MAY STILL BE ON: ioclasscount --stop "
			  "failed (%s); stop it by hand now: %s", res.stop_failure,
			  res.stop_command);
		status = CAPTURE_EXIT_UNAVAILABLE;
	}
	session_result_release(&res);
	return status;
}

int
cmd_capture(int argc, char **argv)
{
	struct capture_opts o = { .pid = -1, .timeout_ms = 120000, .interval_ms = 60000,
				  .redact = true };
	struct session_opts so;
	struct capture_result res;
	struct diag err;
	bool help = false, session = false, repeat = false;
	struct capture_command action = { 0 };
	char **names = NULL, **command = NULL;
	int status;

	memset(&so, 0, sizeof(so));
	diag_clear(&err);
	if (parse_args(argc, argv, &o, &so, &help, &names, &command, &session, &repeat, &err) < 0) {
		free(names);
		free(command);
		return cli_usage_error(cli_find_command("capture"), &err);
	}
	if (help) {
		free(names);
		free(command);
		fputs(cmd_capture_help, stdout);
		return 0;
	}
	o.argc = argc;
	o.argv = argv;
	if (session) {
		so.cap = o;
		status = run_session(&so);
		free(names);
		free(command);
		return status;
	}
	struct progress pr = { isatty(STDERR_FILENO) == 1, repeat ? "iteration" : "sample" };
	if (o.count) {
		o.progress = print_progress;
		o.progress_ctx = &pr;
	}
	if (repeat) {
		action.argv = command;
		if (capture_command_user(&action, &err) < 0) {
			free(names);
			free(command);
			return cli_usage_error(cli_find_command("capture"), &err);
		}
		o.command = &action;
		o.say = print_say;
	}

	/* A signal is util/cleanup.h's: it says what is left, and the command dies of it. */
	int rc = capture_run(&o, &res, &err);
	if (rc < 0) {
		if (err.code == DIAG_USAGE) {
			status = cli_usage_error(cli_find_command("capture"), &err);
		} else {
			cli_print_diag(&err);
			status = err.code;
		}
	} else {
		print_summary(&o, &res);
		status = exit_status(&res);
	}
	capture_result_release(&res);
	free(names);
	free(command);
	return status;
}
