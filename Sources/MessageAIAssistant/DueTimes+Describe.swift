import Foundation

/// How a resolved due date reads to someone: in the zone it was meant in, and in the reader's
/// own when that shows another wall-clock time. English names and a 24-hour clock, whatever the
/// locale, like the rest of the client's lines.
extension DueTimes {
    /// "Fri 27 Nov 17:00 (Tokyo) = Fri 01:00 here"; "Fri 27 Nov 17:00" when the reader's zone
    /// shows the same time. An unknown zone reads as UTC.
    public static func describe(at: UInt64, timeZone: String, readerZone: String) -> String {
        let date = Date(timeIntervalSince1970: Double(at) / 1000)
        let meant = TimeZoneName.zone(timeZone) ?? TimeZone(identifier: "UTC")!
        let reader = TimeZoneName.zone(readerZone) ?? TimeZone(identifier: "UTC")!
        let there = format(date, in: meant, withDate: true)
        if meant.secondsFromGMT(for: date) == reader.secondsFromGMT(for: date) { return there }
        let label = TimeZoneName.label(TimeZoneName.isValid(timeZone) ? timeZone : "UTC")
        return "\(there) (\(label)) = \(format(date, in: reader, withDate: !sameDay(date, meant, reader))) here"
    }

    /// The reader's side as fields for `--json`: the instant in ISO 8601 with the reader's offset.
    public static func iso(at: UInt64, zone: String) -> String {
        let date = Date(timeIntervalSince1970: Double(at) / 1000)
        let z = TimeZoneName.zone(zone) ?? TimeZone(identifier: "UTC")!
        let c = calendar(z).dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        let offset = z.secondsFromGMT(for: date)
        let suffix = offset == 0 ? "Z" : TimeZoneName.offsetName(seconds: offset)
        return String(format: "%04d-%02d-%02dT%02d:%02d:%02d", c.year!, c.month!, c.day!, c.hour!, c.minute!, c.second!) + suffix
    }

    /// "Fri 09:00": a wall clock in a zone, for "their time" beside a profile.
    public static func clock(at: UInt64, zone: String) -> String {
        format(Date(timeIntervalSince1970: Double(at) / 1000), in: TimeZoneName.zone(zone) ?? TimeZone(identifier: "UTC")!, withDate: false)
    }

    static let dayNames = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    static let monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// "Fri 27 Nov 17:00", or "Fri 17:00" without the date.
    static func format(_ date: Date, in zone: TimeZone, withDate: Bool) -> String {
        let c = calendar(zone).dateComponents([.weekday, .day, .month, .hour, .minute], from: date)
        let clock = String(format: "%02d:%02d", c.hour!, c.minute!)
        let day = dayNames[c.weekday! - 1]
        return withDate ? "\(day) \(c.day!) \(monthNames[c.month! - 1]) \(clock)" : "\(day) \(clock)"
    }

    /// Whether the instant falls on the same calendar day in both zones: then the reader's side
    /// needs only the weekday ("= Fri 09:00 here"), else the date too.
    static func sameDay(_ date: Date, _ a: TimeZone, _ b: TimeZone) -> Bool {
        calendar(a).dateComponents([.month, .day], from: date) == calendar(b).dateComponents([.month, .day], from: date)
    }
}
