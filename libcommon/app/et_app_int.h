/* app/et_app_int: what the files of the program-support layer share;
 * not for the tools (they call et_app_init). */
#ifndef APP_ET_APP_INT_H
#define APP_ET_APP_INT_H

#include "et_progress.h"

/* Draws et_progress lines on stderr (et_app_progress.c). */
extern const et_progress_sink et_app_progress_sink;
/* Installs the handlers of the signals that end a job (et_app_signals.c). */
void et_app_hook_signals(void);

#endif
