import Glibc
import MessageAITLS

/// The TLS client context while a workload runs over TLS; nil: plaintext. One thread uses it.
nonisolated(unsafe) var benchTLSContext: TLSContext?

/// Runs the chosen workloads, each against a fresh server (started here) or all against the
/// given one, then prints the table and one RESULT line per workload. Returns the exit status.
struct Bench {
    let config: Configuration

    func run() -> Int32 {
        signal(SIGPIPE, SIG_IGN)
        stopServerOnSignals()
        _ = raiseFileLimit()  // before any server starts, so it inherits the limit too
        var results: [WorkloadResult] = []
        for name in config.workloads {
            for tls in config.tlsWorkloads.contains(name) ? [false, true] : [false] {
                let label = name + (tls ? "+tls" : "")
                log("\(label): starting")
                let t0 = nowNanos()
                var rows: [WorkloadResult]
                do {
                    benchTLSContext = tls ? try TLSContext.client(caFile: nil) : nil
                    rows = try runOne(name, tls: tls)
                } catch {
                    var failed = WorkloadResult(workload: name.uppercased(), title: "failed")
                    failed.error = "\(error)"
                    rows = [failed]
                }
                benchTLSContext = nil
                if tls { for i in rows.indices { rows[i].workload += "+TLS" } }
                log("\(label): \(rows.allSatisfy(\.complete) ? "done" : "INCOMPLETE") in \(fmt(seconds(nowNanos() - t0), 1)) s")
                for result in rows { print(result.resultLine) }
                fflush(stdout)
                results += rows
            }
        }
        print("")
        printTable(results)
        printTLSRatios(results)
        return results.allSatisfy(\.complete) ? 0 : 1
    }

    /// One workload's rows (W6 and W7 give one per variant).
    private func runOne(_ name: String, tls: Bool) throws -> [WorkloadResult] {
        if name == "x1" || name == "x2" { return try runCluster(name) }
        let (target, server) = try makeTarget(tag: name, tls: tls)
        defer { server?.stop() }
        switch name {
        case "w0": return [try W0Ping(config: config, target: target).run()]
        case "w1": return [try W1Latency(config: config, target: target).run()]
        case "w2": return [try W2FanOut(config: config, target: target).run()]
        case "w3": return [try W3Connections(config: config, target: target).run()]
        case "w4": return [try W4Sync(config: config, target: target).run()]
        case "w5": return [try W5Search(config: config, target: target).run()]
        case "w6": return try W6Flood(config: config, target: target).run()
        case "w7": return try W7SlowLogin(config: config, target: target).run()
        case "w8": return try W8Files(config: config, target: target).run()
        default: throw BenchError("unknown workload \(name) (w0 ... w8, x1, x2)")
        }
    }

    /// Issue 26's workloads on two nodes (and `clusterIdleNodes` idle ones) sharing a fresh
    /// database. Skipped on SQLite, so that `Scripts/bench.sh --database postgres --workloads
    /// w1,x1` gives single-node SQLite, single-node PostgreSQL and two nodes in one run.
    private func runCluster(_ name: String) throws -> [WorkloadResult] {
        guard let postgres = BenchStore.postgres else {
            log("\(name): skipped (several nodes need --postgres)")
            return []
        }
        let cluster = try ClusterNodes.start(config: config, postgres: postgres, tag: name, busy: 2,
                                             idle: config.clusterIdleNodes, executable: config.serverPath ?? defaultServerPath())
        defer { cluster.stop() }
        let x = XCrossNode(config: config, cluster: cluster)
        return [name == "x1" ? try x.x1() : try x.x2()]
    }

    /// A fresh server for each workload, so one workload's data and memory do not weigh on the next.
    private func makeTarget(tag: String, tls: Bool) throws -> (Target, ServerProcess?) {
        var rng = SplitMix(seed: nowNanos())
        let runTag = "b" + String(rng.next() % 0xFFFFFF, radix: 36) + "_"
        if let address = config.server {
            let parts = address.split(separator: ":")
            guard parts.count == 2, let port = UInt16(parts[1]) else { throw BenchError("--server wants HOST:PORT, got \(address)") }
            let host = String(parts[0])
            guard host.hasPrefix("127.") else { throw BenchError("refusing non-loopback target \(host)") }
            return (Target(host: host, port: port, pid: config.serverPID, runTag: runTag), nil)
        }
        let path = config.serverPath ?? defaultServerPath()
        // Plaintext unless this is a TLS run: the plaintext figures compare with runs from before TLS.
        var arguments = config.serverArguments + (tls ? [] : ["--plaintext"])
        if tag == "w7", let t = config.w7FrameTimeout { arguments += ["--frame-timeout", "\(t)"] }
        if let pg = BenchStore.postgres {
            let database = "bench_" + runTag + tag + (tls ? "_tls" : "")
            try pg.createDatabase(database)
            arguments += ["--database", pg.url(database: database)]
        }
        let server = try ServerProcess.start(executable: path, arguments: arguments, cpu: config.serverCPU, timeout: 30)
        return (Target(host: "127.0.0.1", port: server.port, pid: server.pid, runTag: runTag), server)
    }

    private func defaultServerPath() -> String {
        var buf = [CChar](repeating: 0, count: 4096)
        let n = readlink("/proc/self/exe", &buf, buf.count - 1)
        guard n > 0 else { return "messageai-server" }
        let exe = String(cString: buf)
        return String(exe[..<(exe.lastIndex(of: "/") ?? exe.endIndex)]) + "/messageai-server"
    }
}

func log(_ s: String) {
    fputs("[bench] \(s)\n", stderr)
}
