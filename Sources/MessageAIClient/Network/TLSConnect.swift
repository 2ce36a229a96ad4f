import Foundation
import MessageAITLS
#if canImport(Glibc)
import Glibc
#endif

/// Why a TLS connection was not made; `untrusted` and `changed` carry what the user needs to
/// decide (trust on first use).
enum TLSConnectFailure: Error {
    case failed(String)
    /// Not verified by a CA and not in known_servers: the fingerprint to show and ask about.
    case untrusted(host: String, port: UInt16, fingerprint: String, reason: String)
    /// In known_servers with another fingerprint: refused, never asked.
    case changed(host: String, port: UInt16, known: String, presented: String, file: String)
    case pinMismatch(expected: String, presented: String)

    var message: String {
        switch self {
        case .failed(let m): return m
        case let .untrusted(host, port, fp, reason):
            return """
                the certificate of \(host):\(port) is not trusted (\(reason)). Its SHA-256 fingerprint is \(fp). \
                Check it with the server's admin (messageai-server --print-fingerprint), then start messageai on a \
                terminal to accept it, or pass --tls-fingerprint \(fp)
                """
        case let .changed(host, port, known, presented, file):
            return """
                WARNING: THE CERTIFICATE OF \(host):\(port) HAS CHANGED, refusing to connect. Someone may be \
                intercepting the connection, or the admin replaced the certificate. Known fingerprint: \(known); \
                presented now: \(presented). If the admin confirms the new one, delete the line \
                '\(KnownServers.key(host: host, port: port))' from \(file) and connect again to accept it \
                (or pass --tls-fingerprint \(presented))
                """
        case let .pinMismatch(expected, presented):
            return "the server's certificate fingerprint \(presented) is not the one given with --tls-fingerprint (\(expected)); refusing to connect"
        }
    }
}

enum TLSConnect {
    /// One client context per process (loading the system CA store takes a few ms).
    nonisolated(unsafe) private static var contexts: [String: TLSContext] = [:]
    private static let lock = NSLock()

    static func context(caFile: String?) throws -> TLSContext {
        lock.lock(); defer { lock.unlock() }
        if let c = contexts[caFile ?? ""] { return c }
        let c = try TLSContext.client(caFile: caFile)
        contexts[caFile ?? ""] = c
        return c
    }

    /// Handshakes on the connected non-blocking `fd` (blocking this background thread, up to
    /// `timeoutMs`), then decides trust: --tls-fingerprint, else the CA chain and host name,
    /// else known_servers. On failure the caller closes `fd`.
    static func handshake(fd: Int32, host: String, port: UInt16, settings: TLSSettings,
                          timeoutMs: Int32) -> Result<(TLSSession, TLSInfo), TLSConnectFailure> {
        let session: TLSSession
        do {
            session = try TLSSession(context: try context(caFile: settings.caFile), fileDescriptor: fd, isServer: false)
        } catch {
            return .failure(.failed("TLS: \(error)"))
        }
        session.prepareClient(host: host)
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(timeoutMs) * 1_000_000
        while true {
            let outcome = session.handshake()
            var events: Int16
            switch outcome {
            case .done: return trust(session, host: host, port: port, settings: settings)
            case .wantRead: events = Int16(POLLIN)
            case .wantWrite: events = Int16(POLLOUT)
            case .closed:
                return .failure(.failed("the server closed the connection during the TLS handshake (is it a plaintext server? then use --plaintext)"))
            case .failed(let why):
                return .failure(.failed(explain(why)))
            }
            let now = DispatchTime.now().uptimeNanoseconds
            guard now < deadline else { return .failure(.failed("the TLS handshake timed out")) }
            var p = pollfd(fd: fd, events: events, revents: 0)
            _ = poll(&p, 1, Int32(max(1, (deadline - now) / 1_000_000)))
        }
    }

    /// OpenSSL's words for the usual mistakes, in the user's terms.
    private static func explain(_ why: String) -> String {
        if why.contains("wrong version number") || why.contains("packet length too long") || why.contains("record layer failure") {
            return "\(why): the server did not answer in TLS; if it runs with --plaintext, connect with --plaintext"
        }
        if why.contains("no application protocol") { return "\(why): that port is not a MessageAI server" }
        return why
    }

    private static func trust(_ session: TLSSession, host: String, port: UInt16,
                              settings: TLSSettings) -> Result<(TLSSession, TLSInfo), TLSConnectFailure> {
        guard let fp = session.peerFingerprint else { return .failure(.failed("the server presented no certificate")) }
        func info(_ by: String) -> TLSInfo {
            TLSInfo(version: session.version, cipher: session.cipher, fingerprint: fp, alpn: session.alpn, trustedBy: by)
        }
        if let pinned = settings.pinnedFingerprint {
            return pinned == fp ? .success((session, info("--tls-fingerprint"))) : .failure(.pinMismatch(expected: pinned, presented: fp))
        }
        guard let failure = session.verificationFailure else { return .success((session, info("certificate authority"))) }
        switch KnownServers.lookup(settings.knownServersPath, host: host, port: port) {
        case fp?: return .success((session, info("known server (\(settings.knownServersPath))")))
        case let known?:
            return .failure(.changed(host: host, port: port, known: known, presented: fp, file: settings.knownServersPath))
        case nil:
            // Trusted for another node of the same list: the same service (all nodes serve one
            // certificate), so trusted here too, and remembered for this address.
            if let sibling = settings.siblings.first(where: {
                KnownServers.lookup(settings.knownServersPath, host: $0.host, port: $0.port) == fp
            }) {
                try? KnownServers.save(settings.knownServersPath, host: host, port: port, fingerprint: fp)
                return .success((session, info("known server \(sibling) (\(settings.knownServersPath))")))
            }
            return .failure(.untrusted(host: host, port: port, fingerprint: fp, reason: failure))
        }
    }
}
