import Dispatch

/// The deadlines bytes do not extend (a frame begun too long ago, a login that never came),
/// and how much of the hub one turn of a connection's input may take.
extension Connection {
    /// Starts the frame deadline when a frame begins, and clears it when nothing is half-received.
    func trackPartialFrame(delivered: Bool) {
        if bufferedInputBytes == 0 {
            frameStartedAt = nil
        } else if frameStartedAt == nil || delivered {
            // Bytes left after a delivered frame are the start of the next one.
            frameStartedAt = Clock.uptimeMillis()
        }
    }

    /// Why this connection is past a deadline (an unfinished frame, no login), or nil. While
    /// the server holds its input (paused), the delay is not the client's and does not count.
    func missedDeadline(now: UInt64) -> String? {
        guard !isClosing, !readPaused else { return nil }
        if let start = frameStartedAt, now > start + limits.frameTimeoutMillis {
            return "a frame was not completed within \(limits.frameTimeoutMillis) ms of its first byte"
        }
        if let deadline = loginDeadline, now > deadline {
            return "no login within \(limits.loginTimeoutMillis) ms of connecting (or of logging out)"
        }
        return nil
    }
}

/// What one turn of a connection's input may still do: a number of frames and a little time.
struct TurnBudget {
    private(set) var frames: Int
    private let endNanos: UInt64

    init(_ limits: InputLimits) {
        frames = limits.framesPerTurn
        endNanos = DispatchTime.now().uptimeNanoseconds + limits.turnNanos
    }

    var isSpent: Bool { frames <= 0 || DispatchTime.now().uptimeNanoseconds >= endNanos }
    mutating func spend() { frames -= 1 }
}
