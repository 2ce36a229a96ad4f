import Dispatch
import MessageAISocket
#if canImport(Glibc)
import Glibc
#endif

/// A non-blocking listening TCP socket whose accepts arrive through a DispatchSource, on an
/// IPv4 or IPv6 address (`127.0.0.1`, `::1` or `[::1]`, `localhost`).
// @unchecked Sendable: `source` and `paused` are touched only on the queue given to `start`
// (and by `stop`, which its owner calls on that queue).
final class ListeningSocket: @unchecked Sendable {
    struct Accepted {
        let fd: Int32
        let address: String
    }

    enum SetupError: Error, CustomStringConvertible {
        case badAddress(String)
        case system(String, Int32)
        var description: String {
            switch self {
            case .badAddress(let host): return "cannot listen on '\(host)': not an IPv4 or IPv6 address"
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
        // localhost: its IPv4 address, as before (a name resolving to both must pick one).
        guard case .success(let addresses) = SocketAddress.resolve(host == "localhost" ? "127.0.0.1" : host, port: UInt16(port), passive: true),
              let address = addresses.first else { throw SetupError.badAddress(host) }

        let fd = socket(address.family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw SetupError.system("socket", errno) }
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        let bound = address.withSockaddr { bind(fd, $0, $1) }
        guard bound == 0 else { let e = errno; Glibc.close(fd); throw SetupError.system("bind", e) }
        guard listen(fd, backlog) == 0 else { let e = errno; Glibc.close(fd); throw SetupError.system("listen", e) }

        var actual = SocketAddress()
        _ = withUnsafeMutablePointer(to: &actual.storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &actual.length) }
        }
        self.fd = fd
        self.port = Int(actual.port)
    }

    /// Starts accepting on `queue`; `handler` gets each new non-blocking socket with TCP_NODELAY set.
    func start(on queue: DispatchQueue, handler: @escaping (Accepted) -> Void) {
        let source = DispatchSource.makeReadSource(fileDescriptor: fd, queue: queue)
        let fd = self.fd
        source.setEventHandler { [unowned self] in
            // Drain the backlog; bounded so one burst cannot starve the queue.
            for _ in 0..<256 {
                var peer = SocketAddress()
                let client = withUnsafeMutablePointer(to: &peer.storage) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { accept(fd, $0, &peer.length) }
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
                            self.source?.resume()  // still `source`: `stop` clears `paused` first
                        }
                    }
                    return // EAGAIN: drained
                }
                Sockets.setNonBlocking(client)
                _ = fcntl(client, F_SETFD, FD_CLOEXEC)
                Sockets.setNoDelay(client)
                handler(Accepted(fd: client, address: peer.host))
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
