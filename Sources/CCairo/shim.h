// cairo for MathAloudRender: image surfaces (PNG) and PDF surfaces.
#ifndef MATHALOUD_CCAIRO_SHIM_H
#define MATHALOUD_CCAIRO_SHIM_H
#include <cairo.h>
#include <cairo-pdf.h>
#endif
