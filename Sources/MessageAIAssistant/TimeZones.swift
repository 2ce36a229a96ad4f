import Foundation

/// A user's time zone as the profile carries it: an IANA name ("Asia/Tokyo") or a fixed offset
/// written "+09:00" / "-05:30" (east of UTC positive, as in ISO 8601). A POSIX `TZ` with no
/// name in the database ("UTC-9", "JST-9": POSIX writes west as positive) becomes the offset it
/// means. Pure: no clock, no environment (the client's detection reads those and calls here).
public enum TimeZoneName {
    /// Longest name accepted (the longest IANA name is 32 characters).
    public static let maxLength = 64

    /// The zone named `name`, or nil when it is not an IANA name or an offset of -12:00 to
    /// +14:00. Abbreviations ("PST", "CET") are refused: the same letters name different
    /// zones in different places, and they say nothing about summer time.
    public static func zone(_ name: String) -> TimeZone? {
        guard !name.isEmpty, name.count <= maxLength else { return nil }
        if let seconds = offsetSeconds(name) { return TimeZone(secondsFromGMT: seconds) }
        if utcNames.contains(name) { return TimeZone(identifier: "UTC") }
        // Region/City names; aliases such as "US/Pacific" or "Etc/GMT-9" are in the database too.
        guard name.contains("/") || known.contains(name), name.unicodeScalars.allSatisfy({ $0.isASCII && $0.value > 0x20 }),
              let z = TimeZone(identifier: name) else { return nil }
        return z
    }

    public static func isValid(_ name: String) -> Bool { zone(name) != nil }

    static let utcNames: Set<String> = ["UTC", "Etc/UTC", "GMT", "Etc/GMT", "Etc/Universal", "Universal", "Zulu", "Etc/Zulu"]
    static let known = Set(TimeZone.knownTimeZoneIdentifiers)

    /// "+09:00" → 32400; nil for anything else.
    static func offsetSeconds(_ s: String) -> Int? {
        let u = Array(s.utf8)
        guard u.count == 6, u[0] == 0x2B || u[0] == 0x2D, u[3] == 0x3A,
              let h = Int(String(decoding: u[1...2], as: UTF8.self)), let m = Int(String(decoding: u[4...5], as: UTF8.self)),
              u[1...2].allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), u[4...5].allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), m < 60 else { return nil }
        let seconds = (h * 3600 + m * 60) * (u[0] == 0x2D ? -1 : 1)
        return (-12 * 3600...14 * 3600).contains(seconds) ? seconds : nil
    }

    /// The profile's name for a fixed offset: "+09:00".
    public static func offsetName(seconds: Int) -> String {
        let a = abs(seconds) / 60
        return (seconds < 0 ? "-" : "+") + String(format: "%02d:%02d", a / 60, a % 60)
    }

    /// The name to send for a `TZ` value (without its leading ":"): itself when it is a name of
    /// the database, else a POSIX rule without summer time ("UTC-9", "JST-9", "<+0530>-5:30")
    /// as its fixed offset; nil when neither (a rule with summer time but no name is not guessed).
    public static func fromTZ(_ raw: String) -> String? {
        var tz = raw.trimmingCharacters(in: .whitespaces)
        if tz.hasPrefix(":") { tz.removeFirst() }
        if tz.hasPrefix("/") {  // TZ=/usr/share/zoneinfo/Asia/Tokyo
            guard let r = tz.range(of: "zoneinfo/") else { return nil }
            tz = String(tz[r.upperBound...])
        }
        if isValid(tz) { return tz }
        return posixOffset(tz).map { offsetName(seconds: $0) }
    }

    /// "UTC-9" → +32400 (POSIX counts hours west of UTC); "<+0530>-5:30" → +19800.
    static func posixOffset(_ s: String) -> Int? {
        var rest = Substring(s)
        if rest.hasPrefix("<") {
            guard let close = rest.firstIndex(of: ">") else { return nil }
            rest = rest[rest.index(after: close)...]
        } else {
            let letters = rest.prefix { $0.isASCII && $0.isLetter }
            guard letters.count >= 3 else { return nil }
            rest = rest.dropFirst(letters.count)
        }
        var sign = 1
        if rest.first == "+" || rest.first == "-" { sign = rest.first == "-" ? -1 : 1; rest = rest.dropFirst() }
        let parts = rest.split(separator: ":", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count), parts.allSatisfy({ !$0.isEmpty && $0.count <= 2 && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
              let h = Int(parts[0]), h <= 24 else { return nil }
        let m = parts.count > 1 ? Int(parts[1]) ?? 0 : 0
        let west = (h * 3600 + m * 60) * sign
        let east = -west
        return (-12 * 3600...14 * 3600).contains(east) ? east : nil
    }

    /// How a zone is named beside a time: the city of an IANA name ("Tokyo", "Los Angeles"),
    /// "UTC", or the offset ("UTC+09:00").
    public static func label(_ name: String) -> String {
        if name.isEmpty || utcNames.contains(name) { return "UTC" }
        if offsetSeconds(name) != nil { return "UTC" + name }
        // "Etc/GMT-9" is UTC+9 (POSIX signs): name it by its offset, never by its letters.
        if name.hasPrefix("Etc/"), let z = zone(name) { return "UTC" + offsetName(seconds: z.secondsFromGMT()) }
        guard let city = name.split(separator: "/").last else { return name }
        return city.replacingOccurrences(of: "_", with: " ")
    }
}
