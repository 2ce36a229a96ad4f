import CoreMetrics
import Dispatch

/// What the server counts for `--metrics-listen` (issue 27), through the swift-metrics API.
///
/// The objects are made from an explicit factory rather than `MetricsSystem.bootstrap`: tests run
/// several servers in one process, and a server started without `--metrics-listen` gets the no-op
/// factory, so every hook below costs a call that does nothing.
///
/// Labels carry only fixed words (`tls`, `ok`, ...): never a username, message text or address,
/// which would also make the number of series grow with the users.
public final class ServerMetrics: @unchecked Sendable {
    /// Name, help text and (for histograms) buckets of each metric: the Prometheus factory
    /// writes them as `# HELP` lines, which `promtool check metrics` requires.
    static let catalog: [String: (help: String, buckets: [Duration])] = [
        "messageai_connections_open": ("Open client connections, by transport.", []),
        "messageai_connections_accepted_total": ("Client connections accepted, by transport.", []),
        "messageai_tls_handshakes_total": ("TLS handshakes, by result.", []),
        "messageai_logins_total": ("Logins and session resumes, by result.", []),
        "messageai_registrations_total": ("Accounts registered.", []),
        "messageai_messages_accepted_total": ("Messages committed and acknowledged (duplicates of stored ones excluded).", []),
        "messageai_deliveries_total": ("Messages pushed to recipients' open connections.", []),
        "messageai_ack_latency_seconds": ("From a SEND taken by its handler to its acknowledgement queued, after the commit.", latencyBuckets),
        "messageai_store_commit_seconds": ("Duration of a group commit of messages in the store.", latencyBuckets),
        "messageai_output_overflows_total": ("Connections cut off for not reading their output.", []),
        "messageai_rate_limited_total": ("Messages refused by the per-user rate limit.", []),
        "messageai_assistant_queue_depth": ("Messages waiting for the assistant's extraction.", []),
        "messageai_assistant_provider_calls_total": ("Calls to the language model started (summaries, rewrites, extraction).", []),
        "messageai_file_bytes_received_total": ("Bytes of file uploads received.", []),
        "messageai_file_bytes_sent_total": ("Bytes of files and thumbnails sent to clients.", []),
        "messageai_uptime_seconds": ("Seconds since the server started.", []),
        "messageai_users_online": ("Users with at least one logged-in connection.", []),
    ]

    /// 100 µs to 10 s: an ack is a millisecond or two on a quiet server, seconds when a disk stalls.
    static let latencyBuckets: [Duration] = [
        .microseconds(100), .microseconds(250), .microseconds(500), .milliseconds(1), .milliseconds(2),
        .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100),
        .milliseconds(250), .milliseconds(500), .seconds(1), .milliseconds(2500), .seconds(10),
    ]

    let connectionsOpenTLS, connectionsOpenPlain: Meter
    let acceptedTLS, acceptedPlain: Counter
    let handshakesOK, handshakesFailed: Counter
    let loginsOK, loginsFailed: Counter
    let registrations: Counter
    let messagesAccepted: Counter
    let deliveries: Counter
    let ackLatency: Timer
    let commitLatency: Timer
    let outputOverflows: Counter
    let rateLimited: Counter
    let assistantQueueDepth: Meter
    let providerCalls: Counter
    let fileBytesIn, fileBytesOut: Counter
    let uptime: Meter
    let usersOnline: Meter
    private let startedAt = DispatchTime.now().uptimeNanoseconds

    /// The metrics of a server without `--metrics-listen`: every call does nothing.
    public static var off: ServerMetrics { ServerMetrics(factory: NOOPMetricsHandler.instance) }

    public init(factory: MetricsFactory) {
        func counter(_ name: String, _ dims: [(String, String)] = []) -> Counter {
            Counter(label: name, dimensions: dims, factory: factory)
        }
        func meter(_ name: String, _ dims: [(String, String)] = []) -> Meter {
            Meter(label: name, dimensions: dims, factory: factory)
        }
        connectionsOpenTLS = meter("messageai_connections_open", [("transport", "tls")])
        connectionsOpenPlain = meter("messageai_connections_open", [("transport", "plaintext")])
        acceptedTLS = counter("messageai_connections_accepted_total", [("transport", "tls")])
        acceptedPlain = counter("messageai_connections_accepted_total", [("transport", "plaintext")])
        handshakesOK = counter("messageai_tls_handshakes_total", [("result", "ok")])
        handshakesFailed = counter("messageai_tls_handshakes_total", [("result", "failed")])
        loginsOK = counter("messageai_logins_total", [("result", "ok")])
        loginsFailed = counter("messageai_logins_total", [("result", "failed")])
        registrations = counter("messageai_registrations_total")
        messagesAccepted = counter("messageai_messages_accepted_total")
        deliveries = counter("messageai_deliveries_total")
        ackLatency = Timer(label: "messageai_ack_latency_seconds", dimensions: [], factory: factory)
        commitLatency = Timer(label: "messageai_store_commit_seconds", dimensions: [], factory: factory)
        outputOverflows = counter("messageai_output_overflows_total")
        rateLimited = counter("messageai_rate_limited_total")
        assistantQueueDepth = meter("messageai_assistant_queue_depth")
        providerCalls = counter("messageai_assistant_provider_calls_total")
        fileBytesIn = counter("messageai_file_bytes_received_total")
        fileBytesOut = counter("messageai_file_bytes_sent_total")
        uptime = meter("messageai_uptime_seconds")
        usersOnline = meter("messageai_users_online")
    }

    /// Gauges read at scrape time rather than kept up to date on every event.
    func refreshUptime() {
        uptime.set(Double(DispatchTime.now().uptimeNanoseconds - startedAt) / 1e9)
    }

    /// Nanoseconds on the monotonic clock, the unit of the latency timers.
    static var now: UInt64 { DispatchTime.now().uptimeNanoseconds }

    func recordAck(since start: UInt64) {
        ackLatency.recordNanoseconds(Int64(clamping: ServerMetrics.now &- start))
    }
}
