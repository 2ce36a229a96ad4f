#ifndef MESSAGEAI_CCHAFA_SHIM_H
#define MESSAGEAI_CCHAFA_SHIM_H
// Terminal image previews for the client: libvips decodes (any format it reads, with
// shrink-on-load, so a large photo for /open never decodes at full size) and libchafa 1.12
// (Debian's libchafa-dev) picks the terminal's graphics protocol and draws. libchafa has no
// image loader of its own (the loaders live in the chafa tool), hence libvips, which the
// package already builds against for the server's thumbnails.
// Varargs and GLib types do not import well into Swift: each step is wrapped here.
#include <chafa.h>
#include <vips/vips.h>
#include <string.h>

/// Once per process, before the first decode. Same limits as the server: one worker, no cache.
static inline int messageai_preview_init(void) {
    if (VIPS_INIT("messageai")) return -1;
    vips_concurrency_set(1);
    vips_cache_set_max(0);
    vips_cache_set_max_mem(0);
    return 0;
}

/// Finishes a decode: 8-bit sRGB with alpha, written to a g_malloc'ed buffer of
/// width*height*4 bytes. Consumes `image`.
static inline int messageai_preview_pixels(VipsImage *image, int *width, int *height, void **pixels) {
    VipsImage *srgb = NULL, *rgba = NULL, *bytes = NULL;
    int result = -1;
    if (vips_colourspace(image, &srgb, VIPS_INTERPRETATION_sRGB, NULL)) goto out;
    if (vips_image_hasalpha(srgb)) {
        rgba = srgb; g_object_ref(rgba);
    } else if (vips_addalpha(srgb, &rgba, NULL)) goto out;
    if (vips_cast_uchar(rgba, &bytes, NULL)) goto out;
    size_t size = 0;
    *pixels = vips_image_write_to_memory(bytes, &size);
    if (!*pixels) goto out;
    *width = vips_image_get_width(bytes);
    *height = vips_image_get_height(bytes);
    result = size == (size_t)(*width) * (size_t)(*height) * 4 ? 0 : -1;
    if (result) { g_free(*pixels); *pixels = NULL; }
out:
    if (bytes) g_object_unref(bytes);
    if (rgba) g_object_unref(rgba);
    if (srgb) g_object_unref(srgb);
    g_object_unref(image);
    return result;
}

/// Decodes an image held in memory (a JPEG thumbnail) to at most `side` pixels on its longer side.
static inline int messageai_preview_decode_buffer(const void *data, size_t length, int side,
                                                  int *width, int *height, void **pixels) {
    VipsImage *image = NULL;
    if (vips_thumbnail_buffer((void *)data, length, &image, side, "height", side, "size", VIPS_SIZE_DOWN, NULL)) return -1;
    return messageai_preview_pixels(image, width, height, pixels);
}

/// Decodes an image file (the full image for /open) to at most `side` pixels on its longer side.
static inline int messageai_preview_decode_file(const char *path, int side, int *width, int *height, void **pixels) {
    VipsImage *image = NULL;
    if (vips_thumbnail(path, &image, side, "height", side, "size", VIPS_SIZE_DOWN, NULL)) return -1;
    return messageai_preview_pixels(image, width, height, pixels);
}

static inline void messageai_preview_free(void *p) { g_free(p); }
static inline const char *messageai_preview_error(void) { return vips_error_buffer(); }
static inline void messageai_preview_error_clear(void) { vips_error_clear(); }

/// What the terminal described by the environment (TERM, TERM_PROGRAM, LC_TERMINAL, VTE_VERSION
/// ...) can show, from chafa's terminal database: 3 kitty graphics, 2 iTerm2 inline images,
/// 1 sixels, 0 symbols only. `colours`: 2 truecolor, 1 256 colours, 0 16 colours.
static inline int messageai_preview_detect(int *colours) {
    gchar **envp = g_get_environ();
    ChafaTermInfo *info = chafa_term_db_detect(chafa_term_db_get_default(), envp);
    g_strfreev(envp);
    int mode = 0;
    if (chafa_term_info_have_seq(info, CHAFA_TERM_SEQ_BEGIN_KITTY_IMMEDIATE_IMAGE_V1)) mode = 3;
    else if (chafa_term_info_have_seq(info, CHAFA_TERM_SEQ_BEGIN_ITERM2_IMAGE)) mode = 2;
    else if (chafa_term_info_have_seq(info, CHAFA_TERM_SEQ_BEGIN_SIXELS)) mode = 1;
    *colours = chafa_term_info_have_seq(info, CHAFA_TERM_SEQ_SET_COLOR_FG_DIRECT) ? 2
             : chafa_term_info_have_seq(info, CHAFA_TERM_SEQ_SET_COLOR_FG_256) ? 1 : 0;
    chafa_term_info_unref(info);
    return mode;
}

