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
            let fd = socket(address.family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            if fd < 0 { lastError = String(cString: strerror(errno)); continue }
            setNonBlocking(fd)
            let started = address.withSockaddr { Glibc.connect(fd, $0, $1) }
            if started == 0 || waitConnected(fd, timeoutMs, &lastError) {
                setNoDelay(fd)
                return .success(fd)
            }
            close(fd)
        }
        let shown = host.contains(":") ? "[\(host)]" : host
        return .failure(SocketError("cannot connect to \(shown):\(port): \(lastError)"))
    }

    private static func waitConnected(_ fd: Int32, _ timeoutMs: Int32, _ error: inout String) -> Bool {
        guard errno == EINPROGRESS else { error = String(cString: strerror(errno)); return false }
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
