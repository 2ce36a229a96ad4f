#if canImport(Glibc)
import Glibc
#endif

/// Standard error for the server's own messages (usage, start-up failures, "listening on").
///
/// Swift 6 refuses to read C's `stderr`, a mutable global, from code that may run concurrently.
/// That stream is unbuffered, so `fputs(text, stderr)` was one write(2) of the whole text to
/// descriptor 2: this does the same without naming the global. Errors are ignored, as `fputs`'s
/// were: there is nowhere left to report them.
public enum StandardError {
    public static func write(_ text: String) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let n = bytes.withUnsafeBytes { Glibc.write(STDERR_FILENO, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return }
            bytes = bytes.dropFirst(n)
        }
    }
}
