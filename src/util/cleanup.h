#ifndef IOTALLY_UTIL_CLEANUP_H
#define IOTALLY_UTIL_CLEANUP_H

/*
 * What an interrupted command must not leave behind, in one place.
 *
 * Every command that writes through a temporary name (capture's private
 * folder, redact's copy, `-o FILE`, `--junit FILE`: util/tempfile.h,
 * util/outfile.h) registers what it created here, and forgets it once the
 * output is renamed into place. On SIGINT, SIGTERM or SIGHUP the handler
 * (installed with the first registration) does, with async-signal-safe
 * calls only (kill, unlink, rmdir, write):
 *
 *   1. SIGKILL to every registered process group (a running tool and
 *      whatever it started);
 *   2. unlink / rmdir every registered path, newest first, so the files of
 *      a folder go before the folder (a folder that still holds something
 *      nobody registered stays: rmdir never removes contents it was not
 *      told about);
 *   3. writes the registered message, if any, to standard error, so the
 *      command says what is true after the signal ("nothing was left",
 *      "the bundle is complete");
 *   4. restores the default action and raises the signal again, so the
 *      caller sees the command killed by it (the shell's 130, 143, 129).
 *
 * The list is changed with those signals blocked, so the handler never
 * sees half a change. SIGKILL cannot be caught: what it leaves is said in
 * docs/capture.md.
 */

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* A file, or a folder (removed with rmdir once its registered files are gone). */
void cleanup_add_file(const char *path);
void cleanup_add_dir(const char *path);
/* A process group to SIGKILL on a signal (a tool started with setpgid(0, 0)). */
void cleanup_add_group(pid_t pgid);
/*
 * Forget `path` (it was renamed into place, or removed): its own entry and
 * every entry below it ("path/..."). Forgetting what is not registered is
 * harmless.
 */
void cleanup_forget(const char *path);
void cleanup_forget_group(pid_t pgid);
/*
 * The line the handler writes on standard error (a copy is kept; NULL:
 * none). It should end with a newline.
 */
void cleanup_set_message(const char *text);

/*
 * Block / unblock SIGINT, SIGTERM and SIGHUP around a step that must not
 * be cut in two (a rename and the forgetting of what it moved, a fork and
 * the registration of the child). Pairs nest; a signal that arrives
 * meanwhile is handled at the outermost release.
 */
void cleanup_hold(void);
void cleanup_release(void);

/*
 * Deferred signals, for a command that must undo a change outside the
 * files (`capture --session` turns kernel allocation tracking off, which
 * needs a tool run: not async-signal-safe). While on, the handler only
 * kills the registered process groups (the running tool) and records the
 * signal; the command sees it with cleanup_pending_signal() between its
 * steps (a blocking read or sleep returns EINTR: the handler is installed
 * without SA_RESTART), does its undoing, then cleanup_raise_pending() does
 * steps 2 to 4 above. Turning it on installs the handler.
 */
void cleanup_defer_signals(bool on);
/* The signal received while deferring, or 0. */
int cleanup_pending_signal(void);
/* Remove, say and die of the pending signal (returns only when none is pending). */
void cleanup_raise_pending(void);

/* Tests: how many entries are registered. */
size_t cleanup_count(void);

#endif
