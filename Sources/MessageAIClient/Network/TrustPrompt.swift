import Foundation
import MessageAITLS
#if canImport(Glibc)
import Glibc
#endif

/// Trust on first use, before the client starts: one probe connection to the server. A
/// certificate that a CA vouches for, or that the user accepted before, passes silently. An
/// unknown one is shown with its fingerprint and, on a terminal, the user is asked, SSH style;
/// "yes" saves it to known_servers. A changed one is refused loudly, never asked about. When
/// the server cannot be reached, the client starts anyway (it works offline and the link
/// applies the same rules when the server comes back).
public enum TrustPrompt {
    /// Returns normally when the client may start; exits (status 1) otherwise.
    public static func ensureTrusted(_ config: ClientConfiguration, interactive: Bool) {
        var tls = config.tls
        guard !tls.plaintext, tls.pinnedFingerprint == nil else { return }
        // Several nodes: the first that answers is asked about; the others then trust the same
        // certificate through the sibling rule (TLSConnect).
        guard let (address, fd) = config.servers.lazy.compactMap({ a -> (ServerAddress, Int32)? in
            guard case .success(let fd) = SocketConnect.connect(host: a.host, port: a.port, timeoutMs: 3000) else { return nil }
            return (a, fd)
        }).first else { return }
        defer { close(fd) }
        tls.siblings = config.servers.filter { $0 != address }
        switch TLSConnect.handshake(fd: fd, host: address.host, port: address.port, settings: tls, timeoutMs: 5000) {
        case .success(let (session, _)):
            session.shutdown()
        case .failure(.untrusted(let host, let port, let fingerprint, let reason)) where interactive:
            if ask(host: host, port: port, fingerprint: fingerprint, reason: reason) {
                do {
                    try KnownServers.save(tls.knownServersPath, host: host, port: port, fingerprint: fingerprint)
                    fputs("Saved \(KnownServers.key(host: host, port: port)) to \(tls.knownServersPath).\n", stderr)
                } catch {
                    fputs("messageai: \(error)\n", stderr)
                    exit(1)
                }
            } else {
                fputs("messageai: not connecting to an untrusted server; nothing saved.\n", stderr)
                exit(1)
            }
        case .failure(.failed):
            return // unreachable or broken now: the link reports it and retries
        case .failure(let failure):
            fputs("messageai: \(failure.message)\n", stderr)
            exit(1)
        }
    }

    private static func ask(host: String, port: UInt16, fingerprint: String, reason: String) -> Bool {
        fputs("""
            The certificate of \(host):\(port) cannot be verified (\(reason)).
            Its SHA-256 fingerprint is:
                \(fingerprint)
            Compare it with what the server's admin gets from `messageai-server --print-fingerprint`.

            """, stderr)
        while true {
            fputs("Trust this server and remember it (yes/no)? ", stderr)
            fflush(stderr)
            guard let line = readLine(strippingNewline: true) else { return false }
            switch line.trimmingCharacters(in: .whitespaces).lowercased() {
            case "yes": return true
            case "no", "n": return false
            default: fputs("Please type 'yes' or 'no'.\n", stderr)
            }
        }
    }
}
