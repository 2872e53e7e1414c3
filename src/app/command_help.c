/*
 * The command table (app/command_help.h): the fixed rows and the kinds'
 * rows in one sorted list, and the text of `iotally --help` around it.
 */

#include "app/command_help.h"

#include "app/kind.h"
#include "app/kind_command.h"
#include "app/kind_text.h"
#include "ingest/bundle.h"
#include "ingest/session_read.h"
#include "util/suggest.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static struct command_text commands[COMMAND_KIND + KINDS_MAX];
static size_t ncommands;

static int
by_name(const void *a, const void *b)
{
	return strcmp(((const struct command_text *)a)->name,
		      ((const struct command_text *)b)->name);
}

size_t
command_list(const struct command_text **v)
{
	if (!ncommands) {
		for (size_t i = 0; i < command_nfixed; i++)
			commands[ncommands++] = command_fixed[i];
		for (const struct kind *k = kind_first(); k; k = kind_next(k))
			if (k->command)
				commands[ncommands++] = (struct command_text){
					k->name, COMMAND_KIND, k->command->summary,
					k->command->help };
		qsort(commands, ncommands, sizeof(*commands), by_name);
	}
	*v = commands;
	return ncommands;
}

const struct command_text *
command_find(const char *name)
{
	const struct command_text *v;
	size_t n = command_list(&v);
	for (size_t i = 0; i < n; i++)
		if (strcmp(v[i].name, name) == 0)
			return &v[i];
	return NULL;
}

const struct command_text *
command_nearest(const char *name)
{
	const struct command_text *v;
	size_t n = command_list(&v);
	struct suggest s;
	suggest_init(&s, name, strlen(name));
	for (size_t i = 0; i < n; i++)
		suggest_consider(&s, v[i].name, strlen(v[i].name));
	for (size_t i = 0; s.best && i < n; i++)
		if (v[i].name == s.best)
			return &v[i];
	return NULL;
}

enum command_route
command_route(const char *name)
{
	if (command_find(name))
		return ROUTE_COMMAND;
	if (strcmp(name, "-") == 0)
		return ROUTE_INPUT;
	if (name[0] == '-')
		return ROUTE_UNKNOWN_OPTION;
	if (session_path_is_session(name) || session_path_is_session_archive(name))
		return ROUTE_SESSION;
	if (bundle_path_is_bundle(name))
		return ROUTE_BUNDLE;
	if (access(name, F_OK) == 0)
		return ROUTE_INPUT;
	/* A word that names a file rather than a command holds '/' or '.'. */
	return strchr(name, '/') || strchr(name, '.') ? ROUTE_NO_FILE : ROUTE_NO_COMMAND;
}

void
command_help_expand(struct strbuf *out, const char *text)
{
	kind_text_expand(out, text);
}

/*
 * What people come for, a command line each, before the command list: the
 * tasks the documentation tells as stories. tools/helptext.py reads this
 * block for the man page; tests/examples-run.py checks that each line names
 * a command and options that exist.
 */
static const char common_tasks[] =
	"Common tasks:\n"
	"  Attach a before/after page to a bug report:\n"
	"    iotally report --format html -o report.html BEFORE AFTER\n"
	"  Gate CI: fail the build when memory grew past its budgets (exit 1):\n"
	"    iotally diff --gates budgets.txt --junit junit.xml BASELINE/ CURRENT/\n"
	"  Hunt a leak on a Mac: a series of captures, then 'iotally report SERIES'\n"
	"  (a tracking session on a DEVELOPMENT kernel: 'capture --session'):\n"
	"    sudo iotally capture --process APP --count 20 --interval 60 --archive\n"
	"  Leak per operation: repeat an action N times, then 'iotally rate SERIES':\n"
	"    sudo iotally capture --repeat 20 --process APP -- COMMAND\n"
	"  Triage a fleet: many before/after pairs bucketed by what grew:\n"
	"    iotally signatures BEFORE/ AFTER/\n"
	"\n";

static const char main_usage[] =
	"usage: iotally <command> [options] FILE|-\n"
	"       iotally FILE|- [options]   (the command that reads its kind)\n"
	"       iotally help <command>\n"
	"       iotally --version\n"
	"\n"
	"Reads saved macOS memory diagnostics (vmmap, ioreg, ioclasscount,\n"
	"footprint) on any machine and reports them as tables, histograms, JSON\n"
	"or CSV.\n"
	"\n";

/* After the command list: the rules every command shares. */
static const char main_rules[] =
	"\n"
	"Commands read FILE, or standard input when FILE is '-' (diff, report and\n"
	"trend read several), and 'iotally -' recognises standard input. A second\n"
	"file operand of the other commands is refused, not taken as a name; a\n"
	"name that is also a file's name goes after '--'. A capture of another\n"
	"kind is refused with the command that reads it; iotally's own JSON of\n"
	"{read-back kinds and} is read by diff, report and trend ('iotally\n"
	"FILE.json' runs report); footprint's text output is read by 'iotally\n"
	"footprint', diff, report and trend, heap's reports by 'iotally heap',\n"
	"diff, report and trend; reports of other tools (footprint's JSON,\n"
	"leaks, malloc_history, System Profiler) are not read.\n"
	"gzip-compressed captures are read as they are, and a capture bundle\n"
	"(folder or .tar.gz) wherever a capture is read, by its name only (a tar\n"
	"archive on standard input is refused). A file whose lines end in CR\n"
	"alone (classic Mac OS line ends, which no Apple tool here writes) is\n"
	"refused naming its line ends; CRLF files are read.\n"
	"\n"
	"The same rules in every command: --snapshot N picks the Nth capture of a\n"
	"file that holds several (--dump N is the same; past the last is exit 64);\n"
	"a capture cut short is read up to the cut with a warning and marked\n"
	"partial, and is exit 65 with --strict; an empty input (no bytes, or only\n"
	"blank lines and leading '#' comment lines) is exit 65.\n"
	"\n"
	"Environment: TMPDIR is where 'iotally -' keeps piped standard input while\n"
	"it is read (default /tmp). Output does not depend on the locale or time zone.\n"
	"\n"
	"Exit status: 0 success, 1 a diff gate tripped, 64 usage error, 65 malformed\n"
	"input, 66 input cannot be opened, 69 a library iotally loads when it is\n"
	"first needed (libxml2, libarchive) cannot be loaded, 70 internal error, 74\n"
	"output cannot be written ('iotally help diff' lists its causes).\n";

void
command_main_help(struct strbuf *out)
{
	const struct command_text *v;
	size_t n = command_list(&v);
	strbuf_addstr(out, main_usage);
	strbuf_addstr(out, common_tasks);
	strbuf_addstr(out, "Commands:\n");
	for (size_t i = 0; i < n; i++)
		strbuf_addf(out, "  %-10s %s\n", v[i].name, v[i].summary);
	kind_text_expand(out, main_rules);
}
