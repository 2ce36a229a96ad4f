import PostgresNIO

/// TLS to the database, from the URL's `sslmode` (and `sslrootcert`), as libpq reads them:
///
/// | sslmode       | TLS                         | certificate checked                          |
/// |---------------|-----------------------------|----------------------------------------------|
/// | `disable`     | never                       | -                                            |
/// | `prefer`      | if the server offers it     | no (like libpq: stops passive eavesdropping only) |
/// | `require`     | always, else no connection  | no; with `sslrootcert`, as `verify-ca` (libpq does the same) |
/// | `verify-ca`   | always                      | chains to `sslrootcert` (else the system's CAs) |
/// | `verify-full` | always                      | chains, and names the host                   |
///
/// `prefer` differs from libpq in one point: PostgresNIO falls back to plain text only when the
/// server answers that it has no TLS; a TLS handshake that fails fails the connection, where
/// libpq would retry without TLS. Over a unix socket TLS is never used (PostgreSQL does not
/// offer it there, and libpq ignores `sslmode` for sockets too).
public enum TLSPolicy: Sendable, Equatable {
    case disable
    case prefer
    /// `rootCertificate` nil: the system's trust store (for `verify-*`), or no check (`require`).
    case require(verification: Verification, rootCertificate: String?)

    public enum Verification: Sendable, Equatable {
        case none
        case certificateChain
        case chainAndHostname
    }

    public init(_ url: DatabaseURL) {
        switch url.sslMode {
        case .disable: self = .disable
        case .prefer: self = .prefer
        case .require: self = .require(verification: url.sslRootCert == nil ? .none : .certificateChain, rootCertificate: url.sslRootCert)
        case .verifyCA: self = .require(verification: .certificateChain, rootCertificate: url.sslRootCert)
        case .verifyFull: self = .require(verification: .chainAndHostname, rootCertificate: url.sslRootCert)
        }
    }

    /// NIOSSL's client configuration for this policy (TLS 1.2 or newer).
    func tlsConfiguration() -> TLSConfiguration {
        var tls = TLSConfiguration.makeClientConfiguration()
        switch self {
        case .disable, .prefer:
            tls.certificateVerification = .none
        case .require(let verification, let root):
            switch verification {
            case .none: tls.certificateVerification = .none
            case .certificateChain: tls.certificateVerification = .noHostnameVerification
            case .chainAndHostname: tls.certificateVerification = .fullVerification
            }
            if let root { tls.trustRoots = .file(root) }
        }
        return tls
    }

    var clientTLS: PostgresClient.Configuration.TLS {
        switch self {
        case .disable: .disable
        case .prefer: .prefer(tlsConfiguration())
        case .require: .require(tlsConfiguration())
        }
    }

    var connectionTLS: PostgresConnection.Configuration.TLS {
        get throws {
            switch self {
            case .disable: .disable
            case .prefer: .prefer(try NIOSSLContext(configuration: tlsConfiguration()))
            case .require: .require(try NIOSSLContext(configuration: tlsConfiguration()))
            }
        }
    }
}
