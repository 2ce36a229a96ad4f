import Dispatch
import Foundation
import Logging
#if canImport(Glibc)
import Glibc
#endif

/// The admin socket: `DATA_DIR/admin.sock`, a unix socket of mode 0600 that only the server's
/// own user may use (checked again with SO_PEERCRED, so a root-owned process of another uid is
/// refused too). Nothing is exposed on the network. One request per connection: a JSON array of
/// words (`["users","disable","alice"]`) and a newline; the answer is `AdminLine`s, then close.
// @unchecked Sendable: `fd` and `source` belong to `queue`; `serve` runs on a thread of its own
// and touches only lets (`logger`, `handler`).
final class AdminSocket: @unchecked Sendable {
    static let fileName = "admin.sock"
    private let queue = DispatchQueue(label: "messageai.admin")
    private let path: String
    private let handler: @Sendable (_ words: [String], _ uid: uid_t, _ send: @escaping @Sendable (AdminLine) -> Void) -> Void
    private let logger: Logger
    private var fd: Int32 = -1
    private var source: DispatchSourceRead?

    init(directory: String, logger: Logger, handler: @escaping @Sendable (_ words: [String], _ uid: uid_t, _ send: @escaping @Sendable (AdminLine) -> Void) -> Void) {
        self.path = directory + "/" + Self.fileName
        self.logger = logger
        self.handler = handler
    }

    func start() throws {
        // The data directory is locked by this process: a socket file left there is stale.
        unlink(path)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            throw AdminError("the admin socket path \(path) is longer than a unix socket allows (107 bytes)")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in raw.copyBytes(from: bytes + [0]) }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard fd >= 0 else { throw AdminError("socket: \(String(cString: strerror(errno)))") }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0, chmod(path, 0o600) == 0, listen(fd, 16) == 0 else {
            let e = errno; close(fd)
            throw AdminError("admin socket \(path): \(String(cString: strerror(e)))")
        }
        self.fd = fd
        let source = DispatchSource.makeReadSource(fileDescriptor: fd, queue: queue)
        source.setEventHandler { [self] in acceptAll() }
        source.setCancelHandler { close(fd) }
        source.resume()
        self.source = source
    }

    func stop() {
        queue.sync {
            source?.cancel()
            source = nil
            unlink(path)
        }
    }

    private func acceptAll() {
        while true {
            let client = accept(fd, nil, nil)
            guard client >= 0 else { return }
            // The request is one short line: read it on a thread of its own (blocking, with a
            // timeout), so a silent client holds nobody else up.
            Thread.detachNewThread { [self] in serve(client) }
        }
    }

    private func serve(_ client: Int32) {
        var flags = fcntl(client, F_GETFL)
        flags &= ~O_NONBLOCK
        _ = fcntl(client, F_SETFL, flags)
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let done = DispatchSemaphore(value: 0)
        @Sendable func write(_ line: AdminLine) {
            let bytes = Array(line.encoded.utf8)
            var sent = 0
            while sent < bytes.count {
                let n = bytes.withUnsafeBytes { send(client, $0.baseAddress! + sent, bytes.count - sent, Int32(MSG_NOSIGNAL)) }
                if n <= 0 { return }
                sent += n
            }
        }
        defer { close(client) }
        var credentials = PeerCredentials()
        var length = socklen_t(MemoryLayout<PeerCredentials>.size)
        guard getsockopt(client, SOL_SOCKET, SO_PEERCRED, &credentials, &length) == 0 else { return }
        guard credentials.uid == geteuid() else {
            logger.warning("admin socket: refused uid \(credentials.uid) (only uid \(geteuid()) may administer this server)")
            write(.err("only the server's own user (uid \(geteuid())) may use the admin socket"))
            write(.exit(AdminStatus.notPermitted))
            return
        }
        var request: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while !request.contains(10) && request.count < 65_536 {
            let n = chunk.withUnsafeMutableBytes { recv(client, $0.baseAddress, $0.count, 0) }
            guard n > 0 else { return }
            request += chunk[..<n]
        }
        let line = request.prefix { $0 != 10 }
        guard let words = (try? JSONSerialization.jsonObject(with: Data(line))) as? [String] else {
            write(.err("the admin request is not a JSON array of words"))
            write(.exit(AdminStatus.usage))
            return
        }
        handler(words, credentials.uid) { line in
            write(line)
            if case .exit = line { done.signal() }
        }
        done.wait()
    }
}

/// Linux's `struct ucred` (SO_PEERCRED), which Swift does not see without _GNU_SOURCE.
private struct PeerCredentials {
    var pid: Int32 = 0
    var uid: uid_t = 0
    var gid: gid_t = 0
}

struct AdminError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
