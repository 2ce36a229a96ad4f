import Glibc
import Histogram

/// Latencies in nanoseconds, reported in microseconds. Up to 10 minutes, 3 significant digits.
typealias LatencyHistogram = Histogram<UInt64>

func makeLatencyHistogram() -> LatencyHistogram {
    LatencyHistogram(lowestDiscernibleValue: 1, highestTrackableValue: 600_000_000_000, numberOfSignificantValueDigits: .three)
}

/// CPU and memory around a measured phase.
struct Measurement {
    let serverPID: pid_t?
    let start: ProcessStats
    let startNanos = nowNanos()
    init(serverPID: pid_t?) { self.serverPID = serverPID; start = .sample(serverPID: serverPID) }

    func finish(into r: inout WorkloadResult, endNanos: UInt64 = nowNanos()) {
        let end = ProcessStats.sample(serverPID: serverPID)
        r.seconds = seconds(endNanos &- startNanos)
        if let a = start.serverCPUSeconds, let b = end.serverCPUSeconds { r.serverCPUSeconds = b - a }
        r.serverRSSKiB = end.serverRSSKiB
        r.generatorCPUSeconds = end.generatorCPUSeconds - start.generatorCPUSeconds
        if let a = start.databaseCPUSeconds, let b = end.databaseCPUSeconds { r.databaseCPUSeconds = b - a }
    }
}

/// One workload's figures: what the table and the RESULT line print.
struct WorkloadResult {
    var workload: String
    var title: String
    var latency = makeLatencyHistogram()
    /// Unit of work counted for the throughput column, e.g. "msgs", "deliveries", "logins".
    var unit = "msgs"
    var count = 0
    var seconds = 0.0
    var serverCPUSeconds: Double?
    var serverRSSKiB: Int?
    /// PostgreSQL's processes, when the server stores there (nil on SQLite: it is in the server).
    var databaseCPUSeconds: Double?
    var generatorCPUSeconds = 0.0
    var complete = false
    var error: String?
    /// Workload-specific figures, printed in the RESULT line in this order.
    var extra: [(String, String)] = []

    init(workload: String, title: String) { self.workload = workload; self.title = title }

    var throughput: Double { seconds > 0 ? Double(count) / seconds : 0 }

    func micros(_ p: Double) -> Double { Double(latency.valueAtPercentile(p)) / 1000 }

    var resultLine: String {
        var s = "RESULT workload=\(workload) store=\(BenchStore.name)"
        if latency.totalCount > 0 {
            s += " p50_us=\(fmt(micros(50), 1)) p90_us=\(fmt(micros(90), 1)) p99_us=\(fmt(micros(99), 1))"
            s += " p999_us=\(fmt(micros(99.9), 1)) max_us=\(fmt(Double(latency.max) / 1000, 1)) mean_us=\(fmt(latency.mean / 1000, 1))"
            s += " samples=\(latency.totalCount)"
        }
        s += " \(unit)=\(count) secs=\(fmt(seconds, 3)) \(unit)_per_s=\(fmt(throughput, 0))"
        s += " server_cpu_s=\(serverCPUSeconds.map { fmt($0, 2) } ?? "na")"
        s += " server_rss_kb=\(serverRSSKiB.map(String.init) ?? "na") gen_cpu_s=\(fmt(generatorCPUSeconds, 2))"
        if let db = databaseCPUSeconds { s += " db_cpu_s=\(fmt(db, 2))" }
        for (k, v) in extra { s += " \(k)=\(v)" }
        s += " complete=\(complete ? 1 : 0)"
        if let error { s += " error=\"\(String(error.map { $0 == "\"" || $0 == "\n" ? "'" : $0 }))\"" }
        return s
    }
}

func fmt(_ v: Double, _ decimals: Int) -> String {
    guard v.isFinite else { return "na" }
    var buf = [CChar](repeating: 0, count: 64)
    _ = withVaList([v]) { vsnprintf(&buf, 64, "%.\(decimals)f", $0) }
    return String(cString: buf)
}

