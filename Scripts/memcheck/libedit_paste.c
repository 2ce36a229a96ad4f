/* libedit's readline layer on its own, in callback mode as the client drives it, for valgrind
 * (Scripts/asan.sh): the client itself cannot run under valgrind 3.19 (valgrind crashes on
 * libdispatch's main thread). Types N keys into a line, as the client did with a paste, then
 * Enter. With "grow" it first does what Sources/MessageAIClient/Terminal/LineBuffer.swift does
 * at start (keep the two in step), then inserts the paste in one piece as the client does.
 *
 *   libedit_paste N plain   -> valgrind finds libedit's writes into freed memory (issue 24)
 *   libedit_paste N grow    -> none (the paste inserted in one piece)
 *   libedit_paste N typed   -> none (grown first, then N keys typed one by one)
 */
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <editline/readline.h>

static int typed = 0, total = 0, done = 0, injected = 0;
static char harbour[16];

static int getc_fn(FILE *f) {
    (void)f;
    if (injected) { injected = 0; return 0x15; }          /* Ctrl-U */
    if (typed < total) { typed++; return typed % 3 ? 'g' : 0x1F44D; }
    if (typed == total) { typed++; return '\r'; }
    return EOF;
}

static void handler(char *line) {
    printf("\nline of %zu bytes\n", line ? strlen(line) : 0);
    free(line);
    done = 1;
    rl_callback_handler_remove();
}

static void clear_line(void) { injected = 1; rl_callback_read_char(); }

static char *repeated(const char *unit, int count) {
    size_t n = strlen(unit);
    char *s = malloc(n * (size_t)count + 1);
    for (int i = 0; i < count; i++) memcpy(s + n * (size_t)i, unit, n);
    s[n * (size_t)count] = 0;
    return s;
}

int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 8000;
    const char *mode = argc > 2 ? argv[2] : "plain";
    int grow = strcmp(mode, "plain") != 0;
    setlocale(LC_ALL, "");
    setlocale(LC_CTYPE, "C.UTF-8");
    rl_getc_function = getc_fn;
    rl_catch_signals = 0;
    rl_callback_handler_install("> ", handler);
    if (grow) {  /* LineBuffer.prepare() */
        char *wide = repeated("\xF0\x90\x80\x80", 64512), *ascii = repeated("x", 65536);
        rl_insert_text(wide);
        free(rl_copy_text(0, 0));
        rl_line_buffer = harbour;
        clear_line();
        rl_insert_text(ascii);
        if (rl_line_buffer == harbour) { fprintf(stderr, "not re-pointed\n"); return 2; }
        clear_line();
        clear_line();
        free(wide); free(ascii);
    }
    if (strcmp(mode, "grow") == 0) {
        /* The paste in one insertion (EditlineEditor.insertOnLine), then Enter. */
        char *paste = repeated("gg\xF0\x9F\x91\x8D", n / 3);
        rl_insert_text(paste);
        free(rl_copy_text(0, 0));
        free(paste);
        typed = total = 0;
    } else {
        total = n;
    }
    while (!done) rl_callback_read_char();
    return 0;
}
