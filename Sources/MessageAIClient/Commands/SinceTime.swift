import Foundation

/// The TIME of `/summary since TIME`, as milliseconds since the epoch (server times are in ms):
/// a clock time today ("09:00", yesterday's when today's is still ahead), "today", "yesterday",
/// a span back from now ("2h", "90m", "3d", "1w"), an ISO date ("2026-11-20", local midnight) or
/// an ISO date and time ("2026-11-20T09:00", "2026-11-20T09:00:00Z").
enum SinceTime {
    static func parse(_ text: String, now: Date = Date(), calendar: Calendar = .current) -> UInt64? {
        let s = text.trimmingCharacters(in: .whitespaces).lowercased()
        func ms(_ d: Date) -> UInt64? { d.timeIntervalSince1970 >= 0 ? UInt64(d.timeIntervalSince1970 * 1000) : nil }
        let today = calendar.startOfDay(for: now)
        switch s {
        case "today": return ms(today)
        case "yesterday": return calendar.date(byAdding: .day, value: -1, to: today).flatMap(ms)
        default: break
        }
        if let span = span(s) { return ms(now.addingTimeInterval(-span)) }
        if let (h, m) = clock(s) {
            guard var d = calendar.date(bySettingHour: h, minute: m, second: 0, of: now) else { return nil }
            if d > now { d = calendar.date(byAdding: .day, value: -1, to: d) ?? d }
            return ms(d)
        }
        return iso(text.trimmingCharacters(in: .whitespaces), calendar: calendar).flatMap(ms)
    }

    /// "2h", "90m", "3d", "1w", "45min": seconds back from now.
    static func span(_ s: String) -> TimeInterval? {
        let digits = s.prefix { $0.isNumber }
        guard let n = Double(digits), n > 0 else { return nil }
        let units: [String: TimeInterval] = ["m": 60, "min": 60, "mins": 60, "h": 3600, "hr": 3600, "hrs": 3600, "d": 86400, "w": 604800]
        return units[String(s.dropFirst(digits.count))].map { n * $0 }
    }

    /// "09:00", "9:30": hour and minute.
    static func clock(_ s: String) -> (Int, Int)? {
        let parts = s.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[1].count == 2, let h = Int(parts[0]), let m = Int(parts[1]), (0..<24).contains(h), (0..<60).contains(m) else { return nil }
        return (h, m)
    }

    static func iso(_ s: String, calendar: Calendar) -> Date? {
        let full = ISO8601DateFormatter()
        if let d = full.date(from: s) { return d }
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = calendar.timeZone
        for format in ["yyyy-MM-dd'T'HH:mm:ss", "yyyy-MM-dd'T'HH:mm", "yyyy-MM-dd HH:mm", "yyyy-MM-dd"] {
            f.dateFormat = format
            if let d = f.date(from: s) { return d }
        }
        return nil
    }
}
