import Glibc

/// Several `messageai-server` nodes on one PostgreSQL database (issue 26's benchmark): the
/// first `busy` carry the workload's clients, the rest only start and read the event log, so
/// their CPU is what an idle node costs per committed event. Every node is pinned like a
/// single server (the same core as PostgreSQL, `--server-cpu`), so the nodes and the database
/// share one core, as one node and the database do in W1 and W2.
struct ClusterNodes {
    let targets: [Target]
    let servers: [ServerProcess]
    let busy: Int

    /// Nodes with CPU figures: the busy ones, then the idle ones.
    var pids: [pid_t] { servers.map(\.pid) }

    static func start(config: Configuration, postgres: PostgresTarget, tag: String, busy: Int, idle: Int,
                      executable: String) throws -> ClusterNodes {
        var rng = SplitMix(seed: nowNanos())
        let runTag = "b" + String(rng.next() % 0xFFFFFF, radix: 36) + "_"
        let database = "bench_" + runTag + tag
        try postgres.createDatabase(database)
        let arguments = config.serverArguments + ["--plaintext", "--database", postgres.url(database: database)]
        var servers: [ServerProcess] = []
        do {
            // One after the other: each migrates under the advisory lock; the first does the work.
            for _ in 0..<(busy + idle) {
                servers.append(try ServerProcess.start(executable: executable, arguments: arguments,
                                                       cpu: config.serverCPU, timeout: 30))
            }
        } catch {
            for s in servers { s.stop() }
            throw error
        }
        let targets = servers.map { Target(host: "127.0.0.1", port: $0.port, pid: $0.pid, runTag: runTag) }
        return ClusterNodes(targets: targets, servers: servers, busy: busy)
    }

    func stop() { for s in servers { s.stop() } }

    /// CPU seconds of each node, in `servers`' order (0 for one that is gone).
    func cpuSeconds() -> [Double] { pids.map { ProcessStats.cpuSeconds(pid: $0) ?? 0 } }

    /// The per-node figures of a RESULT line: CPU µs per `unit` counted, for each node
    /// (`node1_cpu_us_per_msg` ...; idle nodes are named `idle1`...).
    func extras(from start: [Double], to end: [Double], per count: Int, unit: String) -> [(String, String)] {
        guard count > 0 else { return [] }
        return zip(start, end).enumerated().map { i, pair in
            let name = i < busy ? "node\(i + 1)" : "idle\(i - busy + 1)"
            return ("\(name)_cpu_us_per_\(unit)", fmt((pair.1 - pair.0) * 1e6 / Double(count), 1))
        }
    }
}
