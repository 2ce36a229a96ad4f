import Dispatch
import Prometheus
#if canImport(Glibc)
import Glibc
#endif

/// `--metrics-listen HOST:PORT`: a small HTTP/1.1 responder for Prometheus (`GET /metrics`) and
/// health checks (`GET /healthz`), on its own queue so a scrape never waits behind the hub.
///
/// Deliberately minimal (swift-prometheus has no HTTP server and NIO is not in the build): one
/// request per connection, answered and closed; requests over 8 KiB, or not complete within
/// 5 s, are dropped; at most 32 scrapers at once. It is meant for 127.0.0.1 or a private
/// network, like any Prometheus exporter: the text holds counts only, no names or addresses.
// @unchecked Sendable: `listener`, `clients` and `port` are touched only on `queue`.
public final class MetricsEndpoint: @unchecked Sendable {
    private let queue = DispatchQueue(label: "messageai.metrics")
    private let registry: PrometheusCollectorRegistry
    private let metrics: ServerMetrics
    /// Answers whether the store answers, within the time given (the hub runs the query).
    private let health: @Sendable (_ done: @escaping @Sendable (Bool) -> Void) -> Void
    private var listener: ListeningSocket?
    private var clients: [Int32: Scraper] = [:]

    // @unchecked Sendable: confined to `queue` like `clients`, which holds it.
    private final class Scraper: @unchecked Sendable {
        let source: DispatchSourceRead
        var request: [UInt8] = []
        var suspended = false
        init(_ source: DispatchSourceRead) { self.source = source }
    }
    public private(set) var port = 0

    init(registry: PrometheusCollectorRegistry, metrics: ServerMetrics, health: @escaping @Sendable (_ done: @escaping @Sendable (Bool) -> Void) -> Void) {
        self.registry = registry
        self.metrics = metrics
        self.health = health
    }

    /// Binds and starts answering; returns the port bound (useful with port 0).
    func start(host: String, port: Int) throws -> Int {
        try queue.sync {
            let socket = try ListeningSocket(host: host, port: port, backlog: 64)
            socket.start(on: queue) { [self] accepted in self.accept(accepted.fd) }
            listener = socket
            self.port = socket.port
            return socket.port
        }
    }

    private func accept(_ fd: Int32) {
        guard clients.count < 32 else { Glibc.close(fd); return }
        let source = DispatchSource.makeReadSource(fileDescriptor: fd, queue: queue)
        source.setEventHandler { [self] in self.readable(fd) }
        source.setCancelHandler { Glibc.close(fd) }
        let scraper = Scraper(source)
        clients[fd] = scraper
        source.resume()
        // The descriptor's number may belong to a later scraper by then: close only this one.
        queue.asyncAfter(deadline: .now() + .seconds(5)) { [self] in if clients[fd] === scraper { finish(fd) } }
    }

    private func readable(_ fd: Int32) {
        guard let client = clients[fd] else { return }
        var chunk = [UInt8](repeating: 0, count: 4096)
        let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if n < 0 && (errno == EAGAIN || errno == EINTR) { return }
        guard n > 0 else { finish(fd); return }
        client.request += chunk[..<n]
        guard let end = headerEnd(client.request) else {
            if client.request.count > 8192 { finish(fd) }
            return
        }
        client.suspended = true  // one request per connection: read no more
        client.source.suspend()
        respond(fd, requestLine: String(decoding: client.request[..<end], as: UTF8.self))
    }

    private func headerEnd(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for i in 0...(bytes.count - 4) where bytes[i] == 13 && bytes[i + 1] == 10 && bytes[i + 2] == 13 && bytes[i + 3] == 10 {
            return i
        }
        return nil
    }

    private func respond(_ fd: Int32, requestLine head: String) {
        let words = head.split(separator: "\r\n", maxSplits: 1).first?.split(separator: " ") ?? []
        guard words.count == 3, words[0] == "GET" || words[0] == "HEAD" else {
            return reply(fd, 405, "text/plain", Array("only GET\n".utf8), head: words.first == "HEAD")
        }
        let path = words[1].split(separator: "?", maxSplits: 1).first.map(String.init) ?? ""
        let headOnly = words[0] == "HEAD"
        switch path {
        case "/metrics":
            metrics.refreshUptime()
            reply(fd, 200, "text/plain; version=0.0.4; charset=utf-8", registry.emitToBuffer(), head: headOnly)
        case "/healthz":
            let scraper = clients[fd]
            health { [self] ok in
                queue.async { [self] in
                    guard clients[fd] === scraper else { return }  // timed out; the number may be reused
                    reply(fd, ok ? 200 : 503, "text/plain", Array((ok ? "ok\n" : "the store does not answer\n").utf8), head: headOnly)
                }
            }
        default:
            reply(fd, 404, "text/plain", Array("not found: /metrics and /healthz are served\n".utf8), head: headOnly)
        }
    }

    private func reply(_ fd: Int32, _ status: Int, _ type: String, _ body: [UInt8], head: Bool) {
        guard clients[fd] != nil else { return }
        let reason = [200: "OK", 404: "Not Found", 405: "Method Not Allowed", 503: "Service Unavailable"][status] ?? ""
        var bytes = Array("HTTP/1.1 \(status) \(reason)\r\nContent-Type: \(type)\r\nContent-Length: \(body.count)\r\nConnection: close\r\n\r\n".utf8)
        if !head { bytes += body }
        // A scrape is a few KiB: the socket takes it whole, or, for a scraper that does not
        // read, a 2 s send timeout ends the wait (the queue answers nobody else meanwhile).
        var flags = fcntl(fd, F_GETFL)
        flags &= ~O_NONBLOCK
        _ = fcntl(fd, F_SETFL, flags)
        var timeout = timeval(tv_sec: 2, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var sent = 0
        while sent < bytes.count {
            let n = bytes.withUnsafeBytes { send(fd, $0.baseAddress! + sent, bytes.count - sent, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { break }
            sent += n
        }
        finish(fd)
    }

    private func finish(_ fd: Int32) {
        guard let client = clients.removeValue(forKey: fd) else { return }
        shutdown(fd, Int32(SHUT_WR))
        if client.suspended { client.source.resume() }  // a suspended source must not be cancelled
        client.source.cancel()
    }

    public func stop() {
        queue.sync {
            listener?.stop()
            listener = nil
            for fd in Array(clients.keys) { finish(fd) }
        }
    }
}
