import Foundation

/// How people point at a message: `#42` (the reference the REPL shows), `42`, or counting
/// back from the newest in the conversation (`-1` is the last message, `-2` the one before).
enum MessageRef {
    static let usage = "#SEQ, SEQ or -N (-1 is the last message)"

    /// The sequence number meant, given the conversation's newest `last`; nil when malformed
    /// or counting back past the first message.
    static func resolve(_ text: String, last: UInt64) -> UInt64? {
        if text.hasPrefix("-") {
            guard let back = UInt64(text.dropFirst()), back > 0, back <= last else { return nil }
            return last + 1 - back
        }
        guard let n = UInt64(text.hasPrefix("#") ? String(text.dropFirst()) : text), n > 0 else { return nil }
        return n
    }
}
