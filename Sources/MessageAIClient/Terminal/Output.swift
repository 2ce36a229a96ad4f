import Foundation

/// Where events go: through `TerminalRenderer` as lines, or with --json through
/// `JSONLinesRenderer` as one JSON object per line. Errors go to stderr; in JSON mode also to
/// stdout as type "error". The REPL replaces `write` so text appears above the line being
/// typed. Main queue only.
public final class Output {
    public enum Stream { case out, err }

    public let json: Bool
    /// Writes complete lines (each ending in "\n").
    public var write: (String, Stream) -> Void = Output.plainWrite

    /// Colour in terminal lines (`--color`); set once at start.
    public var colour = false

    public init(json: Bool) { self.json = json }

    /// The renderer for stdout.
    public var renderer: EventRenderer { json ? JSONLinesRenderer() : TerminalRenderer(colour: colour) }

    public func emit(_ event: ClientEvent) {
        if let text = renderer.render(event) { write(text, .out) }
    }

    /// Old-style untyped output, kept so branches written before typed events still build;
    /// new output is a `ClientEvent`.
    public func emit(_ type: String, _ fields: [String: Any] = [:], plain: String?) {
        emit(Reply(type, fields, text: plain))
    }

    /// A line for people only (help text, hints); JSON mode gets it as a notice.
    public func say(_ text: String) {
        emit(Notice(text))
    }

    public func error(command: String, _ e: ClientError) {
        let event = ErrorEvent(command: command, e)
        if json { emit(event) }
        write(Output.printable(event.stderrLine) + "\n", .err)
    }

    static func plainWrite(_ text: String, _ stream: Stream) {
        let fd: Int32 = stream == .out ? 1 : 2
        var bytes = Array(text.utf8)
        var off = 0
        while off < bytes.count {
            let n = bytes.withUnsafeMutableBytes { Foundation.write(fd, $0.baseAddress! + off, $0.count - off) }
            if n <= 0 { if errno == EINTR || errno == EAGAIN { continue }; return }
            off += n
        }
    }

    // MARK: Formatting

    /// Text from other people made safe for a terminal: control characters (escape sequences
    /// could clear the screen or fake output) become U+FFFD. JSON output escapes them anyway.
    static func printable(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var out = String.UnicodeScalarView()
        for u in text.unicodeScalars { out.append(isControl(u) ? "\u{FFFD}" : u) }
        return String(out)
    }

    private static func isControl(_ u: Unicode.Scalar) -> Bool {
        (u.value < 0x20 && u != "\t") || (0x7F...0x9F).contains(u.value)
    }

    /// HH:MM in local time.
    static func clock(_ ms: UInt64) -> String { LocalClock.clock(ms) }

    /// YYYY-MM-DD in local time, for date separators.
    static func day(_ ms: UInt64) -> String { LocalClock.day(ms) }

    static func nowMs() -> UInt64 { UInt64(Date().timeIntervalSince1970 * 1000) }
}
