@preconcurrency import CSSL

/// An OpenSSL `SSL_CTX`: the settings every session starts from. Both sides: TLS 1.2 minimum
/// (1.3 preferred, OpenSSL's default order), the `messageai/1` ALPN name, no session tickets.
///
/// Why OpenSSL through a system library and not swift-nio-ssl: the server's connections are
/// non-blocking sockets under DispatchSources on one hub queue, behind the `ByteTransport`
/// seam. OpenSSL's non-blocking SSL_read/SSL_write report WANT_READ/WANT_WRITE, which map
/// directly onto those read and write sources, so TLS slots in under the seam without changing
/// the event model. swift-nio-ssl is a NIO ChannelHandler: using it would mean moving the
/// server (and the client) onto NIO's event loops and channel pipeline. Debian keeps libssl
/// patched; swift-crypto's BoringSSL symbols are prefixed, so both live in one process.
public final class TLSContext {
    let ctx: OpaquePointer

    private init(method: OpaquePointer?) throws {
        _ = openSSLLibrary
        guard let method, let ctx = SSL_CTX_new(method) else { throw TLSError.fromQueue("SSL_CTX_new failed") }
        self.ctx = ctx
        guard messageai_set_tls_versions(ctx) == 1 else { SSL_CTX_free(ctx); throw TLSError.fromQueue("cannot set TLS versions") }
        _ = messageai_set_modes(ctx)
        _ = messageai_no_tickets(ctx)
    }

    deinit { SSL_CTX_free(ctx) }

    // MARK: Server

    /// The fingerprint of the leaf certificate served (what clients pin).
    public private(set) var fingerprint = ""

    /// Serves `certificatePath` (PEM; the leaf first, then intermediates, as Let's Encrypt's
    /// fullchain.pem) with the private key in `keyPath`.
    public static func server(certificatePath: String, keyPath: String) throws -> TLSContext {
        _ = openSSLLibrary
        let c = try TLSContext(method: TLS_server_method())
        ERR_clear_error()
        guard SSL_CTX_use_certificate_chain_file(c.ctx, certificatePath) == 1 else {
            throw TLSError.fromQueue("cannot load the certificate \(certificatePath)")
        }
        guard SSL_CTX_use_PrivateKey_file(c.ctx, keyPath, SSL_FILETYPE_PEM) == 1 else {
            throw TLSError.fromQueue("cannot load the private key \(keyPath)")
        }
        guard SSL_CTX_check_private_key(c.ctx) == 1 else {
            throw TLSError.fromQueue("the key \(keyPath) does not match the certificate \(certificatePath)")
        }
        if let leaf = SSL_CTX_get0_certificate(c.ctx) { c.fingerprint = Fingerprint.sha256(of: leaf) }
        messageai_server_alpn(c.ctx)
        return c
    }

    // MARK: Client

    /// Verifies against the system's CAs, or only `caFile` when given. Verification failures
    /// do not abort the handshake: the caller decides (pinned fingerprint, known servers).
    public static func client(caFile: String?) throws -> TLSContext {
        _ = openSSLLibrary
        let c = try TLSContext(method: TLS_client_method())
        ERR_clear_error()
        if let caFile {
            guard SSL_CTX_load_verify_locations(c.ctx, caFile, nil) == 1 else {
                throw TLSError.fromQueue("cannot load the CA file \(caFile)")
            }
        } else {
            _ = SSL_CTX_set_default_verify_paths(c.ctx)
        }
        SSL_CTX_set_verify(c.ctx, SSL_VERIFY_NONE, nil)
        ERR_clear_error()
        return c
    }
}

extension TLSSession {
    /// Client side: SNI and the host name the certificate must carry, and our ALPN offer.
    public func prepareClient(host: String) {
        _ = messageai_client_alpn(ssl)
        let param = SSL_get0_param(ssl)
        if isIPAddress(host) {
            X509_VERIFY_PARAM_set1_ip_asc(param, host)
        } else {
            _ = messageai_set_sni(ssl, host)
            X509_VERIFY_PARAM_set1_host(param, host, 0)
        }
        ERR_clear_error()
    }

    private func isIPAddress(_ host: String) -> Bool {
        host.contains(":") || (host.split(separator: ".").count == 4 && host.allSatisfy { $0.isNumber || $0 == "." })
    }
}
