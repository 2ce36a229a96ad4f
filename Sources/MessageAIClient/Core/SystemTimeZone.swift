import Foundation
import MessageAIAssistant

/// The zone this machine's clock is shown in, found the way the C library finds it: `TZ`
/// first (an IANA name, or a POSIX rule such as `UTC-9` sent as its offset), then the
/// `/etc/localtime` link, then `/etc/timezone` (Debian), else UTC. Read once: a running
/// process keeps the zone it started with, as `date` and the message times do.
public struct SystemTimeZone: Equatable, Sendable {
    /// An IANA name or "+09:00", as the profile carries it.
    public var name: String
    /// Where it came from, for /tz: "TZ", "/etc/localtime", "/etc/timezone", "default".
    public var source: String
    /// Set when TZ held something that is not a zone (then UTC, as the C library does).
    public var problem: String?

    public static let current = detect(environment: ProcessInfo.processInfo.environment,
                                       localtimeLink: try? FileManager.default.destinationOfSymbolicLink(atPath: "/etc/localtime"),
                                       timezoneFile: try? String(contentsOfFile: "/etc/timezone", encoding: .utf8))

    /// Pure: the caller reads the environment and the files.
    public static func detect(environment: [String: String], localtimeLink: String?, timezoneFile: String?) -> SystemTimeZone {
        if let tz = environment["TZ"] {
            // An empty TZ is UTC for the C library; so it is here.
            if tz.isEmpty { return SystemTimeZone(name: "UTC", source: "TZ") }
            if let name = TimeZoneName.fromTZ(tz) { return SystemTimeZone(name: name, source: "TZ") }
            return SystemTimeZone(name: "UTC", source: "TZ", problem: "TZ=\(String(tz.prefix(64))) is not a time zone")
        }
        if let link = localtimeLink, let r = link.range(of: "zoneinfo/") {
            let name = String(link[r.upperBound...])
            if TimeZoneName.isValid(name) { return SystemTimeZone(name: name, source: "/etc/localtime") }
        }
        if let file = timezoneFile?.trimmingCharacters(in: .whitespacesAndNewlines), TimeZoneName.isValid(file) {
            return SystemTimeZone(name: file, source: "/etc/timezone")
        }
        return SystemTimeZone(name: "UTC", source: "default")
    }
}
