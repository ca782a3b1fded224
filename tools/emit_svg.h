/* The arena map: a plan as an SVG picture (time along x, offset along y). */
#ifndef TA_EMIT_SVG_H
#define TA_EMIT_SVG_H

#include <stdbool.h>
#include <stdio.h>

#include "viz.h"

/* Writes the map of vp->o[k].  standalone: a whole .svg document (XML
 * declaration, its own style); otherwise an <svg> element to inline in HTML
 * (which carries the style once).  Every buffer is one
 *   <rect class="buf ..." data-i data-id data-offset data-size data-padded
 *         data-first data-last data-kind>
 * with a <title> for the hover text.  The <svg class="arena-map"> carries
 * data-strategy, data-arena, data-lower-bound, data-peak-step, data-buffers,
 * data-fixed-conflicts, and data-x0, data-step-px, data-lo, data-y0 and
 * data-byte-px so a test can recompute every rectangle from the plan:
 *   x = x0 + (first - lo) * step_px,  width = (last - first + 1) * step_px,
 *   y + height = y0 - offset * byte_px  (height >= 1 px, so tiny buffers show). */
void emit_svg(FILE *f, const viz_plan *vp, const viz_time *vt, size_t k, bool standalone);

/* The map of the chosen plan to a file.  Returns CLI_OK or prints an error. */
int emit_svg_file(const char *path, const viz_plan *vp);

/* CSS the maps use (hover outlines); standalone SVGs embed it, HTML puts it in <head>. */
extern const char emit_svg_css[];
#endif
