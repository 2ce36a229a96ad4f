import Foundation
import MessageAITLS
import MessageAISocket
#if canImport(Glibc)
import Glibc
#endif

/// Opening a TCP connection (`Sockets.connect`, shared with the server and the load tools:
/// every address of the name, IPv6 and IPv4). Runs on a background queue because name
/// resolution and connect may block; the caller gets a connected, non-blocking fd or the
/// reason it failed.
enum SocketConnect {
    static func connect(host: String, port: UInt16, timeoutMs: Int32) -> Result<Int32, ConnectError> {
        Sockets.connect(host: host, port: port, timeoutMs: timeoutMs).mapError { ConnectError(message: $0.message) }
    }
}

struct ConnectError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}

extension SocketConnect {
    /// A connected socket, with its TLS session unless the link is `--plaintext`.
    struct Secured {
        let fd: Int32
        let session: TLSSession?
        let info: TLSInfo?
    }

    /// The TLS handshake and trust decision on a connected socket (background queue); closes
    /// `fd` when it fails. Plaintext passes the socket through.
    static func secure(fd: Int32, host: String, port: UInt16, tls: TLSSettings, timeoutMs: Int32) -> Result<Secured, ConnectError> {
        if tls.plaintext { return .success(Secured(fd: fd, session: nil, info: nil)) }
        switch TLSConnect.handshake(fd: fd, host: host, port: port, settings: tls, timeoutMs: timeoutMs) {
        case .success(let (session, info)):
            return .success(Secured(fd: fd, session: session, info: info))
        case .failure(let failure):
            close(fd)
            return .failure(ConnectError(message: failure.message))
        }
    }
}
