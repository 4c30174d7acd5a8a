/* calib_file: reads the calibration file et-sim --calibrate writes
 * (etkit-calib(5)): format "etkit-calib", version 1; every fit's bands
 * checked (1 to CAL_BANDS, ascending and apart, alpha_us and beta_gbps
 * finite and >= 0). A later version or another format is refused, as is a
 * member of the wrong kind, each error naming the file and the member's
 * path ("fits[1].bands[0].alpha_us"). Pure: no printing, no exit. */
#ifndef ET_SIM_CALIB_CALIB_FILE_H
#define ET_SIM_CALIB_CALIB_FILE_H

#include "et-sim/calib/fit.h"
#include "et_err.h"
#include <stdint.h>

typedef struct calib_entry {
	char collective[24];
	uint32_t ranks, nodes;
	char device[96];
	char source[256]; /* the fit's source file, for messages */
	cal_fit fit;      /* bands only; errors as the file gives them */
} calib_entry;

typedef struct calib_set {
	calib_entry *e;
	size_t n;
} calib_set;

/* Parses len bytes of text (text[len] == '\0'); name names it in errors.
 * 0 with *s set (calib_set_free), or -1 with e set (ET_EXIT_DATA) and *s
 * empty. */
int calib_parse(const char *text, size_t len, const char *name, calib_set *s, et_error *e);
/* The same from a file (ET_EXIT_IO when it cannot be read). */
int calib_read(const char *path, calib_set *s, et_error *e);
void calib_set_free(calib_set *s);
/* The fit for a collective on ranks over nodes: the same three, else the
 * same collective and ranks; NULL when none. */
const calib_entry *calib_find(const calib_set *s, const char *collective, uint32_t ranks,
                              uint32_t nodes);

#endif
