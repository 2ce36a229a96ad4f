@preconcurrency import CSSL
#if canImport(Glibc)
import Glibc
#endif

/// One TLS connection over a non-blocking socket, driven by the caller's DispatchSources:
/// every call returns at once, and `wantRead`/`wantWrite` say which readiness to wait for.
/// Not thread-safe: one queue drives it (OpenSSL's error queue is per thread, and each call
/// clears it first and reads it right after, on the same thread).
public final class TLSSession {
    public enum Outcome: Equatable {
        /// Bytes read or written (> 0); for `handshake()`, 0 means finished.
        case done(Int)
        case wantRead
        case wantWrite
        /// The peer closed (close_notify or a clean TCP end).
        case closed
        case failed(String)
    }

    let ssl: OpaquePointer
    public let fileDescriptor: Int32

    /// `context` is retained by OpenSSL for the session's life (a reload may replace it).
    ///
    /// `readAhead`: OpenSSL reads whatever the socket holds into its own buffer instead of each
    /// record's 5-byte header and then its body (two `recv` calls per record, which cost a
    /// server's TLS fan-out +43 % CPU). Records can then wait in OpenSSL while the socket is
    /// empty, and no readiness event will announce them: a caller that turns it on must keep
    /// reading while `hasBufferedInput` says so.
    public init(context: TLSContext, fileDescriptor: Int32, isServer: Bool, readAhead: Bool = false) throws {
        guard let ssl = SSL_new(context.ctx) else { throw TLSError.fromQueue("SSL_new failed") }
        self.ssl = ssl
        self.fileDescriptor = fileDescriptor
        SSL_set_fd(ssl, fileDescriptor)
        if readAhead { SSL_set_read_ahead(ssl, 1) }
        if isServer { SSL_set_accept_state(ssl) } else { SSL_set_connect_state(ssl) }
    }

    deinit { SSL_free(ssl) }

    static let maxRecord = 16_384

    public var isHandshakeDone: Bool { SSL_is_init_finished(ssl) == 1 }

    /// Bytes OpenSSL has taken from the socket that `read` has not returned yet (a whole or
    /// partial record read ahead, or plaintext of a record larger than the caller's room).
    public var hasBufferedInput: Bool { SSL_has_pending(ssl) == 1 }

    public func handshake() -> Outcome {
        ERR_clear_error()
        let rc = SSL_do_handshake(ssl)
        return rc == 1 ? .done(0) : outcome(rc, "TLS handshake failed")
    }

    /// Reads whole records until the socket has nothing more or the room left is less than a
    /// record (16 KiB). Stopping at a record boundary matters: a record half-read into OpenSSL
    /// would sit there while the socket, already drained, never signals the read source again.
    /// (A buffer smaller than a record can still leave one half-read: callers pass 64 KiB.)
    public func read(into buffer: UnsafeMutableRawBufferPointer) -> Outcome {
        var total = 0
        while total == 0 || buffer.count - total >= TLSSession.maxRecord {
            ERR_clear_error()
            let rc = SSL_read(ssl, buffer.baseAddress! + total, Int32(min(buffer.count - total, Int(Int32.max))))
            if rc > 0 { total += Int(rc); continue }
            let o = outcome(rc, "TLS read failed")
            if total > 0 {
                // Report the bytes now; an end or error shows up again on the next call.
                return .done(total)
            }
            return o
        }
        return .done(total)
    }

    public func write(_ buffer: UnsafeRawBufferPointer) -> Outcome {
        guard buffer.count > 0 else { return .done(0) }
        ERR_clear_error()
        let rc = SSL_write(ssl, buffer.baseAddress, Int32(min(buffer.count, Int(Int32.max))))
        return rc > 0 ? .done(Int(rc)) : outcome(rc, "TLS write failed")
    }

    /// Sends close_notify once, without waiting for the peer's.
    public func shutdown() {
        ERR_clear_error()
        if isHandshakeDone { _ = SSL_shutdown(ssl) }
        ERR_clear_error()
    }

    private func outcome(_ rc: Int32, _ context: String) -> Outcome {
        let err = SSL_get_error(ssl, rc)
        switch err {
        case SSL_ERROR_WANT_READ: return .wantRead
        case SSL_ERROR_WANT_WRITE: return .wantWrite
        case SSL_ERROR_ZERO_RETURN: return .closed
        case SSL_ERROR_SYSCALL:
            let e = errno
            let queued = TLSError.drainQueue()
            if !queued.isEmpty { return .failed("\(context): \(queued.joined(separator: "; "))") }
            if e == EAGAIN || e == EWOULDBLOCK || e == EINTR { return .wantRead }
            // rc == 0 or errno 0: the peer closed TCP without close_notify.
            if rc == 0 || e == 0 { return .closed }
            return .failed("\(context): \(String(cString: strerror(e)))")
        default:
            return .failed(TLSError.withQueue(context))
        }
    }

    // MARK: What the connection negotiated (shown by the client's /server)

    public var version: String { String(cString: SSL_get_version(ssl)) }

    public var cipher: String {
        guard let c = SSL_get_current_cipher(ssl) else { return "none" }
        return String(cString: SSL_CIPHER_get_name(c))
    }

    public var alpn: String? {
        var data: UnsafePointer<UInt8>?
        var length: UInt32 = 0
        SSL_get0_alpn_selected(ssl, &data, &length)
        guard let data, length > 0 else { return nil }
        return String(decoding: UnsafeBufferPointer(start: data, count: Int(length)), as: UTF8.self)
    }

    /// The fingerprint of the certificate the peer presented (the leaf of its chain).
    public var peerFingerprint: String? {
        guard let cert = SSL_get1_peer_certificate(ssl) else { return nil }
        defer { X509_free(cert) }
        return Fingerprint.sha256(of: cert)
    }

    /// Nil when the chain verified against the trusted CAs (and the host name matched), else why not.
    public var verificationFailure: String? {
        let result = SSL_get_verify_result(ssl)
        guard result != X509_V_OK else { return nil }
        return String(cString: X509_verify_cert_error_string(result))
    }
}
