import Foundation

/// The connection state as the prompt shows it. Between reconnect attempts the link goes
/// offline → connecting → offline several times a second; the prompt says "offline" once and
/// counts down to the next attempt, changing at most once a second.
extension Client {
    /// "online", "connecting" (the first attempt), or "offline, retry in 2s" / "offline, retrying".
    var liveConnection: String {
        switch link.state {
        case .online:
            return authenticated || session == nil ? "online" : "connecting"
        case .connecting, .offline:
            guard link.attemptedOnce else { return "connecting" }
            guard let at = link.nextAttempt else { return "offline, retrying" }
            let left = Double(Int64(at.uptimeNanoseconds) - Int64(DispatchTime.now().uptimeNanoseconds)) / 1e9
            return left >= 0.5 ? "offline, retry in \(Int(left.rounded()))s" : "offline, retrying"
        }
    }

    /// For the prompt: the state when it changed between online and not, else the last value
    /// the once-a-second timer took.
    public var promptConnection: String { shownConnection }

    /// Called on every link change: online (or back from it) shows at once; while offline a
    /// timer samples the countdown once a second.
    func refreshShownConnection() {
        let now = liveConnection
        let wasOnline = shownConnection == "online"
        if now == "online" || now == "connecting" || wasOnline || statusTimer == nil {
            shownConnection = now
        }
        if link.state == .online {
            statusTimer?.cancel()
            statusTimer = nil
        } else if statusTimer == nil {
            let t = DispatchSource.makeTimerSource(queue: .main)
            t.schedule(deadline: .now() + 1, repeating: 1)
            t.setEventHandler { [weak self] in
                guard let self else { return }
                let next = self.liveConnection
                if next != self.shownConnection { self.shownConnection = next; self.onChange() }
            }
            t.resume()
            statusTimer = t
        }
    }
}
