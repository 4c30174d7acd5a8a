/* What the subcommands share (cmds.h). */
#include "layerdag-sample/cmds.h"
#include "app/et_app.h"

const char ld_footer[] =
    "Exit status: 0 ok, 2 usage, 3 bad input data, 4 I/O error. See layerdag-sample(1).\n";

int ld_exit(int rc, const et_error *e)
{
	if (rc == 0)
		return 0;
	return et_app_fail(e);
}
