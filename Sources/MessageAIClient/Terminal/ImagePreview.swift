import CChafa
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The `preview` setting: `on` shows images the best way the terminal can (kitty graphics,
/// iTerm2 inline images, sixels, else Unicode block art), `blocks` always block art, `off` none.
public enum PreviewSetting: String, CaseIterable, Sendable {
    case on, off, blocks
}

/// Images drawn in the terminal: libvips decodes (thumbnails and, for /open, any image file),
/// libchafa picks the terminal's graphics protocol from the environment and draws.
///
/// The result is raw terminal output made here from pixels, never from anyone's text, so it
/// bypasses the sanitising `TerminalRenderer` (see `Output.drawImage`). Reusable: avatars can
/// call `render(jpeg:maxColumns:maxRows:)` with their own size.
public enum ImagePreview {
    /// How images reach this terminal.
    public enum Mode: String, Sendable {
        case kitty, iterm2, sixel, symbols, none

        var chafaMode: Int32 {
            switch self {
            case .kitty: return 3
            case .iterm2: return 2
            case .sixel: return 1
            case .symbols, .none: return 0
            }
        }
    }

    /// What `setting` means on this process's stdout: none for --json, piped output, a dumb
    /// terminal (or TERM unset); otherwise the terminal's best protocol, or block art.
    public static func mode(setting: PreviewSetting, json: Bool, environment: [String: String] = ProcessInfo.processInfo.environment,
                            stdoutIsTerminal: Bool = isatty(1) == 1) -> Mode {
        guard setting != .off, !json, stdoutIsTerminal else { return .none }
        let term = environment["TERM"] ?? ""
        guard !term.isEmpty, term != "dumb" else { return .none }
        if setting == .blocks { return .symbols }
        // tmux and screen swallow graphics sequences unless wrapped: block art works everywhere.
        let set = { (key: String) in !(environment[key] ?? "").isEmpty }
        if set("TMUX") || set("STY") || term.hasPrefix("screen") || term.hasPrefix("tmux") {
            return .symbols
        }
        // Kitty seen over ssh keeps TERM=xterm-256color; chafa 1.12's database looks only at TERM.
        if set("KITTY_WINDOW_ID") { return .kitty }
        var colours: Int32 = 0
        switch messageai_preview_detect(&colours) {
        case 3: return .kitty
        case 2: return .iterm2
        case 1: return .sixel
        default: return .symbols
        }
    }

    /// A JPEG (a message's thumbnail) as terminal output of at most `maxColumns` × `maxRows`
    /// cells, ending in a newline; nil when the image does not decode or `mode` is none.
    public static func render(jpeg: [UInt8], maxColumns: Int = 40, maxRows: Int = 12, mode: Mode) -> String? {
        guard mode != .none, !jpeg.isEmpty, ready else { return nil }
        var width: Int32 = 0, height: Int32 = 0
        var pixels: UnsafeMutableRawPointer?
        let status = jpeg.withUnsafeBytes { messageai_preview_decode_buffer($0.baseAddress, $0.count, decodeSide, &width, &height, &pixels) }
        return draw(status, pixels, width, height, maxColumns, maxRows, mode)
    }

    /// An image file (the full image /open shows) the same way; nil when it is not an image
    /// libvips reads.
    public static func render(file path: String, maxColumns: Int, maxRows: Int, mode: Mode) -> String? {
        guard mode != .none, ready else { return nil }
        var width: Int32 = 0, height: Int32 = 0
        var pixels: UnsafeMutableRawPointer?
        let status = messageai_preview_decode_file(path, decodeSide * 2, &width, &height, &pixels)
        return draw(status, pixels, width, height, maxColumns, maxRows, mode)
    }

    /// The largest side decoded: more than any cell grid here can show (40 columns of 10 px).
    static let decodeSide: Int32 = 400

    /// libvips starts once per process, on first use (a client that never shows an image
    /// never pays for it).
    static let ready: Bool = messageai_preview_init() == 0

    private static func draw(_ status: Int32, _ pixels: UnsafeMutableRawPointer?, _ width: Int32, _ height: Int32,
                             _ maxColumns: Int, _ maxRows: Int, _ mode: Mode) -> String? {
        defer { if let pixels { messageai_preview_free(pixels) } }
        guard status == 0, let pixels, width > 0, height > 0 else { messageai_preview_error_clear(); return nil }
        let cell = cellSize()
        var colours: Int32 = 0
        _ = messageai_preview_detect(&colours)
        var usedColumns: Int32 = 0, usedRows: Int32 = 0
        guard let text = messageai_preview_render(pixels, width, height, mode.chafaMode, colours,
                                                  Int32(max(1, maxColumns)), Int32(max(1, maxRows)),
                                                  cell.width, cell.height, &usedColumns, &usedRows) else { return nil }
        defer { messageai_preview_free(text) }
        return String(cString: text) + "\n"
    }

    /// The terminal's columns (for fitting a preview to its width); 80 when unknown.
    public static func terminalColumns() -> Int {
        var ws = winsize()
        guard ioctl(1, UInt(TIOCGWINSZ), &ws) == 0, ws.ws_col > 0 else { return 80 }
        return Int(ws.ws_col)
    }

    /// A character cell in pixels, as the terminal reports it; 10 × 20 when it does not (many
    /// report 0): sixels are drawn at pixel size, so this sets how big they come out.
    static func cellSize() -> (width: Int32, height: Int32) {
        var ws = winsize()
        guard ioctl(1, UInt(TIOCGWINSZ), &ws) == 0, ws.ws_col > 0, ws.ws_row > 0, ws.ws_xpixel > 0, ws.ws_ypixel > 0 else {
            return (10, 20)
        }
        return (Int32(ws.ws_xpixel / ws.ws_col), Int32(ws.ws_ypixel / ws.ws_row))
    }

    /// The thumbnail size for the terminal: at most 40 × 12 cells, never wider than the
    /// terminal less one column (a full-width line would wrap on some terminals).
    public static func thumbnailCells() -> (columns: Int, rows: Int) {
        (min(40, terminalColumns() - 1), 12)
    }

    /// A profile picture's size (a 128 px square): small, beside a name, within the terminal.
    public static func avatarCells() -> (columns: Int, rows: Int) {
        (max(1, min(16, terminalColumns() - 1)), 8)
    }

    /// The size /open uses: most of the terminal, at most 100 × 30.
    public static func fullCells() -> (columns: Int, rows: Int) {
        var ws = winsize()
        let rows = ioctl(1, UInt(TIOCGWINSZ), &ws) == 0 && ws.ws_row > 4 ? Int(ws.ws_row) - 3 : 24
        return (min(100, terminalColumns() - 1), min(30, rows))
    }
}
