#include "emit_html.h"

#include "cli.h"

int emit_html_file(const char *path, const viz_plan *vp) {
    (void)vp;
    return cli_error("%s: not yet", path);
}
