import Foundation

/// Colours for message lines: each username a colour of its own (the same in every session:
/// a hash of the name), one's own messages grey, a message that mentions oneself bold yellow.
/// Only SGR colour codes from this table ever reach the terminal; text stays sanitised.
public enum Palette {
    /// `--color`: never, always, or auto (a terminal on stdout, `NO_COLOR` unset, not --json).
    public enum Mode: String, CaseIterable { case never, auto, always }

    public static func enabled(_ mode: Mode, json: Bool, environment: [String: String] = ProcessInfo.processInfo.environment) -> Bool {
        switch mode {
        case .never: return false
        case .always: return !json
        case .auto: return !json && isatty(1) == 1 && (environment["NO_COLOR"] ?? "").isEmpty
        }
    }

    static let own = "90"
    static let mention = "1;33"
    /// Faint: an aside that should not compete with the messages.
    static let note = "2"
    /// Red, green, yellow, blue, magenta, cyan and their bright forms, minus those used above.
    private static let userColours = ["31", "32", "34", "35", "36", "91", "92", "94", "95", "96"]

    /// The SGR code for a segment's tint.
    static func code(_ tint: Segment.Tint) -> String {
        switch tint {
        case .own: return own
        case .mention: return mention
        case .user(let name): return user(name)
        case .note: return note
        }
    }

    /// FNV-1a of the lowercased name: stable across runs (Swift's hashValue is seeded per process).
    static func user(_ name: String) -> String {
        var h: UInt32 = 2_166_136_261
        for b in name.lowercased().utf8 { h = (h ^ UInt32(b)) &* 16_777_619 }
        return userColours[Int(h % UInt32(userColours.count))]
    }
}
