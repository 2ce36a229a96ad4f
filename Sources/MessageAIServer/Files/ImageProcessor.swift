import CVips
import Foundation

/// Images through libvips (Debian's libvips-dev): chosen because it reads only the header to
/// learn the size (a pixel bomb is refused before any decoding), streams the pixels it does
/// decode, strips every kind of metadata on save, and makes thumbnails with shrink-on-load.
/// Only JPEG, PNG and WebP are treated as images; anything else is stored as it came.
/// Not thread-safe by design: the server calls it from one serial queue.
enum ImageProcessor {
    struct Header { let width: Int; let height: Int; let orientation: Int; let format: Format }

    enum Format: String {
        case jpeg, png, webp
        var mediaType: String { "image/\(rawValue)" }
        var suffix: String { self == .jpeg ? ".jpg" : "." + rawValue }
    }

    struct VipsFailure: Error, CustomStringConvertible { let description: String }

    /// The thumbnail's longer side, in pixels.
    static let thumbnailSize: Int32 = 320

    private static let ready: Bool = messageai_vips_init() == 0

    /// The header of an image libvips recognises by content, or nil when the file is no image
    /// (or only a start of one whose header is not there yet).
    static func header(path: String) -> Header? {
        guard ready, let loader = messageai_vips_loader(path).map({ String(cString: $0) }) else { return nil }
        // The loader's class name, such as "VipsForeignLoadPngFile".
        let name = loader.lowercased()
        let format: Format
        if name.contains("jpeg") { format = .jpeg } else if name.contains("png") { format = .png } else if name.contains("webp") {
            format = .webp
        } else {
            return nil
        }
        var w: Int32 = 0, h: Int32 = 0, o: Int32 = 1
        guard messageai_vips_header(path, &w, &h, &o) == 0 else { messageai_vips_error_clear(); return nil }
        return Header(width: Int(w), height: Int(h), orientation: Int(o), format: format)
    }

    /// Writes `input` upright and without metadata to `output` (its suffix picks the format).
    static func clean(_ input: String, to output: String) throws {
        guard messageai_vips_clean(input, output) == 0 else { throw failure() }
    }

    /// A JPEG thumbnail of `path`, upright, without metadata.
    static func thumbnail(_ path: String) throws -> [UInt8] {
        try jpeg { messageai_vips_thumbnail(path, thumbnailSize, &$0, &$1) }
    }

    /// The side of an avatar, in pixels: sharp at twice the size a terminal or list shows it.
    static let avatarSize: Int32 = 128

    /// A square JPEG avatar of `path` (centre crop), upright, without metadata.
    static func avatar(_ path: String) throws -> [UInt8] {
        try jpeg { messageai_vips_avatar(path, avatarSize, &$0, &$1) }
    }

    /// The bytes of a JPEG the shim wrote into a buffer of its own (freed here).
    private static func jpeg(_ make: (inout UnsafeMutableRawPointer?, inout Int) -> Int32) throws -> [UInt8] {
        var buffer: UnsafeMutableRawPointer?
        var length = 0
        guard make(&buffer, &length) == 0, let buffer else { throw failure() }
        defer { messageai_vips_free(buffer) }
        return Array(UnsafeRawBufferPointer(start: buffer, count: length))
    }

    private static func failure() -> VipsFailure {
        let text = messageai_vips_error().map { String(cString: $0) } ?? "unknown libvips error"
        messageai_vips_error_clear()
        return VipsFailure(description: text.trimmingCharacters(in: .whitespacesAndNewlines))
    }
}
