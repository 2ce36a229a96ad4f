import Foundation
import Logging
import Prometheus

extension ServerProcess {
    /// `--metrics-listen HOST:PORT` split into host and port: `127.0.0.1:9464`, `[::1]:9464`.
    public static func parseListenAddress(_ text: String) -> (host: String, port: Int)? {
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]),
              (0...65535).contains(port) else { return nil }
        var host = String(text[..<colon])
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.isEmpty, host.contains(":") == text.hasPrefix("[") else { return nil }
        return (host, port)
    }

    /// The metrics objects for the server: Prometheus-backed with `--metrics-listen`, else no-ops.
    static func makeMetrics(_ options: Options) -> (ServerMetrics, PrometheusCollectorRegistry?) {
        guard options.metricsListen != nil else { return (.off, nil) }
        let registry = PrometheusCollectorRegistry()
        return (ServerMetrics(factory: PrometheusFactory(registry: registry)), registry)
    }

    /// Starts the HTTP responder and prints `metrics on HOST:PORT` (stderr) once it listens.
    static func startMetrics(_ options: Options, registry: PrometheusCollectorRegistry?, metrics: ServerMetrics,
                             server: ChatServer, logger: Logger) -> MetricsEndpoint? {
        guard let text = options.metricsListen, let registry, let address = parseListenAddress(text) else { return nil }
        let (host, port) = address
        let endpoint = MetricsEndpoint(registry: registry, metrics: metrics, health: { done in server.checkHealth(done) })
        do {
            let bound = try endpoint.start(host: host, port: port)
            let shown = host.contains(":") ? "[\(host)]" : host
            logger.notice("metrics: http://\(shown):\(bound)/metrics and /healthz")
            StandardError.write("metrics on \(shown):\(bound)\n")
            return endpoint
        } catch {
            StandardError.write("messageai-server: --metrics-listen \(text): \(error)\n")
            exit(1)
        }
    }
}
