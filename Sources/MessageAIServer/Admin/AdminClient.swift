import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `messageai-server admin ...` and `backup`: connects to the running server's admin socket in
/// the data directory, sends the words, prints the answer, and returns the exit status.
public enum AdminClient {
    public static func run(dataDirectory: String, words: [String]) -> Int32 {
        let path = dataDirectory + "/" + AdminSocket.fileName
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return fail("socket: \(String(cString: strerror(errno)))", AdminStatus.unavailable) }
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            return fail("the data directory's path is too long for its admin socket: \(path)", AdminStatus.unavailable)
        }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes + [0]) }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard connected == 0 else {
            let e = errno
            let why = e == EACCES ? "permission denied: run it as the server's own user"
                : e == ENOENT || e == ECONNREFUSED ? "no server is running on \(dataDirectory) (no admin socket answers)"
                : String(cString: strerror(e))
            return fail("cannot reach the server's admin socket \(path): \(why)",
                        e == EACCES ? AdminStatus.notPermitted : AdminStatus.unavailable)
        }
        guard let request = try? JSONSerialization.data(withJSONObject: words) else { return fail("bad words", AdminStatus.usage) }
        let out = Array(request) + [10]
        guard out.withUnsafeBytes({ send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) == out.count else {
            return fail("cannot send to the admin socket: \(String(cString: strerror(errno)))", AdminStatus.unavailable)
        }
        var pending: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        let progress = ProgressBar()
        while true {
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard n > 0 else { progress.finish(); return fail("the server closed the admin connection early", AdminStatus.failed) }
            pending += chunk[..<n]
            while let newline = pending.firstIndex(of: 10) {
                let text = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                switch AdminLine(line: Substring(text)) {
                case .out(let s)?: progress.finish(); print(s); fflush(nil)  // nil: every stream, stdout among them (Swift 6 may not name `stdout`)
                case .err(let s)?: progress.finish(); StandardError.write(s + "\n")
                case let .progress(done, total)?: progress.show(done: done, total: total)
                case .exit(let status)?: progress.finish(); return status
                case nil: continue
                }
            }
        }
    }

    static func fail(_ message: String, _ status: Int32) -> Int32 {
        StandardError.write("messageai-server: \(message)\n")
        return status
    }
}

/// A one-line progress bar on stderr when it is a terminal; nothing otherwise (logs, scripts).
final class ProgressBar {
    private let terminal = isatty(2) == 1
    private var shown = false

    func show(done: UInt64, total: UInt64) {
        guard terminal, total > 0 else { return }
        let width = 30
        let filled = Int(Double(width) * Double(min(done, total)) / Double(total))
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
        StandardError.write("\r[\(bar)] \(ChatServer.size(done)) of \(ChatServer.size(total))\u{1B}[K")
        shown = true
    }

    func finish() {
        guard shown else { return }
        StandardError.write("\n")
        shown = false
    }
}
