import Foundation
import MessageAIProtocol

/// /away, /back, /me: how the user appears to others.
enum PresenceCommands {
    static let specs: [CommandSpec] = [
        CommandSpec("/away", "/away [MESSAGE...]",
                    "mark yourself away, with a text your contacts see (\"away: lunch\"); it lasts across restarts until /back",
                    server: true, args: 0...Int.max, run: away),
        CommandSpec("/back", "/back", "clear the away mark", server: true, run: back),
        CommandSpec("/me", "/me ACTION...", "send an action to the current conversation, shown as \"* alice waves\"",
                    args: 1...Int.max, run: me),
    ]

    static func away(_ inv: Invocation) {
        let text = inv.rest(from: 0)
        setAway(inv, AwaySet(away: true, message: text)) {
            inv.succeed("ok", ["away": true, "message": text],
                        plain: "you are away" + (text.isEmpty ? "" : ": \(text)") + " (your contacts see it; /back clears it)")
        }
    }

    static func back(_ inv: Invocation) {
        setAway(inv, AwaySet(away: false)) {
            inv.succeed("ok", ["away": false], plain: "you are back")
        }
    }

    private static func setAway(_ inv: Invocation, _ request: AwaySet, _ done: @escaping () -> Void) {
        let client = inv.client
        client.call(request) { result in
            switch result {
            case .failure(let e) where e.code == "unknown_frame_type":
                inv.fail("unsupported", "this server does not know /away and /back (it is older than the client)")
            case .failure(let e):
                inv.fail(e)
            case .success:
                client.ownAway = request.away ? request.message : nil
                client.onChange()
                done()
            }
        }
    }

    /// Sent as a message whose text starts with "/me " (the convention in PROTOCOL.md).
    static func me(_ inv: Invocation) {
        switch inv.client.queueMessage(Action.prefix + inv.rest(from: 0)) {
        case .failure(let e): inv.fail(e)
        case .success: inv.succeed(plain: nil)
        }
    }
}

/// Actions (/me) travel as text starting with "/me ": a client that does not know the
/// convention shows "alice: /me waves", which still reads right.
public enum Action {
    public static let prefix = "/me "

    /// The action of a message text ("waves" of "/me waves"), or nil when it is not one.
    public static func of(_ text: String) -> String? {
        guard text.hasPrefix(prefix) else { return nil }
        let action = text.dropFirst(prefix.count)
        return action.trimmingCharacters(in: .whitespaces).isEmpty ? nil : String(action)
    }
}
