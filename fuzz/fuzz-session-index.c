/*
 * libFuzzer harness: a tracking session's index (session.json) read by
 * session_index_read() (ingest/session_read.h), which reads a folder: each
 * input is written as S/session.json in a private scratch folder. Checks
 * what the reader promises: a refusal has a message and a sysexits code;
 * a session read names its bundles only as S/before, S/after and
 * S/tracking (never a path the index chose), and has a tracking state.
 */

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

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char session[96], index[128];
	if (!session[0]) {
		scratch_path(session, sizeof(session), "S");
		snprintf(index, sizeof(index), "%s/session.json", session);
		if (mkdir(session, 0700) != 0)
			abort();
	}
	scratch_write(index, data, size);
	FUZZ_CHECK(session_path_is_session(session));
	struct session_index si;
	struct diag err;
	if (session_index_read(session, &si, &err) == 0) {
		FUZZ_CHECK(si.path && si.tracking_left);
		check_dir(session, si.before, "before");
		check_dir(session, si.after, "after");
		check_dir(session, si.tracking, "tracking");
		session_index_release(&si);
	} else {
		FUZZ_CHECK(err.msg[0] && (err.code == DIAG_DATA || err.code == DIAG_NOINPUT));
	}
	return 0;
}
