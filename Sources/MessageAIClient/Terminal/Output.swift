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
    /// The REPL's terminal width, asked at each line (a resize changes it): lines wrap there
    /// between words. Nil (scripts, pipes): lines as they are.
    public var width: () -> Int? = { nil }

    public init(json: Bool) { self.json = json }

    /// The renderer for stdout.
    public var renderer: EventRenderer { json ? JSONLinesRenderer() : TerminalRenderer(colour: colour, width: width()) }

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

    /// Terminal output that `ImagePreview` made from pixels (escape sequences and block
    /// characters, ending in a newline): written as is, above the prompt, never in JSON mode.
    /// It holds nobody's text, which is why it may skip the renderer's sanitising.
    public func drawImage(_ art: String) {
        guard !json, !art.isEmpty else { return }
        write(art, .out)
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

    /// The `timestamps` setting: a date pattern, or "off" for none. Main queue only.
    public var timestampFormat: String {
        get { Output.clockPattern }
        set {
            guard newValue != Output.clockPattern else { return }
            Output.clockPattern = newValue
            let custom = newValue.lowercased() != "off" && newValue != "HH:mm"
            Output.clockFormat = custom ? Output.formatter(newValue) : nil
        }
    }
    private static var clockPattern = "HH:mm"
    /// The formatter of a custom pattern, made once per pattern (not per printed line); nil for
    /// the default HH:mm, which `LocalClock` writes directly.
    private static var clockFormat: DateFormatter?

    private static func formatter(_ pattern: String) -> DateFormatter {
        let f = DateFormatter()
        f.dateFormat = pattern
        return f
    }

    /// The time in the `timestamps` pattern (HH:MM by default), local time as TZ says; "" when off.
    static func clock(_ ms: UInt64) -> String {
        if clockPattern.lowercased() == "off" { return "" }
        guard let f = clockFormat else { return LocalClock.clock(ms) }
        return formatted(ms, f)
    }

    /// In a fixed pattern, whatever the setting (last seen in /profile).
    static func clock(_ ms: UInt64, pattern: String) -> String {
        pattern == "HH:mm" ? LocalClock.clock(ms) : formatted(ms, formatter(pattern))
    }

    /// A custom pattern in the zone's offset as the C library reads TZ at that instant
    /// (Foundation reads POSIX zones such as TZ=UTC-9 with the wrong sign).
    private static func formatted(_ ms: UInt64, _ f: DateFormatter) -> String {
        f.timeZone = TimeZone(secondsFromGMT: Int(LocalClock.local(ms).tm_gmtoff))
        return f.string(from: Date(timeIntervalSince1970: Double(ms) / 1000))
    }

    /// The time and a space, or nothing when times are off (so lines keep single spaces).
    static func clock(_ ms: UInt64, trailingSpace: Bool) -> String {
        let t = clock(ms)
        return t.isEmpty || !trailingSpace ? t : t + " "
    }

    /// YYYY-MM-DD in local time, for date separators.
    static func day(_ ms: UInt64) -> String { LocalClock.day(ms) }

    public static func nowMs() -> UInt64 { UInt64(Date().timeIntervalSince1970 * 1000) }
}
