import Foundation

/// One's own message in the REPL: printed once, as a message line with its `#N` (issue 24:
/// `/reply` and `/edit` on what one just sent needed a lookup in /history).
extension Client {
    /// In the REPL (one line per message, no transitions), a message sent on a live link is
    /// printed when the server acknowledges it, with the reference the ack brings, instead of
    /// at once without it. The ack takes milliseconds; offline, the line prints at once (what
    /// is queued shows as queued).
    var holdsOwnLines: Bool { config.interactive && !showsTransitions && !output.json && link.state == .online && synced }

    /// How long a held line waits for its ack before it is printed without `#N` (the prompt's
    /// mark shows the number once it comes).
    static let ownLineWait = 0.5

    /// Holds the line of the message `clientID`; `print` prints it without a reference.
    func holdOwnLine(_ clientID: String, print: @escaping () -> Void) {
        heldOwnLines[clientID] = print
        DispatchQueue.main.asyncAfter(deadline: .now() + Client.ownLineWait) { [weak self] in
            self?.heldOwnLines.removeValue(forKey: clientID)?()
        }
    }

    /// The ack came: a held line is printed now, as the message line with its `#N`.
    func printHeldOwnLine(_ m: StoredMessage) {
        guard heldOwnLines.removeValue(forKey: m.clientID) != nil else { return }
        output.emit(MessageEvent.shown(line(m, conversation: conversationName(m.conversationID, fallback: ""))))
    }
}
