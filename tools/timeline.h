/* The terminal timeline: one row per step, live bytes against the lower bound. */
#ifndef TA_TIMELINE_H
#define TA_TIMELINE_H

#include <stdbool.h>
#include <stdio.h>

#include "viz.h"

/* Width of every line timeline_print writes (ANSI escapes not counted). */
#define TIMELINE_COLUMNS 80

/* Prints the timeline of vp's chosen plan: a heading, then per step its op,
 * its live bytes and a bar scaled so the lower bound fills it, rows at the
 * bound marked "peak".  ANSI colour when `color`, or when f is a terminal
 * (and NO_COLOR is unset and TERM is not "dumb"); plain ASCII otherwise. */
void timeline_print(FILE *f, const viz_plan *vp, bool color);
#endif
