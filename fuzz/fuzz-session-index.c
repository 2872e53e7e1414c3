/*
 * libFuzzer harness: a tracking session's index (session.json) read by
 * session_index_read() (ingest/session_read.h), which reads a folder: each
 * input is written as S/session.json in a private scratch folder. Checks
 * what the reader promises: a refusal has a message and a sysexits code;
 * a session read names its bundles only as S/before, S/after and
 * S/tracking (never a path the index chose), and has a tracking state.
 *
 * What stands in each bundle's place is chosen from a hash of the input
 * (so the index keeps every byte): nothing, a folder, a named pipe, a
 * symbolic link to a folder outside the session, or a file. A session read
 * names only folders (or parts that are missing); a pipe is never opened
 * (opening one for reading would block: libFuzzer reports the hang).
 */

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz-scratch.h"
#include "ingest/session_read.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
check_dir(const char *session, const char *got, const char *name)
{
	if (!got)
		return;
	char want[256];
	snprintf(want, sizeof(want), "%s/%s", session, name);
	FUZZ_CHECK(strcmp(got, want) == 0);
}

/* A part read must be a folder inside the session, or be missing. */
static void
check_folder(const char *got)
{
	struct stat st;
	if (got)
		FUZZ_CHECK(lstat(got, &st) == 0 ? S_ISDIR(st.st_mode) : errno == ENOENT);
}

enum part_kind { PART_NONE, PART_FOLDER, PART_PIPE, PART_LINK_OUT, PART_FILE, PART_KINDS };

/* S/NAME made `kind`, whatever the previous input left there. */
static void
plant_part(const char *session, const char *name, enum part_kind kind)
{
	char path[160];
	snprintf(path, sizeof(path), "%s/%s", session, name);
	if (unlink(path) != 0 && errno != ENOENT && rmdir(path) != 0)
		abort();
	int rc = 0;
	switch (kind) {
	case PART_FOLDER: rc = mkdir(path, 0700); break;
	case PART_PIPE: rc = mkfifo(path, 0600); break;
	case PART_LINK_OUT: rc = symlink("../outside", path); break;
	case PART_FILE: scratch_write(path, (const uint8_t *)"{}", 2); break;
	default: break;
	}
	if (rc != 0)
		abort();
}

/* FNV-1a of the input: which part layout it is read with. */
static uint32_t
input_hash(const uint8_t *data, size_t size)
{
	uint32_t h = 2166136261u;
	for (size_t i = 0; i < size; i++)
		h = (h ^ data[i]) * 16777619u;
	return h;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char session[96], index[128];
	static const char *const parts[] = { "before", "after", "tracking" };
	if (!session[0]) {
		char outside[96];
		scratch_path(session, sizeof(session), "S");
		scratch_path(outside, sizeof(outside), "outside");
		snprintf(index, sizeof(index), "%s/session.json", session);
		if (mkdir(session, 0700) != 0 || mkdir(outside, 0700) != 0)
			abort();
	}
	uint32_t layout = input_hash(data, size);
	for (size_t i = 0; i < 3; i++, layout /= PART_KINDS)
		plant_part(session, parts[i], (enum part_kind)(layout % PART_KINDS));
	scratch_write(index, data, size);
	FUZZ_CHECK(session_path_is_session(session));
	struct session_index si;
	struct diag err;
	if (session_index_read(session, &si, &err) == 0) {
		FUZZ_CHECK(si.path && si.tracking_left);
		check_dir(session, si.before, "before");
		check_dir(session, si.after, "after");
		check_dir(session, si.tracking, "tracking");
		check_folder(si.before);
		check_folder(si.after);
		check_folder(si.tracking);
		session_index_release(&si);
	} else {
		FUZZ_CHECK(err.msg[0] && (err.code == DIAG_DATA || err.code == DIAG_NOINPUT));
	}
	return 0;
}
