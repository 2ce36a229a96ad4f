import Foundation
import MessageAIAssistant

/// One client setting: its key in the config file and in /set, its help, how a value is
/// checked, and the `ClientConfiguration` field it sets. A new setting is one row in
/// `Settings.table`, made with one of the constructors below.
public struct SettingSpec {
    public let key: String
    public let help: String
    /// What /set KEY without a value, and a bad value's error, say is allowed.
    public let allowed: String
    /// The value normalised ("yes" -> "on"), or nil when it is not allowed.
    let normalise: (String) -> String?
    let apply: (inout ClientConfiguration, String) -> Void
    let read: (ClientConfiguration) -> String

    /// on/off (also true/false, yes/no, 1/0).
    static func flag(_ key: String, _ path: WritableKeyPath<ClientConfiguration, Bool>, _ help: String) -> SettingSpec {
        SettingSpec(key: key, help: help, allowed: "on or off",
                    normalise: { v in
                        switch v.lowercased() {
                        case "on", "true", "yes", "1": return "on"
                        case "off", "false", "no", "0": return "off"
                        default: return nil
                        }
                    },
                    apply: { c, v in c[keyPath: path] = v == "on" },
                    read: { $0[keyPath: path] ? "on" : "off" })
    }

    static func number(_ key: String, _ path: WritableKeyPath<ClientConfiguration, Int>, _ range: ClosedRange<Int>,
                       _ help: String) -> SettingSpec {
        SettingSpec(key: key, help: help, allowed: "a whole number from \(range.lowerBound) to \(range.upperBound)",
                    normalise: { v in Int(v).flatMap { range.contains($0) ? String($0) : nil } },
                    apply: { c, v in c[keyPath: path] = Int(v) ?? c[keyPath: path] },
                    read: { String($0[keyPath: path]) })
    }

    static func choice<T: RawRepresentable & CaseIterable>(_ key: String, _ path: WritableKeyPath<ClientConfiguration, T>,
                                                           _ help: String) -> SettingSpec where T.RawValue == String {
        let names = T.allCases.map(\.rawValue)
        return SettingSpec(key: key, help: help, allowed: names.joined(separator: ", "),
                           normalise: { v in names.contains(v.lowercased()) ? v.lowercased() : nil },
                           apply: { c, v in if let t = T(rawValue: v) { c[keyPath: path] = t } },
                           read: { $0[keyPath: path].rawValue })
    }

    /// Free text; `check` returns an error message for a bad value. Empty means "none".
    static func text(_ key: String, _ path: WritableKeyPath<ClientConfiguration, String>, _ allowed: String, _ help: String,
                     check: @escaping (String) -> Bool = { _ in true }) -> SettingSpec {
        SettingSpec(key: key, help: help, allowed: allowed,
                    normalise: { v in check(v) ? v : nil },
                    apply: { c, v in c[keyPath: path] = v },
                    read: { $0[keyPath: path] })
    }
}

/// The settings `/set` lists and the config file holds, in the order they are listed.
public enum Settings {
    public static let table: [SettingSpec] = [
        .choice("colour", \.color, "colour usernames, own messages and mentions (auto: on a terminal, NO_COLOR unset)"),
        .flag("verbose", \.verbose, "print every state change of a sent message (sending, sent, delivered, read) as a line"),
        .number("recap", \.openHistory, 0...500, "messages of a conversation shown when /open, /dm or /next makes it current (0: none)"),
        .flag("bell", \.bell, "ring the terminal bell for a message in another conversation (not muted ones)"),
        .text("notify", \.notifyText, "a program name or path, empty for none",
              "program run with a notification's text as its one argument, e.g. notify-send (not for muted conversations)"),
        .text("timestamps", \.timestampFormat, "a date pattern such as HH:mm, HH:mm:ss or h:mm a, or off",
              "how message times are shown (Unicode date pattern; off: no times)", check: TimestampFormat.isValid),
        .choice("preview", \.preview, "images in the terminal: on (kitty graphics, iTerm2 or sixels where the terminal has them, else block art), blocks (always block art), off"),
        .flag("catchup", \.catchUpAtStart, "at a terminal, show the catch-up across conversations when you come back after 6 hours without typing here"),
        .flag("callhint", \.callHint, "a dim note when a DM or a group of up to 4 goes back and forth fast on a question nobody settles: this would be quicker as a call"),
        .text("time-zone", \.timeZone, "auto, or a zone such as Asia/Tokyo or +09:00",
              "your time zone: due dates are shown in it and your profile carries it (auto: TZ, else /etc/localtime, else UTC; /tz shows it)",
              check: { $0 == "auto" || TimeZoneName.isValid($0) }),
        SettingSpec(key: "check", help: "check a draft typed at the prompt before it is sent (clarity, tone): off; warn (show why, send); confirm (hold a flagged draft, Enter sends it); auto (confirm at a terminal, off for piped input)",
                    allowed: "off, warn, confirm or auto",
                    normalise: { v in let l = v.lowercased(); return l == "auto" || DraftCheckMode(rawValue: l) != nil ? l : nil },
                    apply: { c, v in c.draftCheck = DraftCheckMode(rawValue: v) },
                    read: { $0.draftCheck?.rawValue ?? "auto" }),
    ]

    static let byKey: [String: SettingSpec] = Dictionary(table.map { ($0.key, $0) }, uniquingKeysWith: { a, _ in a })

    /// Accepts a few spellings people type for the same key.
    static let aliases = ["color": "colour", "notifications": "notify", "history": "recap", "time": "timestamps", "previews": "preview", "images": "preview", "hint": "callhint",
                          "hints": "callhint", "call": "callhint", "tz": "time-zone", "timezone": "time-zone", "time_zone": "time-zone", "zone": "time-zone"]

    public static func spec(_ key: String) -> SettingSpec? {
        let k = key.lowercased()
        return byKey[aliases[k] ?? k]
    }
}

/// Timestamp patterns: DateFormatter takes anything, so the check is that the pattern shows
/// some part of a time and has no characters that would break a line.
enum TimestampFormat {
    static func isValid(_ pattern: String) -> Bool {
        if pattern.lowercased() == "off" { return true }
        guard !pattern.isEmpty, pattern.count <= 32, !pattern.contains(where: { $0.isNewline || $0 == "\u{1B}" }) else { return false }
        return pattern.contains { "HhKkmsEdMy".contains($0) }
    }
}
