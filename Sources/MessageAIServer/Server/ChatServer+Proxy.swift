#if canImport(Glibc)
import Glibc
#endif

extension ChatServer {
    /// A connection from a trusted balancer (`--trusted-proxy`): its PROXY v2 header is read
    /// first, then the connection is served as the client's, under the address the header gives,
    /// so throttles, registration limits, logs and `admin sessions` see the client. A connection
    /// without a valid header is closed with one log line: served under the balancer's address
    /// it would put everyone behind that balancer into one per-address limit.
    func readProxyHeader(_ accepted: ListeningSocket.Accepted, then serve: @escaping (ListeningSocket.Accepted) -> Void) {
        let timeout = Int(min(configuration.frameTimeoutMillis, 10_000))
        ProxyHeaderReader(fd: accepted.fd).start(on: queue, timeoutMillis: timeout) { [self] outcome in
            switch outcome {
            case .source(let client):
                serve(ListeningSocket.Accepted(fd: accepted.fd, address: client ?? accepted.address))
            case .failed(let why):
                logger.warning("connection from trusted proxy \(accepted.address) refused: \(why)")
                _ = Glibc.close(accepted.fd)
            }
        }
    }
}
