import Foundation
import MessageAIAssistant
import MessageAIProtocol

/// The user's time zone: the system's (`SystemTimeZone`) unless the `time-zone` setting (/tz)
/// names another. Due dates are shown in it, and the profile carries it: the client sends it
/// after every login or resume and when the setting changes, so a message's due date is placed
/// on the sender's calendar by the server.
extension Client {
    /// The zone due dates are shown in and the profile gets.
    public var timeZoneName: String {
        config.timeZone == "auto" ? SystemTimeZone.current.name : config.timeZone
    }

    /// Tells the server (best effort: a server before 0.5.0 refuses a PROFILE_UPDATE without a
    /// display name, and then due dates are just not resolved for this user's messages).
    func sendTimeZone() {
        let zone = timeZoneName
        guard authenticated, zone != sentTimeZone else { return }
        call(ProfileUpdate(timeZone: zone)) { [weak self] result in
            if case .success(let f) = result, f.type == .profile { self?.sentTimeZone = zone }
        }
    }
}
