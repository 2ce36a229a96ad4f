@preconcurrency import CSSL

/// Why OpenSSL refused: the reason strings of its thread-local error queue ("wrong version
/// number", "certificate verify failed"), drained so the next call starts clean.
public struct TLSError: Error, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }

    /// `context` plus every queued OpenSSL reason, most specific last.
    static func fromQueue(_ context: String) -> TLSError {
        TLSError(withQueue(context))
    }

    static func withQueue(_ context: String) -> String {
        let reasons = drainQueue()
        return reasons.isEmpty ? context : "\(context): \(reasons.joined(separator: "; "))"
    }

    static func drainQueue() -> [String] {
        var reasons: [String] = []
        while true {
            let code = ERR_get_error()
            if code == 0 { break }
            if let r = ERR_reason_error_string(code) {
                reasons.append(String(cString: r))
            } else {
                var buf = [CChar](repeating: 0, count: 256)
                ERR_error_string_n(code, &buf, buf.count)
                reasons.append(String(decoding: buf.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
            }
        }
        return reasons
    }
}
