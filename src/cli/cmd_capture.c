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
#include "model/session_exit.h"
#include "util/array.h"
#include "util/diag.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

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
	const struct session_end end = {
		.failed = rc < 0, .error = err.code, .complete = res.complete,
		.tracking_maybe_on = res.tracking == SESSION_TRACKING_MAYBE_ON,
	};
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
	if (end.tracking_maybe_on)
		cli_error("session", 0, "KERNEL TRACKING MAY STILL BE ON: ioclasscount --stop "
			  "failed (%s); stop it by hand now: %s", res.stop_failure,
			  res.stop_command);
	session_result_release(&res);
	return session_exit_status(&end);
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
		cli_print_command_help("capture");
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
