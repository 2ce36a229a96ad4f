#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The seam between a connection and its bytes: read bytes in, write bytes out. A plain TCP
/// socket implements it (`--plaintext`), and `TLSTransport` wraps one, without touching framing or handlers.
/// Implementations are non-blocking: they never wait, they say `wouldBlock`.
public protocol ByteTransport: AnyObject {
    /// The descriptor whose readiness the connection watches (epoll through DispatchSource).
    var fileDescriptor: Int32 { get }
    func read(into buffer: UnsafeMutableRawBufferPointer) -> TransportResult
    func write(_ buffer: UnsafeRawBufferPointer) -> TransportResult
    /// Releases the descriptor. Called once, after both dispatch sources are cancelled.
    func close()
    /// Why the transport failed, in words for the log (a TLS alert, a plaintext client on
    /// the TLS port); nil when it did not or has nothing to add.
    var failureDescription: String? { get }
    /// Input the transport holds that its descriptor will not signal again (TLS read-ahead):
    /// the connection keeps reading while it is true. False for a plain socket.
    var hasBufferedInput: Bool { get }
    /// Bytes past those reported written that the transport has already taken and must be
    /// offered again unchanged (TLS: the record OpenSSL encrypted before WANT_WRITE). Output
    /// dropped on overflow must not cut into them. 0 for a plain socket.
    var committedOutputBytes: Int { get }
}

extension ByteTransport {
    public var failureDescription: String? { nil }
    public var hasBufferedInput: Bool { false }
    public var committedOutputBytes: Int { 0 }
}

public enum TransportResult: Equatable {
    /// This many bytes were read or written (always > 0).
    case bytes(Int)
    case wouldBlock
    /// The peer closed its side (read returned 0).
    case endOfStream
    case failed(errno: Int32)
}

/// A connected, non-blocking TCP socket.
public final class SocketTransport: ByteTransport {
    public let fileDescriptor: Int32
    private var closed = false

    public init(fileDescriptor: Int32) { self.fileDescriptor = fileDescriptor }

    public func read(into buffer: UnsafeMutableRawBufferPointer) -> TransportResult {
        while true {
            let n = recv(fileDescriptor, buffer.baseAddress, buffer.count, 0)
            if n > 0 { return .bytes(n) }
            if n == 0 { return .endOfStream }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return .wouldBlock
            default: return .failed(errno: errno)
            }
        }
    }

    public func write(_ buffer: UnsafeRawBufferPointer) -> TransportResult {
        while true {
            // MSG_NOSIGNAL: a peer that vanished gives EPIPE here instead of killing the process.
            let n = send(fileDescriptor, buffer.baseAddress, buffer.count, Int32(MSG_NOSIGNAL))
            if n >= 0 { return n == 0 ? .wouldBlock : .bytes(n) }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return .wouldBlock
            default: return .failed(errno: errno)
            }
        }
    }

    public func close() {
        guard !closed else { return }
        closed = true
        _ = Glibc.close(fileDescriptor)
    }
}
