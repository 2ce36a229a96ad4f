#if canImport(Glibc)
import Glibc
#endif

/// The socket calls the server, the client and the load tools all make, in one place: a
/// connect that tries every address a name resolves to (IPv6 and IPv4) with a timeout, and
/// the options every TCP socket of the product gets.
public enum Sockets {
    public static func setNonBlocking(_ fd: Int32) {
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    }

    /// Small frames must not wait for a delayed ACK (Nagle).
    public static func setNoDelay(_ fd: Int32) {
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
    }

    /// A connected, non-blocking TCP socket with TCP_NODELAY: each address of `host` is tried
    /// in turn, each for at most `timeoutMs`. Blocks (resolution and connect): call it off
    /// any queue that must stay responsive.
    public static func connect(host: String, port: UInt16, timeoutMs: Int32) -> Result<Int32, SocketError> {
        let addresses: [SocketAddress]
        switch SocketAddress.resolve(host, port: port) {
        case .success(let a): addresses = a
        case .failure(let e): return .failure(e)
        }
        var lastError = "no address"
        for address in addresses {
            switch open(address, nonBlocking: true) {
            case .failure(let e): lastError = e.message
            case .success(let fd):
                if waitConnected(fd, timeoutMs, &lastError) { return .success(fd) }
                close(fd)
            }
        }
        let shown = host.contains(":") ? "[\(host)]" : host
        return .failure(SocketError("cannot connect to \(shown):\(port): \(lastError)"))
    }

    /// A TCP socket of `address`'s family (close-on-exec, TCP_NODELAY) with its connect
    /// started. `nonBlocking`: the socket is non-blocking from the start and the connect may
    /// still be in progress (wait for it to be writable); otherwise it is connected on return
    /// and stays blocking.
    public static func open(_ address: SocketAddress, nonBlocking: Bool) -> Result<Int32, SocketError> {
        let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | (nonBlocking ? Int32(SOCK_NONBLOCK.rawValue) : 0)
        let fd = socket(address.family, type, 0)
        guard fd >= 0 else { return .failure(SocketError("socket: \(String(cString: strerror(errno)))")) }
        setNoDelay(fd)
        let rc = address.withSockaddr { Glibc.connect(fd, $0, $1) }
        if rc != 0 && !(nonBlocking && errno == EINPROGRESS) {
            let e = errno
            close(fd)
            return .failure(SocketError(String(cString: strerror(e))))
        }
        return .success(fd)
    }

    /// The first address of `host` (resolved now), opened as `open` does.
    public static func open(host: String, port: UInt16, nonBlocking: Bool) -> Result<Int32, SocketError> {
        SocketAddress.resolve(host, port: port).flatMap { addresses in open(addresses[0], nonBlocking: nonBlocking) }
    }

    private static func waitConnected(_ fd: Int32, _ timeoutMs: Int32, _ error: inout String) -> Bool {
        var p = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
        let n = poll(&p, 1, timeoutMs)
        if n <= 0 { error = n == 0 ? "timed out" : String(cString: strerror(errno)); return false }
        var soError: Int32 = 0
        var len = socklen_t(MemoryLayout<Int32>.size)
        getsockopt(fd, SOL_SOCKET, SO_ERROR, &soError, &len)
        if soError != 0 { error = String(cString: strerror(soError)); return false }
        return true
    }
}
