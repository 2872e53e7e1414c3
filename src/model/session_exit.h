#ifndef IOTALLY_MODEL_SESSION_EXIT_H
#define IOTALLY_MODEL_SESSION_EXIT_H

/*
 * The exit status of `capture --session` from how the session ended, in
 * util/diag.h's statuses (declared once): the run's error when it failed;
 * else 0 for a complete session and DIAG_UNAVAILABLE (69) for a partial
 * one. Kernel tracking that may still be on is 69 whatever else happened:
 * the machine is left in a state the user must undo by hand, and a CI job
 * must not read that as success or as an ordinary refusal.
 */

#include <stdbool.h>

struct session_end {
	bool failed;              /* the run stopped with an error (nothing or part written) */
	int error;                /* that error's status (0: none given) */
	bool complete;            /* written: every step of the sequence done */
	bool tracking_maybe_on;   /* ioclasscount --stop failed */
};

int session_exit_status(const struct session_end *e);

#endif
