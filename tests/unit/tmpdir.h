/* A scratch directory for the C unit tests that write files: tmpdir_open
 * makes /tmp/NAME.XXXXXX, tmpdir_path names a file in it (the last two
 * results stay valid), tmpdir_clear empties it, tmpdir_empty says whether
 * it is (naming what was left behind), tmpdir_close removes it. */
#ifndef ET_UNIT_TMPDIR_H
#define ET_UNIT_TMPDIR_H

#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char tmpdir_name[64];

static inline bool tmpdir_open(const char *name)
{
	snprintf(tmpdir_name, sizeof tmpdir_name, "/tmp/%s.XXXXXX", name);
	if (mkdtemp(tmpdir_name))
		return true;
	perror("mkdtemp");
	return false;
}

static inline const char *tmpdir_path(const char *name)
{
	static char p[2][512];
	static int k;
	k ^= 1;
	snprintf(p[k], sizeof p[k], "%s/%s", tmpdir_name, name);
	return p[k];
}

static inline bool tmpdir_empty(void)
{
	DIR *d = opendir(tmpdir_name);
	struct dirent *de;
	int n = 0;
	while ((de = readdir(d)))
		if (strcmp(de->d_name, ".") != 0 && strcmp(de->d_name, "..") != 0) {
			fprintf(stderr, "left behind: %s\n", de->d_name);
			n++;
		}
	closedir(d);
	return n == 0;
}

static inline void tmpdir_clear(void)
{
	DIR *d = opendir(tmpdir_name);
	struct dirent *de;
	while ((de = readdir(d)))
		if (de->d_name[0] != '.')
			unlink(tmpdir_path(de->d_name));
	closedir(d);
}

static inline void tmpdir_close(void)
{
	tmpdir_clear();
	rmdir(tmpdir_name);
}

#endif
