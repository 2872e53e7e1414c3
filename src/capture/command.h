#ifndef IOTALLY_CAPTURE_COMMAND_H
#define IOTALLY_CAPTURE_COMMAND_H

/*
 * The action of `iotally capture --repeat` (-- COMMAND ARGS...): run as
 * the user who invoked iotally, never as root. As root, that is the user
 * who ran sudo (SUDO_UID and SUDO_GID, as `capture --session` reads
 * them); otherwise iotally's own user. The command inherits iotally's
 * environment and terminal but runs in a process group of its own, which
 * a signal to iotally stops (util/cleanup.h) before iotally says what is
 * kept and dies.
 */

#include <stdbool.h>
#include <stdint.h>

#include "util/diag.h"

struct capture_command {
	char **argv;            /* NULL-terminated, borrowed */
	bool drop;              /* switch to uid/gid before exec (iotally is root) */
	uint32_t uid, gid;
};

/*
 * The user who ran sudo: SUDO_UID and SUDO_GID, each a number other than
 * 0. 0 with *uid and *gid, or -1 when either is missing or not such a number.
 */
int capture_sudo_user(uint32_t *uid, uint32_t *gid);

/*
 * Who the command runs as: 0, or -1 with a DIAG_USAGE *err when iotally
 * runs as root and SUDO_UID or SUDO_GID does not name another user.
 */
int capture_command_user(struct capture_command *c, struct diag *err);

/*
 * Run it and wait: 0 with *status (the exit status, or 128 + the signal
 * that ended it), or -1 with *err (DIAG_UNAVAILABLE) when it could not be
 * started (not found, the user could not be taken).
 */
int capture_command_run(const struct capture_command *c, int *status, struct diag *err);

#endif
