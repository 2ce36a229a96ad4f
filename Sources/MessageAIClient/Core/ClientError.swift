import MessageAIProtocol

/// Why a command or request failed: a stable code (the server's error names, plus the
/// client's own: offline, not_logged_in, usage, unknown_command, timeout, ...) and a message
/// a person can act on.
public struct ClientError: Error, CustomStringConvertible, Equatable {
    public var code: String
    public var message: String
    /// For rate_limited and throttled: when to try again (ms).
    public var retryAfterMs: UInt64 = 0

    public init(_ code: String, _ message: String, retryAfterMs: UInt64 = 0) {
        self.code = code; self.message = message; self.retryAfterMs = retryAfterMs
    }

    init(_ frame: ErrorFrame) {
        code = frame.errorCode?.name ?? "error_\(frame.code)"
        message = frame.message.isEmpty ? code.replacingOccurrences(of: "_", with: " ") : frame.message
        retryAfterMs = frame.retryAfter
    }

    public var description: String { message }

    static let offline = ClientError("offline", "not connected to the server (it is unreachable); try again when online")
    static let notLoggedIn = ClientError("not_logged_in", "not logged in: use /login USERNAME PASSWORD or /register EMAIL USERNAME PASSWORD")
    static func usage(_ text: String) -> ClientError { ClientError("usage", "usage: \(text)") }
}
