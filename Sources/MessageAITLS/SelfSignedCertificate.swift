@preconcurrency import CSSL
#if canImport(Glibc)
import Glibc
#endif

/// A self-signed ECDSA P-256 certificate for a server nobody bought a certificate for. Clients
/// cannot verify it against a CA; they pin its fingerprint instead (trust on first use).
public enum SelfSignedCertificate {
    /// Writes a new key (mode 0600) and certificate (0644) naming `hosts` (DNS names and IP
    /// addresses, the first one also the subject CN), valid for ten years. Returns the fingerprint.
    @discardableResult
    public static func generate(hosts: [String], certificatePath: String, keyPath: String) throws -> String {
        _ = openSSLLibrary
        ERR_clear_error()
        guard let key = messageai_generate_p256() else { throw TLSError.fromQueue("cannot generate a P-256 key") }
        defer { EVP_PKEY_free(key) }
        guard let cert = X509_new() else { throw TLSError.fromQueue("X509_new failed") }
        defer { X509_free(cert) }

        X509_set_version(cert, 2) // v3
        var serial = [UInt8](repeating: 0, count: 16)
        _ = RAND_bytes(&serial, Int32(serial.count))
        serial[0] &= 0x7F // positive
        let bn = BN_bin2bn(serial, Int32(serial.count), nil)
        BN_to_ASN1_INTEGER(bn, X509_get_serialNumber(cert))
        BN_free(bn)
        X509_gmtime_adj(X509_getm_notBefore(cert), -3600)
        X509_gmtime_adj(X509_getm_notAfter(cert), 10 * 365 * 86_400)

        let name = X509_get_subject_name(cert)
        let cn = hosts.first ?? "localhost"
        X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_UTF8, cn, -1, -1, 0)
        X509_NAME_add_entry_by_txt(name, "O", MBSTRING_UTF8, "messageai-server (self-signed)", -1, -1, 0)
        X509_set_issuer_name(cert, name)
        X509_set_pubkey(cert, key)

        let san = hosts.map { isIP($0) ? "IP:\($0)" : "DNS:\($0)" }.joined(separator: ",")
        try addExtension(cert, NID_subject_alt_name, san)
        try addExtension(cert, NID_basic_constraints, "critical,CA:FALSE")
        try addExtension(cert, NID_key_usage, "critical,digitalSignature")
        try addExtension(cert, NID_ext_key_usage, "serverAuth")
        guard X509_sign(cert, key, EVP_sha256()) > 0 else { throw TLSError.fromQueue("cannot sign the certificate") }

        try writePEM(keyPath, mode: 0o600) { bio in PEM_write_bio_PrivateKey(bio, key, nil, nil, 0, nil, nil) }
        try writePEM(certificatePath, mode: 0o644) { bio in PEM_write_bio_X509(bio, cert) }
        return Fingerprint.sha256(of: cert)
    }

    /// The leaf certificate's fingerprint in a PEM file.
    public static func fingerprint(ofFile path: String) throws -> String {
        _ = openSSLLibrary
        ERR_clear_error()
        guard let bio = BIO_new_file(path, "r") else { throw TLSError.fromQueue("cannot read \(path)") }
        defer { BIO_free(bio) }
        guard let cert = PEM_read_bio_X509(bio, nil, nil, nil) else { throw TLSError.fromQueue("no certificate in \(path)") }
        defer { X509_free(cert) }
        return Fingerprint.sha256(of: cert)
    }

    private static func addExtension(_ cert: OpaquePointer, _ nid: Int32, _ value: String) throws {
        var ctx = X509V3_CTX()
        X509V3_set_ctx(&ctx, cert, cert, nil, nil, 0)
        guard let ext = X509V3_EXT_conf_nid(nil, &ctx, nid, value) else { throw TLSError.fromQueue("bad extension \(value)") }
        defer { X509_EXTENSION_free(ext) }
        X509_add_ext(cert, ext, -1)
    }

    /// Writes through a temp file created with `mode`, then renames: never a readable key, never half a file.
    private static func writePEM(_ path: String, mode: mode_t, _ write: (OpaquePointer) -> Int32) throws {
        let temp = path + ".tmp"
        unlink(temp)
        let fd = open(temp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard fd >= 0 else { throw TLSError("cannot create \(temp): \(String(cString: strerror(errno)))") }
        fchmod(fd, mode)
        guard let bio = BIO_new_fd(fd, BIO_CLOSE) else { Glibc.close(fd); throw TLSError.fromQueue("BIO_new_fd failed") }
        let ok = write(bio) == 1 && messageai_bio_flush(bio) == 1
        if ok { fsync(fd) }
        BIO_free(bio)
        guard ok else { unlink(temp); throw TLSError.fromQueue("cannot write \(path)") }
        guard rename(temp, path) == 0 else { throw TLSError("cannot rename \(temp): \(String(cString: strerror(errno)))") }
    }

    static func isIP(_ host: String) -> Bool {
        var v4 = in_addr(), v6 = in6_addr()
        return inet_pton(AF_INET, host, &v4) == 1 || inet_pton(AF_INET6, host, &v6) == 1
    }
}
