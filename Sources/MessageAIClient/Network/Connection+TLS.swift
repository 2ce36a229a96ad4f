import MessageAITLS
#if canImport(Glibc)
import Glibc
#endif

/// The connection's two I/O calls with `send`/`recv` semantics (count, 0 at end, -1 and
/// errno), so one code path serves TLS and `--plaintext`. TLS's WANT_READ/WANT_WRITE become
/// EAGAIN: the read source fires when the server sends, the write source when there is room.
extension Connection {
    func sendBytes(_ bytes: UnsafeRawBufferPointer) -> Int {
        guard let tls else { return Glibc.send(fd, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL)) }
        switch tls.write(bytes) {
        case .done(let n): return n
        case .wantRead, .wantWrite: errno = EAGAIN; return -1
        case .closed: errno = EPIPE; return -1
        case .failed: errno = EPROTO; return -1
        }
    }

    func receiveBytes(_ buffer: UnsafeMutableRawBufferPointer) -> Int {
        guard let tls else { return recv(fd, buffer.baseAddress, buffer.count, 0) }
        switch tls.read(into: buffer) {
        case .done(let n): return n
        case .wantRead, .wantWrite: errno = EAGAIN; return -1
        case .closed: return 0
        case .failed: errno = EPROTO; return -1
        }
    }
}
