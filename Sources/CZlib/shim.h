// zlib for MathAloudRender's PNG encoder (deflate and CRC-32).
#ifndef MATHALOUD_CZLIB_SHIM_H
#define MATHALOUD_CZLIB_SHIM_H
#include <zlib.h>
#endif
