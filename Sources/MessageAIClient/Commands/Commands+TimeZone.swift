import Foundation
import MessageAIAssistant

/// /tz: the user's time zone, in which due dates are shown and which the profile carries.
/// The same value as `/set time-zone`, with a line that says where it came from.
enum TimeZoneCommands {
    static let specs: [CommandSpec] = [
        CommandSpec("/tz", "/tz [ZONE|auto]",
                    "show your time zone, or choose one (Asia/Tokyo, +09:00, UTC-9 as in TZ); auto follows TZ and the system",
                    login: false, args: 0...1, run: tz),
    ]

    static func tz(_ inv: Invocation) {
        let c = inv.client
        guard let given = inv.args.first else { show(inv); return }
        // What TZ takes is taken here too: "UTC-9" is the offset it means.
        let value = given.lowercased() == "auto" ? "auto" : (TimeZoneName.fromTZ(given) ?? given)
        guard value == "auto" || TimeZoneName.isValid(value) else {
            inv.fail("invalid_argument", "'\(String(given.prefix(64)))' is not a time zone: give an IANA name such as Asia/Tokyo or "
                     + "America/Los_Angeles, an offset such as +09:00, or auto")
            return
        }
        switch c.changeSetting(Settings.spec("time-zone")!, to: value) {
        case .failure(let e): inv.fail(e)
        case .success: show(inv)
        }
    }

    static func show(_ inv: Invocation) {
        let c = inv.client
        let zone = c.timeZoneName
        let system = SystemTimeZone.current
        let chosen = c.config.timeZone != "auto"
        let source = chosen ? "chosen with /tz; /tz auto follows the system (\(system.name))" : "from \(system.source); /tz ZONE chooses another"
        let now = UInt64(Date().timeIntervalSince1970 * 1000)
        let profile = c.sentTimeZone == zone ? "on your profile" : (c.authenticated ? "being sent to your profile" : "sent to your profile when online")
        var fields: [String: Any] = ["time_zone": zone, "source": chosen ? "setting" : system.source, "auto": !chosen,
                                     "now": DueTimes.iso(at: now, zone: zone), "on_profile": c.sentTimeZone == zone]
        if let problem = system.problem { fields["problem"] = problem }
        var plain = "time zone \(zone) (\(source)), now \(DueTimes.describe(at: now, timeZone: zone, readerZone: zone)), \(profile)"
        if let problem = system.problem, !chosen { plain += "\nnote: \(problem); UTC is used" }
        inv.succeed("time_zone", fields, plain: plain)
    }
}
