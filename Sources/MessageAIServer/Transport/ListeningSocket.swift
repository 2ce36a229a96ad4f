import Dispatch
#if canImport(Glibc)
import Glibc
#endif

/// A non-blocking listening TCP socket whose accepts arrive through a DispatchSource.
/// IPv4 only: the product listens on 127.0.0.1 (or a namespace address) by design.
final class ListeningSocket {
    struct Accepted {
        let fd: Int32
        let address: String
    }

    enum SetupError: Error, CustomStringConvertible {
        case badAddress(String)
        case system(String, Int32)
        var description: String {
            switch self {
            case .badAddress(let host): return "cannot listen on '\(host)': not an IPv4 address"
            case let .system(call, err): return "\(call) failed: \(String(cString: strerror(err)))"
            }
        }
    }

    let fd: Int32
    /// The port actually bound (useful with port 0).
    let port: Int
    private var source: DispatchSourceRead?
    private var paused = false

    init(host: String, port: Int, backlog: Int32 = 4096) throws {
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = in_port_t(UInt16(port).bigEndian)
        let h = host == "localhost" ? "127.0.0.1" : host
        guard inet_pton(AF_INET, h, &addr.sin_addr) == 1 else { throw SetupError.badAddress(host) }

        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw SetupError.system("socket", errno) }
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        let bound = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else { let e = errno; Glibc.close(fd); throw SetupError.system("bind", e) }
        guard listen(fd, backlog) == 0 else { let e = errno; Glibc.close(fd); throw SetupError.system("listen", e) }

        var actual = sockaddr_in()
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &actual) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &len) }
        }
        self.fd = fd
        self.port = Int(UInt16(bigEndian: actual.sin_port))
    }

    /// Starts accepting on `queue`; `handler` gets each new non-blocking socket with TCP_NODELAY set.
    func start(on queue: DispatchQueue, handler: @escaping (Accepted) -> Void) {
        let source = DispatchSource.makeReadSource(fileDescriptor: fd, queue: queue)
        let fd = self.fd
        source.setEventHandler { [unowned self] in
            // Drain the backlog; bounded so one burst cannot starve the queue.
            for _ in 0..<256 {
                var peer = sockaddr_in()
                var len = socklen_t(MemoryLayout<sockaddr_in>.size)
                let client = withUnsafeMutablePointer(to: &peer) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { accept(fd, $0, &len) }
                }
                if client < 0 {
                    let e = errno
                    if e == EMFILE || e == ENFILE || e == ENOBUFS || e == ENOMEM, let source = self.source, !self.paused {
                        // Out of descriptors: the socket stays readable, so pause instead of spinning.
                        self.paused = true
                        source.suspend()
                        queue.asyncAfter(deadline: .now() + .milliseconds(100)) { [weak self] in
                            guard let self, self.paused else { return }
                            self.paused = false
                            source.resume()
                        }
                    }
                    return // EAGAIN: drained
                }
                _ = fcntl(client, F_SETFL, fcntl(client, F_GETFL) | O_NONBLOCK)
                _ = fcntl(client, F_SETFD, FD_CLOEXEC)
                var one: Int32 = 1
                // Small frames must not wait for a delayed ACK (Nagle).
                setsockopt(client, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
                var text = [CChar](repeating: 0, count: Int(INET_ADDRSTRLEN))
                inet_ntop(AF_INET, &peer.sin_addr, &text, socklen_t(text.count))
                handler(Accepted(fd: client, address: String(cString: text)))
            }
        }
        source.setCancelHandler { Glibc.close(fd) }
        self.source = source
        source.resume()
    }

    /// Stops accepting and closes the socket.
    func stop() {
        if let source {
            // A suspended source must be resumed before it is cancelled.
            if paused { paused = false; source.resume() }
            source.cancel()
            self.source = nil
        } else {
            Glibc.close(fd)
        }
    }
}
