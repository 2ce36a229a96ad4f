import MessageAIProtocol
import MessageAITLS
#if canImport(Glibc)
import Glibc
#endif

/// TLS over a connected non-blocking socket, under the `ByteTransport` seam (the reason for
/// OpenSSL rather than swift-nio-ssl is in `MessageAITLS/TLSContext.swift`).
///
/// The handshake runs inside `read`: the client speaks first, so each read event advances it,
/// and WANT_READ is `wouldBlock` (the read source fires when the next flight arrives). After
/// it, SSL_write's WANT_WRITE is `wouldBlock`, which makes `Connection` resume its write source,
/// exactly as a full socket does. Nothing waits, so a stalled handshake never holds the hub:
/// it sends no application bytes, and the idle timeout closes it like any silent connection.
final class TLSTransport: ByteTransport {
    let fileDescriptor: Int32
    private let session: TLSSession
    private var sniffed = false
    private var closed = false
    private(set) var failureDescription: String?
    /// After WANT_WRITE, OpenSSL holds one encrypted record of the bytes offered (at most
    /// `maxRecordPlaintext`) and sends it on the retry, whatever bytes the retry offers; a retry
    /// offering fewer bytes fails ("bad write retry"). Overflow used to drop the frames behind
    /// the one in flight, so the retry was shorter: the connection ended on that error, and the
    /// client got the start of a dropped frame and EOF instead of ERROR output_overflow.
    private(set) var committedOutputBytes = 0
    static let maxRecordPlaintext = 16_384
    /// Told once, when the handshake completes (metrics); a failed one shows at close.
    var onHandshake: (() -> Void)?
    var isHandshakeDone: Bool { session.isHandshakeDone }

    init(fileDescriptor: Int32, context: TLSContext) throws {
        self.fileDescriptor = fileDescriptor
        session = try TLSSession(context: context, fileDescriptor: fileDescriptor, isServer: true, readAhead: true)
    }

    /// Records read ahead that the socket will not announce again (`Connection` drains them).
    var hasBufferedInput: Bool { session.hasBufferedInput }

    func read(into buffer: UnsafeMutableRawBufferPointer) -> TransportResult {
        if !sniffed, let early = sniffFirstBytes() { return early }
        if !session.isHandshakeDone {
            switch session.handshake() {
            case .done: onHandshake?(); onHandshake = nil
            case .wantRead, .wantWrite: return .wouldBlock
            case .closed:
                failureDescription = "the client closed the connection during the TLS handshake"
                return .endOfStream
            case .failed(let why):
                failureDescription = why
                return .failed(errno: EPROTO)
            }
        }
        switch session.read(into: buffer) {
        case .done(let n): return n > 0 ? .bytes(n) : .wouldBlock
        case .wantRead, .wantWrite: return .wouldBlock
        case .closed: return .endOfStream
        case .failed(let why):
            failureDescription = why
            return .failed(errno: EPROTO)
        }
    }

    func write(_ buffer: UnsafeRawBufferPointer) -> TransportResult {
        guard session.isHandshakeDone else {
            // Only a closing ERROR (idle timeout, shutdown) is ever written this early: drop it.
            failureDescription = failureDescription ?? "closed before the TLS handshake finished"
            return .failed(errno: ENOTCONN)
        }
        switch session.write(buffer) {
        case .done(let n):
            committedOutputBytes = 0
            return n > 0 ? .bytes(n) : .wouldBlock
        case .wantRead, .wantWrite:
            committedOutputBytes = max(committedOutputBytes, min(buffer.count, TLSTransport.maxRecordPlaintext))
            return .wouldBlock
        case .closed: return .failed(errno: EPIPE)
        case .failed(let why):
            failureDescription = why
            return .failed(errno: EPROTO)
        }
    }

    func close() {
        guard !closed else { return }
        closed = true
        session.shutdown()
        _ = Glibc.close(fileDescriptor)
    }

    /// A TLS connection starts with a handshake record (0x16). Anything else is a client
    /// speaking the plain protocol: answer in the plain protocol, so that client shows a
    /// clear reason instead of a reset, then close.
    private func sniffFirstBytes() -> TransportResult? {
        var head = [UInt8](repeating: 0, count: 12)
        let n = recv(fileDescriptor, &head, head.count, Int32(MSG_PEEK))
        if n < 0 { return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR ? .wouldBlock : .failed(errno: errno) }
        if n == 0 { return .endOfStream }
        sniffed = true
        guard head[0] != 0x16 else { return nil }
        let requestID = n >= 12 ? head[8..<12].reduce(UInt32(0)) { $0 << 8 | UInt32($1) } : 0
        var answer: [UInt8] = []
        ErrorFrame(.handshakeRequired, "this server speaks TLS; connect with TLS (messageai does unless given --plaintext)")
            .frame(requestID: requestID).encode(into: &answer)
        _ = answer.withUnsafeBytes { send(fileDescriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        failureDescription = "a plaintext client connected to the TLS port (it was told to use TLS)"
        return .failed(errno: EPROTO)
    }
}

/// The plain protocol (`--plaintext`), noticing a TLS client that came to the wrong port.
final class PlaintextTransport: ByteTransport {
    private let socket: SocketTransport
    private var firstRead = true
    private(set) var failureDescription: String?

    init(fileDescriptor: Int32) { socket = SocketTransport(fileDescriptor: fileDescriptor) }

    var fileDescriptor: Int32 { socket.fileDescriptor }

    func read(into buffer: UnsafeMutableRawBufferPointer) -> TransportResult {
        let result = socket.read(into: buffer)
        if firstRead, case .bytes(let n) = result {
            firstRead = false
            // A TLS record header: handshake (0x16), version 3.x. No HELLO frame starts so
            // (its length would be over 350 MB).
            if n >= 2, buffer[0] == 0x16, buffer[1] == 0x03 {
                failureDescription = "a TLS client connected to this plaintext server (started with --plaintext)"
                return .failed(errno: EPROTO)
            }
        }
        return result
    }

    func write(_ buffer: UnsafeRawBufferPointer) -> TransportResult { socket.write(buffer) }
    func close() { socket.close() }
}
