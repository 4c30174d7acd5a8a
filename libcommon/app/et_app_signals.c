/* The handlers of the signals that end a job (^C, kill, a closed terminal,
 * a reader gone): they remove the temporary files of outputs not yet
 * committed, then the process dies of the signal as it would have.
 * Installed before the first temporary file (et_output_set_temp_hook). */
#include "app/et_app_int.h"
#include "et_output.h"

#include <signal.h>
#include <string.h>

static void on_end_signal(int sig)
{
	et_output_unlink_temps();
	signal(sig, SIG_DFL);
	raise(sig);
}

void et_app_hook_signals(void)
{
	size_t n;
	const int *sigs = et_output_end_signals(&n);
	struct sigaction sa, old;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_end_signal;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < n; i++)
		sigaddset(&sa.sa_mask, sigs[i]);
	for (size_t i = 0; i < n; i++) {
		/* an ignored signal (nohup, a shell's background job) stays ignored */
		if (sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN)
			continue;
		sigaction(sigs[i], &sa, NULL);
	}
}
