#ifndef MESSAGEAI_CVIPS_SHIM_H
#define MESSAGEAI_CVIPS_SHIM_H
// libvips 8.14 (Debian's libvips-dev). Its API is varargs (option lists ending in NULL), which
// Swift cannot call: each operation the server uses is wrapped here in a fixed signature.
// Every wrapper returns 0 on success, -1 on failure (the message is in vips_error_buffer()).
#include <vips/vips.h>
#include <string.h>

/// Once per process. One worker thread and no operation cache: the server processes one image
/// at a time off its hub, and the cache would keep decoded images alive after use.
static inline int messageai_vips_init(void) {
    if (VIPS_INIT("messageai-server")) return -1;
    vips_concurrency_set(1);
    vips_cache_set_max(0);
    vips_cache_set_max_mem(0);
    return 0;
}

/// The loader libvips would use for the file ("jpegload", "pngload" ...), or NULL when it is
/// not an image libvips reads. Looks at the content, not the name.
static inline const char *messageai_vips_loader(const char *path) {
    const char *name = vips_foreign_find_load(path);
    vips_error_clear();
    return name;
}

/// Reads only the header: width, height and EXIF orientation (1 when absent). Decodes no pixels,
/// so a 30,000 x 30,000 PNG costs nothing here.
static inline int messageai_vips_header(const char *path, int *width, int *height, int *orientation) {
    VipsImage *image = vips_image_new_from_file(path, "access", VIPS_ACCESS_SEQUENTIAL, NULL);
    if (!image) return -1;
    *width = vips_image_get_width(image);
    *height = vips_image_get_height(image);
    *orientation = vips_image_get_orientation(image);
    g_object_unref(image);
    return 0;
}

/// Writes `in` to `out` upright (the EXIF orientation applied to the pixels) and without any
/// metadata: EXIF (GPS included), XMP, IPTC and ICC are gone. The format follows `out`'s suffix.
static inline int messageai_vips_clean(const char *in, const char *out) {
    VipsImage *image = vips_image_new_from_file(in, "fail_on", VIPS_FAIL_ON_ERROR, NULL);
    if (!image) return -1;
    VipsImage *upright = NULL;
    if (vips_autorot(image, &upright, NULL)) { g_object_unref(image); return -1; }
    g_object_unref(image);
    int result = vips_image_write_to_file(upright, out, "strip", TRUE, NULL);
    g_object_unref(upright);
    return result;
}

/// `image` as a JPEG of quality `quality` without metadata, flattened on white first (JPEG has
/// no alpha: transparent parts become white, as image viewers show them). Takes `image`'s
/// reference; the buffer is freed with messageai_vips_free.
static inline int messageai_vips_jpeg_flat(VipsImage *image, int quality, void **buffer, size_t *length) {
    VipsImage *flat = image;
    if (vips_image_hasalpha(image)) {
        double white[1] = {255};
        VipsArrayDouble *background = vips_array_double_new(white, 1);
        int failed = vips_flatten(image, &flat, "background", background, NULL);
        vips_area_unref(VIPS_AREA(background));
        g_object_unref(image);
        if (failed) return -1;
    }
    int result = vips_jpegsave_buffer(flat, buffer, length, "Q", quality, "strip", TRUE, NULL);
    g_object_unref(flat);
    return result;
}

/// A JPEG at most `size` pixels on its longer side, upright, without metadata. The buffer is
/// freed with messageai_vips_free.
static inline int messageai_vips_thumbnail(const char *in, int size, void **buffer, size_t *length) {
    VipsImage *thumb = NULL;
    if (vips_thumbnail(in, &thumb, size, "size", VIPS_SIZE_DOWN, NULL)) return -1;
    return messageai_vips_jpeg_flat(thumb, 70, buffer, length);
}

/// A `size` x `size` JPEG for an avatar: shrunk on load, cut to a square around the centre,
/// upright, flattened on white, without metadata. Freed with messageai_vips_free.
static inline int messageai_vips_avatar(const char *in, int size, void **buffer, size_t *length) {
    VipsImage *thumb = NULL;
    if (vips_thumbnail(in, &thumb, size, "height", size, "crop", VIPS_INTERESTING_CENTRE, NULL)) return -1;
    return messageai_vips_jpeg_flat(thumb, 80, buffer, length);
}

static inline void messageai_vips_free(void *buffer) { g_free(buffer); }

/// The last error as text, and clears it.
static inline const char *messageai_vips_error(void) { return vips_error_buffer(); }
static inline void messageai_vips_error_clear(void) { vips_error_clear(); }

#endif