/// The human table: one row per workload, then the notes each workload added.
func printTable(_ results: [WorkloadResult]) {
    let header = ["workload", "p50 us", "p99 us", "p999 us", "throughput", "srv CPU s", "srv RSS MiB", "gen CPU s", "secs", "ok"]
    var rows = [header]
    for r in results {
        let has = r.latency.totalCount > 0
        rows.append([
            r.workload + " " + r.title,
            has ? fmt(r.micros(50), 1) : "-", has ? fmt(r.micros(99), 1) : "-", has ? fmt(r.micros(99.9), 1) : "-",
            "\(fmt(r.throughput, 0)) \(r.unit)/s",
            r.serverCPUSeconds.map { fmt($0, 2) } ?? "na",
            r.serverRSSKiB.map { fmt(Double($0) / 1024, 1) } ?? "na",
            fmt(r.generatorCPUSeconds, 2), fmt(r.seconds, 2), r.complete ? "yes" : "NO",
        ])
    }
    let widths = header.indices.map { i in rows.map { $0[i].count }.max() ?? 0 }
    for (n, row) in rows.enumerated() {
        let line = row.enumerated().map { i, cell in
            i == 0 ? cell.padding(toLength: widths[i]) : String(repeating: " ", count: widths[i] - cell.count) + cell
        }.joined(separator: "  ")
        print(line)
        if n == 0 { print(String(repeating: "-", count: line.count)) }
    }
    for r in results {
        let notes = r.extra.map { "\($0.0)=\($0.1)" }.joined(separator: " ")
        if !notes.isEmpty { print("  \(r.workload): \(notes)") }
        if let e = r.error { print("  \(r.workload) ERROR: \(e)") }
    }
}

extension String {
    func padding(toLength n: Int) -> String { count >= n ? self : self + String(repeating: " ", count: n - count) }
}

/// TLS beside plaintext: for each workload run both ways, the TLS figure over the plaintext one
/// (1.20 = TLS costs 20 % more). Ratios, because absolute figures on a shared machine drift.
func printTLSRatios(_ results: [WorkloadResult]) {
    let pairs = results.compactMap { t -> (WorkloadResult, WorkloadResult)? in
        guard t.workload.hasSuffix("+TLS"), let p = results.first(where: { $0.workload + "+TLS" == t.workload }) else { return nil }
        return (p, t)
    }
    guard !pairs.isEmpty else { return }
    print("")
    print("TLS / plaintext (same run):")
    for (p, t) in pairs {
        func perUnit(_ r: WorkloadResult) -> Double? { r.serverCPUSeconds.map { $0 / Double(max(r.count, 1)) } }
        var parts: [String] = []
        if let a = perUnit(p), let b = perUnit(t), a > 0 {
            parts.append("server CPU per \(["msgs": "message", "deliveries": "delivery", "logins": "login"][p.unit] ?? p.unit) \(fmt(b / a, 2)) (\(fmt(a * 1e6, 1)) -> \(fmt(b * 1e6, 1)) us)")
        }
        if p.throughput > 0 { parts.append("\(p.unit)/s \(fmt(t.throughput / p.throughput, 2))") }
        if p.latency.totalCount > 0, t.latency.totalCount > 0 { parts.append("p50 \(fmt(t.micros(50) / p.micros(50), 2))") }
        let rss = { (r: WorkloadResult) in r.extra.first { $0.0 == "rss_per_conn_B" }.flatMap { Double($0.1) } }
        if let a = rss(p), let b = rss(t), a > 0 { parts.append("RSS per idle connection \(fmt(b / a, 2)) (\(fmt(a, 0)) -> \(fmt(b, 0)) B)") }
        print("  \(p.workload): " + parts.joined(separator: ", "))
    }
}
