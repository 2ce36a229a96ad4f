import Foundation
import Logging
import MessageAITLS
#if canImport(Glibc)
import Glibc
#endif

/// How the server process gets its TLS certificate.
public enum TLSMode: Sendable, Equatable {
    /// `--plaintext`: the plain protocol, no TLS.
    case plaintext
    /// `--tls-cert` and `--tls-key`.
    case files(TLSFiles)
    /// Neither: a self-signed certificate in the data directory, made on first start for these
    /// names (plus the listening address, localhost and the machine's host name).
    case selfSigned(extraNames: [String])
}

extension ServerProcess {
    public static let generatedCertificateName = "tls-cert.pem"
    public static let generatedKeyName = "tls-key.pem"

    /// True for addresses only this machine can reach (where `--plaintext` is allowed alone).
    public static func isLoopback(_ host: String) -> Bool {
        host == "localhost" || host == "::1" || host.hasPrefix("127.")
    }

    /// The files to serve, generating the self-signed pair when there is none yet. Nil in plaintext.
    static func tlsFiles(_ options: Options, logger: Logger) throws -> TLSFiles? {
        switch options.tls {
        case .plaintext: return nil
        case .files(let files): return files
        case .selfSigned(let extra):
            let files = TLSFiles(certificatePath: options.dataDirectory + "/" + generatedCertificateName,
                                 keyPath: options.dataDirectory + "/" + generatedKeyName)
            let fm = FileManager.default
            if fm.fileExists(atPath: files.certificatePath) && fm.fileExists(atPath: files.keyPath) { return files }
            let names = certificateNames(host: options.configuration.host, extra: extra)
            let fingerprint = try SelfSignedCertificate.generate(hosts: names, certificatePath: files.certificatePath,
                                                                 keyPath: files.keyPath)
            logger.notice("generated a self-signed TLS certificate for \(names.joined(separator: ", ")) in \(files.certificatePath) (SHA-256 \(fingerprint))")
            return files
        }
    }

    static func certificateNames(host: String, extra: [String]) -> [String] {
        var names = extra
        var buf = [CChar](repeating: 0, count: 256)
        if gethostname(&buf, buf.count) == 0 { names.append(String(decoding: buf.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)) }
        if host != "0.0.0.0" && host != "::" { names.insert(host, at: 0) }
        names += ["localhost", "127.0.0.1", "::1"]
        var seen = Set<String>()
        return names.filter { !$0.isEmpty && seen.insert($0.lowercased()).inserted }
    }

    /// `--print-fingerprint`: prints the SHA-256 fingerprint of the certificate a server started
    /// with the same flags would serve, on stdout, and exits. It only reads: an admin who forgets
    /// `--tls-cert` must not get a new self-signed certificate (and a fingerprint nobody is served)
    /// written into the data directory, nor a directory created by a typo (issue 27).
    public static func printFingerprint(_ options: Options) -> Never {
        let path: String
        switch options.tls {
        case .plaintext:
            StandardError.write("messageai-server: --plaintext serves no certificate\n")
            exit(1)
        case .files(let files):
            path = files.certificatePath
        case .selfSigned:
            path = options.dataDirectory + "/" + generatedCertificateName
            guard FileManager.default.fileExists(atPath: path) else {
                StandardError.write("""
                    messageai-server: no certificate yet in \(options.dataDirectory) (nothing was written).
                    A server started with --data-dir \(options.dataDirectory) and no --tls-cert makes a self-signed one there on \
                    its first start; run --print-fingerprint again after that. If the server runs with --tls-cert FILE, \
                    pass the same --tls-cert FILE (and --tls-key) here.

                    """)
                exit(1)
            }
        }
        do {
            print(try SelfSignedCertificate.fingerprint(ofFile: path))
            exit(0)
        } catch {
            StandardError.write("messageai-server: cannot read the certificate \(path): \(error)\n")
            exit(1)
        }
    }

    /// SIGHUP reloads the certificate and key (a renewed Let's Encrypt chain) without a restart.
    static func reloadOnHangup(_ server: ChatServer, queue: DispatchQueue, logger: Logger,
                               also: (@Sendable (ChatServer) -> Void)? = nil) -> DispatchSourceSignal {
        signal(SIGHUP, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: SIGHUP, queue: queue)
        source.setEventHandler {
            // The settings of --config first (log level, rate limits), then the certificate.
            also?(server)
            if server.configuration.tls == nil { logger.notice("SIGHUP: no certificate to reload (plaintext)"); return }
            server.reloadTLS()
        }
        source.resume()
        return source
    }
}
