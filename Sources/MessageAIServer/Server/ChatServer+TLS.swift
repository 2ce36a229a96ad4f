import Dispatch
import Logging
import MessageAITLS
#if canImport(Glibc)
import Glibc
#endif

/// The certificate chain (PEM, leaf first) and private key the server serves.
public struct TLSFiles: Sendable, Equatable {
    public var certificatePath: String
    public var keyPath: String
    public init(certificatePath: String, keyPath: String) {
        self.certificatePath = certificatePath; self.keyPath = keyPath
    }

    func load() throws -> TLSContext {
        try TLSContext.server(certificatePath: certificatePath, keyPath: keyPath)
    }
}

extension ChatServer {
    /// The fingerprint of the certificate being served, nil in plaintext.
    public var tlsFingerprint: String? { queue.sync { tlsContext?.fingerprint } }

    /// TLS when the server has a certificate, else the plain protocol.
    func makeTransport(_ accepted: ListeningSocket.Accepted) -> ByteTransport? {
        guard let context = tlsContext else { return PlaintextTransport(fileDescriptor: accepted.fd) }
        do {
            let transport = try TLSTransport(fileDescriptor: accepted.fd, context: context)
            let counter = metrics.handshakesOK
            transport.onHandshake = { counter.increment() }
            return transport
        } catch {
            logger.error("connection from \(accepted.address) refused: \(error)")
            _ = Glibc.close(accepted.fd)
            return nil
        }
    }

    /// Reads the certificate and key again (SIGHUP: a renewed certificate). Connections already
    /// open keep the session they have; new ones get the new certificate. A file that does not
    /// load leaves the old one in service.
    public func reloadTLS(completion: @escaping @Sendable (Result<String, Error>) -> Void = { _ in }) {
        guard let files = configuration.tls else { completion(.failure(TLSError("the server runs without TLS"))); return }
        passwordQueue.async { [self] in
            let result = Handoff(Result { try files.load() })
            queue.async { [self] in
                switch result.value {
                case .success(let context):
                    tlsContext = context
                    logger.notice("TLS certificate reloaded from \(files.certificatePath); SHA-256 fingerprint \(context.fingerprint)")
                    completion(.success(context.fingerprint))
                case .failure(let error):
                    logger.error("TLS reload failed, still serving the previous certificate: \(error)")
                    completion(.failure(error))
                }
            }
        }
    }
}
