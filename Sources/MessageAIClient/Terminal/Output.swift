import Foundation

/// Where results and events go: plain lines, or with --json one JSON object per line (each
/// with a "type"). Errors go to stderr; in JSON mode also to stdout as type "error".
/// The REPL replaces `write` so text appears above the line being typed. Main queue only.
public final class Output {
    public enum Stream { case out, err }

    public let json: Bool
    /// Writes complete lines (each ending in "\n").
    public var write: (String, Stream) -> Void = Output.plainWrite

    /// Colour in plain lines (`--color`); set once at start.
    public var colour = false

    public init(json: Bool) { self.json = json }

    /// An event whose plain line is made of parts, each sanitised on its own and coloured
    /// (an SGR code from `Palette`) when colour is on.
    public func emit(_ type: String, _ fields: [String: Any], styled parts: [(String, String?)]) {
        guard !json else { emit(type, fields, plain: nil); return }
        let line = parts.map { text, sgr -> String in
            let safe = text.split(separator: "\n", omittingEmptySubsequences: false).map { Output.printable(String($0)) }
                .joined(separator: "\n")
            guard colour, let sgr, !safe.isEmpty else { return safe }
            return "\u{1B}[\(sgr)m" + safe.replacingOccurrences(of: "\n", with: "\u{1B}[0m\n\u{1B}[\(sgr)m") + "\u{1B}[0m"
        }.joined()
        write(line + "\n", .out)
    }

    /// An event or result. `plain` nil: nothing in plain mode.
    public func emit(_ type: String, _ fields: [String: Any] = [:], plain: String?) {
        if json {
            var obj = fields
            obj["type"] = type
            write(Output.encode(obj) + "\n", .out)
        } else if let plain {
            // Every plain line may carry other people's text (names, messages): sanitise here once.
            write(plain.split(separator: "\n", omittingEmptySubsequences: false).map { Output.printable(String($0)) }
                .joined(separator: "\n") + "\n", .out)
        }
    }

    /// A line for people only (help text, hints); JSON mode gets it as a notice.
    public func say(_ text: String) {
        emit("notice", ["text": text], plain: text)
    }

    public func error(command: String, _ e: ClientError) {
        let prefix = command.isEmpty ? "" : "\(command): "
        if json {
            write(Output.encode(["type": "error", "command": command, "code": e.code, "message": e.message]) + "\n", .out)
        }
        write(Output.printable("error: \(prefix)\(e.message)") + "\n", .err)
    }

    static func encode(_ obj: [String: Any]) -> String {
        guard let data = try? JSONSerialization.data(withJSONObject: obj, options: [.sortedKeys, .withoutEscapingSlashes]),
              let s = String(data: data, encoding: .utf8) else {
            return #"{"type":"error","code":"internal","message":"unencodable event"}"#
        }
        return s
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
            Output.clockFormat = Output.formatter(newValue.lowercased() == "off" ? "HH:mm" : newValue)
        }
    }
    private static var clockPattern = "HH:mm"

    /// One formatter each for the life of the process (or until the pattern changes): building
    /// one per printed line is wasted work on a long history. Main queue only, like all output.
    private static var clockFormat = formatter("HH:mm")
    private static let dayFormat = formatter("yyyy-MM-dd")

    private static func formatter(_ pattern: String) -> DateFormatter {
        let f = DateFormatter()
        f.dateFormat = pattern
        return f
    }

    /// The time in the `timestamps` pattern (HH:MM by default), local time; "" when off.
    static func clock(_ ms: UInt64) -> String {
        if clockPattern.lowercased() == "off" { return "" }
        return clockFormat.string(from: Date(timeIntervalSince1970: Double(ms) / 1000))
    }

    /// In a fixed pattern, whatever the setting (last seen in /profile).
    static func clock(_ ms: UInt64, pattern: String) -> String {
        fixedFormats[pattern, default: formatter(pattern)].string(from: Date(timeIntervalSince1970: Double(ms) / 1000))
    }
    private static let fixedFormats = ["HH:mm": formatter("HH:mm")]

    /// The time and a space, or nothing when times are off (so lines keep single spaces).
    static func clock(_ ms: UInt64, trailingSpace: Bool) -> String {
        let t = clock(ms)
        return t.isEmpty || !trailingSpace ? t : t + " "
    }

    /// YYYY-MM-DD in local time, for date separators.
    static func day(_ ms: UInt64) -> String {
        dayFormat.string(from: Date(timeIntervalSince1970: Double(ms) / 1000))
    }

    public static func nowMs() -> UInt64 { UInt64(Date().timeIntervalSince1970 * 1000) }
}
