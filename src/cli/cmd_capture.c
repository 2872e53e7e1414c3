/*
 * iotally capture: run Apple's tools on this Mac and write one bundle
 * (capture/capture.h) that every iotally command reads back.
 */

#include "cli/commands.h"

#include "capture/capture.h"
#include "capture/command.h"
#include "capture/request.h"
#include "capture/session.h"
#include "cli/msgs.h"
#include "cli/options.h"
#include "app/kind.h"
#include "util/array.h"
#include "util/diag.h"

#include <stdio.h>
#include <string.h>
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
	"  --pid PID          capture this process too ({target kinds})\n"
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
	"  --kinds K,...      repeat: the snapshot's captures (default footprint),\n"
	"                     of {kinds and}\n"
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

/* The option names of the request's ids (capture/request.h). */
#define OPT_HELP CAPTURE_ARG_END

static const struct cli_option options[] = {
	{ "pid", 0, true, CAPTURE_ARG_PID },
	{ "process", 0, true, CAPTURE_ARG_PROCESS },
	{ "output", 'o', true, CAPTURE_ARG_OUTPUT },
	{ "track", 0, false, CAPTURE_ARG_TRACK },
	{ "timeout", 0, true, CAPTURE_ARG_TIMEOUT },
	{ "count", 0, true, CAPTURE_ARG_COUNT },
	{ "interval", 0, true, CAPTURE_ARG_INTERVAL },
	{ "no-redact", 0, false, CAPTURE_ARG_NO_REDACT },
	{ "archive", 0, false, CAPTURE_ARG_ARCHIVE },
	{ "tools-dir", 0, true, CAPTURE_ARG_TOOLS_DIR },
	{ "help", 'h', false, OPT_HELP },
	{ "session", 0, false, CAPTURE_ARG_SESSION },
	{ "keep", 0, false, CAPTURE_ARG_KEEP },
	{ "capsize", 0, true, CAPTURE_ARG_CAPSIZE },
	{ "exclude", 0, false, CAPTURE_ARG_EXCLUDE },
	{ "size", 0, true, CAPTURE_ARG_SIZE },
	{ "maps-all", 0, false, CAPTURE_ARG_MAPS_ALL },
	{ "duration", 0, true, CAPTURE_ARG_DURATION },
	{ "repeat", 0, true, CAPTURE_ARG_REPEAT },
	{ "warmup", 0, true, CAPTURE_ARG_WARMUP },
	{ "keep-going", 0, false, CAPTURE_ARG_KEEP_GOING },
	{ "kinds", 0, true, CAPTURE_ARG_KINDS },
	{ "settle", 0, true, CAPTURE_ARG_SETTLE },
};

struct capture_parse {
	struct capture_request *req;
	bool *help;
};

/* One option or operand (cli_take_fn). */
static int
take_arg(void *ctx, struct cli_parser *p, int id, const char *arg, struct diag *err)
{
	struct capture_parse *c = ctx;
	if (id == OPT_HELP) {
		*c->help = true;
		return 0;
	}
	return capture_request_take(c->req, id, arg, p->only_operands, err);
}

static int
parse_args(int argc, char **argv, struct capture_request *req, bool *help, struct diag *err)
{
	struct cli_parser p;
	struct capture_parse c = { req, help };
	bool stopped_at_help = false;
	/* --help is taken like any option (CLI_DONE is no option's id): every
	 * option is still checked, and a usage error wins over the help. */
	if (cli_parse(&p, options, ARRAY_SIZE(options), argc, argv, CLI_DONE,
		      &stopped_at_help, take_arg, &c, err) < 0)
		return -1;
	return capture_request_finish(req, *help, isatty(STDIN_FILENO) == 1, err);
}


static void
print_summary(const struct capture_opts *o, const struct capture_result *res)
{
	for (size_t i = 0; i < res->nsteps; i++) {
		const struct capture_step_report *s = &res->steps[i];
		enum diag_severity sev;
		if (!capture_step_said(s->status, &sev))
			continue;
		/* The step's id in place of a file name: "iotally: target.vmmap: warning: ..." */
		cli_msg(sev, s->id, 0, "%s%s%s", s->status, s->reason ? ": " : "",
			s->reason ? s->reason : "");
		if (capture_step_hint(s->status))
			cli_note(s->id, 0, "%s", capture_step_hint(s->status));
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
	int rc = session_run(so, &res, &err);
	int status = rc < 0 ? err.code : res.complete ? 0 : CAPTURE_EXIT_UNAVAILABLE;
	if (rc < 0) {
		cli_print_diag(&err);
	} else {
		if (res.aborted)
			cli_warn("session", 0, "stopped early: %s", res.aborted);
		if (!so->cap.redact)
			cli_warn(NULL, 0, "redaction is OFF (--no-redact): the session may hold user "
				 "names, serial numbers and home paths; review it before sharing it");
		cli_out_line(stdout, "%s: %s session", res.dir, res.complete ? "complete" : "partial");
		if (res.archive)
			cli_out_line(stdout, "%s: archive", res.archive);
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
	struct capture_opts o;
	struct session_opts so;
	struct capture_request req;
	struct capture_result res;
	struct diag err;
	bool help = false;
	struct capture_command action = { 0 };
	struct capture_plan plan;   /* the kinds' steps */
	int status;

	diag_clear(&err);
	kind_capture_plan(&plan);
	capture_request_init(&req, &o, &so, (size_t)argc, &plan);
	if (parse_args(argc, argv, &req, &help, &err) < 0) {
		capture_request_release(&req);
		return cli_usage_error(cli_find_command("capture"), &err);
	}
	if (help) {
		capture_request_release(&req);
		cli_print_help(stdout, cmd_capture_help);
		return 0;
	}
	o.argc = argc;
	o.argv = argv;
	if (req.session) {
		so.cap = o;
		status = run_session(&so);
		capture_request_release(&req);
		return status;
	}
	struct progress pr = { isatty(STDERR_FILENO) == 1, req.repeat ? "iteration" : "sample" };
	if (o.count) {
		o.progress = print_progress;
		o.progress_ctx = &pr;
	}
	if (req.repeat) {
		action.argv = req.command;
		if (capture_command_user(&action, &err) < 0) {
			capture_request_release(&req);
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
		status = capture_exit_status(&res);
	}
	capture_result_release(&res);
	capture_request_release(&req);
	return status;
}
