#include <zlib.h>

// deflateInit/inflateInit are macros, which Swift cannot import.
static inline int czlib_deflate_init(z_streamp s, int level) { return deflateInit(s, level); }
static inline int czlib_inflate_init(z_streamp s) { return inflateInit(s); }
