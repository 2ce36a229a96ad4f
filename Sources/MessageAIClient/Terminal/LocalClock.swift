import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Local times for printed lines, from the C library's `localtime_r`, which reads `TZ` the way
/// `date` does: zone names (`Asia/Tokyo`, `:Europe/Paris`) and POSIX rules (`UTC-9`, `JST-9`,
/// `<+0530>-5:30`, `EST5EDT`). Foundation's TimeZone reads `TZ=UTC-9` as nine hours *behind*
/// UTC and its DateFormatter ignored the POSIX forms altogether, so times did not follow TZ.
/// No formatter object either: two numbers padded per line, nothing built per line.
enum LocalClock {
    /// Reads TZ once, before the first conversion (localtime_r itself need not).
    private static let zoneRead: Void = tzset()

    static func local(_ ms: UInt64) -> tm {
        _ = zoneRead
        var seconds = time_t(ms / 1000)
        var parts = tm()
        localtime_r(&seconds, &parts)
        return parts
    }

    /// HH:MM
    static func clock(_ ms: UInt64) -> String {
        let t = local(ms)
        return pad(t.tm_hour) + ":" + pad(t.tm_min)
    }

    /// YYYY-MM-DD
    static func day(_ ms: UInt64) -> String {
        let t = local(ms)
        return String(1900 + Int(t.tm_year)) + "-" + pad(t.tm_mon + 1) + "-" + pad(t.tm_mday)
    }

    private static func pad(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
}
