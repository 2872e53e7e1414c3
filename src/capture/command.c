/*
 * The action of `iotally capture --repeat`, run as the invoking user
 * (capture/command.h).
 */

#include "capture/command.h"

#include "capture/spawn.h"
#include "util/cleanup.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

/* SUDO_UID or SUDO_GID as a number other than 0, or -1. */
static int64_t
sudo_id(const char *name)
{
	const char *v = getenv(name);
	if (!v || !*v || strlen(v) > 10)
		return -1;
	int64_t n = 0;
	for (const char *p = v; *p; p++) {
		if (*p < '0' || *p > '9')
			return -1;
		n = n * 10 + (*p - '0');
	}
	return n > 0 && n < UINT32_MAX ? n : -1;
}

int
capture_sudo_user(uint32_t *uid, uint32_t *gid)
{
	int64_t u = sudo_id("SUDO_UID"), g = sudo_id("SUDO_GID");
	if (u < 0 || g < 0)
		return -1;
	*uid = (uint32_t)u;
	*gid = (uint32_t)g;
	return 0;
}

int
capture_command_user(struct capture_command *c, struct diag *err)
{
	c->drop = geteuid() == 0;
	if (!c->drop)
		return 0;
	if (capture_sudo_user(&c->uid, &c->gid) < 0)
		return diag_set(err, DIAG_USAGE, NULL, 0, 0,
				"the -- COMMAND runs as the user who ran sudo, and SUDO_UID or "
				"SUDO_GID is not set to a user other than root: run iotally "
				"through sudo from your own account");
	return 0;
}

int
capture_command_run(const struct capture_command *c, int *status, struct diag *err)
{
	const struct spawn_spec spec = {
		.path = c->argv[0], .argv = c->argv, .stdio = { -1, -1, -1 },
		.how = SPAWN_OWN_GROUP | SPAWN_DEFAULT_SIGNALS | SPAWN_SEARCH_PATH |
		       (c->drop ? SPAWN_DROP_USER : 0),
		.uid = c->uid, .gid = c->gid,
	};
	pid_t pid;
	int e;
	if (spawn_start(&spec, &pid, &e) < 0)
		return diag_set(err, DIAG_UNAVAILABLE, NULL, 0, 0, "cannot run '%s'%s: %s",
				c->argv[0], c->drop ? " as the user who ran sudo" : "",
				strerror(e));
	int ws = 0;
	while (waitpid(pid, &ws, 0) < 0 && errno == EINTR)
		;
	cleanup_forget_group(pid);
	*status = WIFSIGNALED(ws) ? 128 + WTERMSIG(ws) : WEXITSTATUS(ws);
	return 0;
}
