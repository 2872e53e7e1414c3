/*
 * iotally capture: run Apple's tools on this Mac and write one bundle
 * (capture/capture.h) that every iotally command reads back.
 */

#include "cli/commands.h"

#include "capture/capture.h"
#include "cli/msgs.h"
#include "cli/options.h"
#include "util/array.h"
#include "util/diag.h"
#include "util/size.h"
#include "util/xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char cmd_capture_help[] =
	"usage: iotally capture [--pid PID | --process NAME] [-o DIR] [--track [NAME...]]\n"
	"                       [--timeout SECONDS] [--count N --interval SECONDS]\n"
	"                       [--no-redact] [--archive] [--tools-dir DIR]\n"
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
	"Options:\n"
	"  --pid PID          capture this process too (vmmap, footprint)\n"
	"  --process NAME     the one process named exactly NAME (pgrep -x); several\n"
	"                     matches are an error that lists their pids\n"
	"  -o, --output DIR   the bundle folder (default iotally-<UTC time>-<name>-<pid>\n"
	"                     in this folder; never an existing one; DIR/ names DIR)\n"
	"  --track [NAME...]  also ioclasscount --track NAME... where it can work\n"
	"  --timeout SECONDS  per step (default 120); a hung tool is stopped\n"
	"  --count N          a series of N samples (DIR/001, DIR/002, ...) with\n"
	"  --interval SECONDS between them (default 60); DIR/series.json is\n"
	"                     rewritten after each sample\n"
	"  --no-redact        keep user names, serial numbers and home paths (the\n"
	"                     manifest and this command say so loudly)\n"
	"  --archive          also write DIR.tar.gz, to attach to a bug report\n"
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
	"Exit status: 0 every step ok or skipped; 77 a step was denied (bundle\n"
	"written; run with sudo); 69 a step failed, timed out or lost its target\n"
	"(bundle written), or no such process; 64 usage error or an ambiguous\n"
	"--process; 65 pgrep answered something that is not a process id; 73 DIR\n"
	"exists or its folder is not writable; 74 write error. Interrupted, the\n"
	"command dies of the signal (the shell shows 130 for SIGINT, 143 SIGTERM).\n"
	"\n"
	"Examples (the first two on a Mac; the bundle reads anywhere):\n"
	"  sudo iotally capture --process WindowServer --archive\n"
	"  sudo iotally capture --pid 4242 -o leak --count 10 --interval 60\n"
	"  iotally fixtures/bundle/complete.tar.gz\n"
	"  iotally vmmap --all-types fixtures/bundle/complete\n";

enum {
	OPT_PID = 1, OPT_PROCESS, OPT_OUTPUT, OPT_TRACK, OPT_TIMEOUT, OPT_COUNT,
	OPT_INTERVAL, OPT_NO_REDACT, OPT_ARCHIVE, OPT_TOOLS_DIR, OPT_HELP,
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
	bool *help;
	char **names;        /* the class names after --track */
	size_t n;
	bool have_interval;
};

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
	(void)p;
	switch (id) {
	case CLI_OPERAND:
		if (!o->track)
			return diag_set(err, DIAG_USAGE, NULL, 0, 0,
					"unexpected operand '%s' (class names follow --track)", arg);
		c->names[c->n++] = (char *)arg;
		return 0;
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

static int
parse_args(int argc, char **argv, struct capture_opts *o, bool *help, char ***names,
	   struct diag *err)
{
	struct cli_parser p;
	struct capture_parse c = { .o = o, .help = help };
	bool stopped_at_help = false;

	*names = c.names = xcalloc((size_t)argc + 1, sizeof(*c.names));
	/* --help is taken like any option (CLI_DONE is no option's id): every
	 * option is still checked, and a usage error wins over the help. */
	if (cli_parse(&p, options, ARRAY_SIZE(options), argc, argv, CLI_DONE,
		      &stopped_at_help, take_arg, &c, err) < 0)
		return -1;
	if (o->pid >= 0 && o->process)
		return diag_set(err, DIAG_USAGE, NULL, 0, 0, "give --pid or --process, not both");
	if (c.have_interval && !o->count)
		return diag_set(err, DIAG_USAGE, NULL, 0, 0, "--interval goes with --count");
	o->track_names = *names;
	o->ntrack_names = c.n;
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
	if (o->count)
		cli_out_line(stdout, "%s: series of %zu sample%s (%s)", res->dir, res->nsamples,
			     res->nsamples == 1 ? "" : "s",
			     res->complete ? "complete" : "partial");
	else
		cli_out_line(stdout, "%s: %s bundle", res->dir,
			     res->complete ? "complete" : "partial");
	if (res->archive)
		cli_out_line(stdout, "%s: archive", res->archive);
}

int
cmd_capture(int argc, char **argv)
{
	struct capture_opts o = { .pid = -1, .timeout_ms = 120000, .interval_ms = 60000,
				  .redact = true };
	struct capture_result res;
	struct diag err;
	bool help = false;
	char **names = NULL;
	int status;

	diag_clear(&err);
	if (parse_args(argc, argv, &o, &help, &names, &err) < 0) {
		free(names);
		return cli_usage_error(cli_find_command("capture"), &err);
	}
	if (help) {
		free(names);
		fputs(cmd_capture_help, stdout);
		return 0;
	}
	o.argc = argc;
	o.argv = argv;

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
	return status;
}
