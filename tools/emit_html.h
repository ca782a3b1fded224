/* The HTML report: one self-contained page comparing the strategies. */
#ifndef TA_EMIT_HTML_H
#define TA_EMIT_HTML_H

#include "viz.h"

/* Writes the page: the strategy table (the CLI's numbers), every strategy's
 * arena map inline, and the buffer table of the chosen plan, sortable by a
 * few lines of inline script.  Well-formed XML (XHTML served as HTML), no
 * external resources.  Returns CLI_OK or prints an error. */
int emit_html_file(const char *path, const viz_plan *vp);
#endif
