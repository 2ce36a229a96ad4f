#include <stdio.h>
#include <editline/readline.h>
#include <wchar.h>

/* glibc declares wcwidth only with _XOPEN_SOURCE, which Swift's Glibc module does not set;
   the REPL needs it to count display columns. */
extern int wcwidth(wchar_t c);
static inline int messageai_wcwidth(unsigned int c) { return wcwidth((wchar_t)c); }