/// Draws RGBA pixels in at most `columns` x `rows` cells. `mode` as from detect (0 symbols),
/// `cell_width`/`cell_height` the font's cell in pixels (for the graphics protocols).
/// Returns a g_malloc'ed NUL-terminated string (free with messageai_preview_free) and the
/// cells used, or NULL.
static inline char *messageai_preview_render(const void *pixels, int width, int height, int mode, int colours,
                                             int columns, int rows, int cell_width, int cell_height,
                                             int *used_columns, int *used_rows) {
    gchar **envp = g_get_environ();
    ChafaTermInfo *info = chafa_term_db_detect(chafa_term_db_get_default(), envp);
    g_strfreev(envp);
    if (mode > 0) {
        // The mode may come from outside chafa's database (kitty seen through KITTY_WINDOW_ID
        // with TERM=xterm-256color): borrow the sequences from a terminal known to have them,
        // or chafa prints nothing for a protocol the detected terminal lacks.
        gchar *kitty[] = {"TERM=xterm-kitty", NULL};
        gchar *iterm[] = {"TERM=xterm-256color", "TERM_PROGRAM=iTerm.app", NULL};
        gchar *sixel[] = {"TERM=mlterm", NULL};
        ChafaTermInfo *known = chafa_term_db_detect(chafa_term_db_get_default(), mode == 3 ? kitty : mode == 2 ? iterm : sixel);
        chafa_term_info_supplement(info, known);
        chafa_term_info_unref(known);
    }
    int w = columns, h = rows;
    chafa_calc_canvas_geometry(width, height, &w, &h, (gfloat)cell_width / (gfloat)cell_height, FALSE, FALSE);
    if (w < 1) w = 1;
    if (h < 1) h = 1;
    if ((mode == 3 || mode == 2) && w * cell_width > width) {
        // Kitty and iTerm2 are told the size in cells and scale the image to it themselves:
        // sending more pixels than the source has only makes the sequence longer (a 320 px
        // thumbnail at 40 columns of 10 px would be 400 KB of base64 instead of 130 KB).
        double scale = (double)width / (double)(w * cell_width);
        cell_width = (int)(cell_width * scale) > 0 ? (int)(cell_width * scale) : 1;
        cell_height = (int)(cell_height * scale) > 0 ? (int)(cell_height * scale) : 1;
    }
    ChafaCanvasConfig *config = chafa_canvas_config_new();
    chafa_canvas_config_set_geometry(config, w, h);
    chafa_canvas_config_set_cell_geometry(config, cell_width, cell_height);
    chafa_canvas_config_set_pixel_mode(config, mode == 3 ? CHAFA_PIXEL_MODE_KITTY : mode == 2 ? CHAFA_PIXEL_MODE_ITERM2
                                                : mode == 1 ? CHAFA_PIXEL_MODE_SIXELS : CHAFA_PIXEL_MODE_SYMBOLS);
    chafa_canvas_config_set_canvas_mode(config, colours == 2 ? CHAFA_CANVAS_MODE_TRUECOLOR
                                                : colours == 1 ? CHAFA_CANVAS_MODE_INDEXED_240 : CHAFA_CANVAS_MODE_INDEXED_16);
    if (mode == 0) {
        // Blocks and half blocks: the symbols every terminal font has.
        ChafaSymbolMap *symbols = chafa_symbol_map_new();
        chafa_symbol_map_add_by_tags(symbols, CHAFA_SYMBOL_TAG_BLOCK | CHAFA_SYMBOL_TAG_SPACE);
        chafa_canvas_config_set_symbol_map(config, symbols);
        chafa_symbol_map_unref(symbols);
    }
    ChafaCanvas *canvas = chafa_canvas_new(config);
    chafa_canvas_draw_all_pixels(canvas, CHAFA_PIXEL_RGBA8_UNASSOCIATED, pixels, width, height, width * 4);
    GString *text = chafa_canvas_print(canvas, info);
    chafa_canvas_unref(canvas);
    chafa_canvas_config_unref(config);
    chafa_term_info_unref(info);
    *used_columns = w;
    *used_rows = h;
    return text ? g_string_free(text, FALSE) : NULL;
}

#endif
