import ArgumentParser
import Glibc

/// messageai-bench: load generator for messageai-server (issue 7). See BENCHMARKS.md.
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "messageai-bench",
        abstract: "Measures messageai-server: W0 ping round trip (diagnostic), W1 1:1 latency, W2 group fan-out, W3 idle connections, W4 offline sync, W5 search, W6 flood (issue 15), W7 slow pre-login connections (issue 15), W8 files: upload/download MiB/s beside raw TCP and W1 during an upload (issue 11); X1 cross-node W1 and X2 W2 over two nodes on one PostgreSQL (issue 26, --postgres).",
        discussion: "Prints one RESULT line per workload and a table. All traffic stays on 127.0.0.1.")

    @Option(help: "messageai-server to start (default: next to this executable).") var serverPath: String?
    @Option(help: "Use a running server at HOST:PORT (127.x only) instead of starting one.") var server: String?
    @Option(help: "PID of that running server, for CPU and RSS figures.") var serverPid: Int32?
    @Option(help: "Core to pin a started server to (taskset); empty for none.") var serverCpu = "0"
    @Option(parsing: .singleValue, help: "Extra flag for a started server (repeat). Replaces the defaults (rate limit and idle timeout lifted).")
    var serverArg: [String] = []
    @Option(help: "Workloads to run, comma-separated.") var workloads = "w0,w1,w2,w3,w4,w5,w6,w7,w8"
    @Option(name: .customShort("T"), help: "Time limit in seconds for each phase of a workload.") var timeLimit = 120.0
    @Option(help: "Workloads to run a second time over TLS, beside the plaintext run (e.g. w1,w2,w3).") var tlsWorkloads = ""
    @Option(help: "A PostgreSQL cluster's directory (Scripts/postgres.sh start --dir DIR): each started server gets a new database there; RESULT lines say store=postgres and add PostgreSQL's CPU (db_cpu_s).")
    var postgres: String?
    @Flag(help: "Tiny counts, a few seconds: keeps the tool working (CI); not a measurement.") var smoke = false
    @Option(help: "W1 measured messages.") var w1Messages: Int?
    @Option(help: "W2 group members.") var w2Members: Int?
    @Option(help: "W2 messages in total.") var w2Messages: Int?
    @Option(help: "W2 messages in flight per sender.") var w2Window: Int?
    @Option(help: "W3 idle connections.") var w3Connections: Int?
    @Option(help: "W4 messages that arrive while offline.") var w4Messages: Int?
    @Option(help: "W5 stored messages.") var w5Messages: Int?
    @Option(help: "W5 searches.") var w5Queries: Int?
    @Option(help: "W6 flooder counts, comma-separated (default 0,4,8).") var w6Flooders: String?
    @Option(help: "W6 samples per flooder count.") var w6Samples: Int?
    @Flag(help: "W6: LOGIN frames in the flood too (each costs the server a password hash).") var w6Logins = false
    @Option(help: "W7 slow pre-login connections.") var w7Connections: Int?
    @Option(help: "W8 file size in MiB.") var w8Mib: Int?
    @Option(help: "X1, X2: idle nodes beside the two busy ones, reading the event log only.") var idleNodes: Int?

    func run() throws {
        var c = Configuration()
        if smoke { c.applySmoke() }
        c.serverPath = serverPath; c.server = server; c.serverPID = serverPid; c.serverCPU = serverCpu
        if !serverArg.isEmpty { c.serverArguments = serverArg }
        c.workloads = workloads.split(separator: ",").map { $0.filter { $0 != " " }.lowercased() }
        c.timeLimit = timeLimit
        c.tlsWorkloads = tlsWorkloads.split(separator: ",").map { $0.filter { $0 != " " }.lowercased() }
        if let v = w1Messages { c.w1Messages = v }
        if let v = w2Members { c.w2Members = v }
        if let v = w2Messages { c.w2Messages = v }
        if let v = w2Window { c.w2Window = v }
        if let v = w3Connections { c.w3Connections = v }
        if let v = w4Messages { c.w4Messages = v }
        if let v = w5Messages { c.w5Messages = v }
        if let v = w5Queries { c.w5Queries = v }
        if let v = w6Flooders { c.w6Flooders = v.split(separator: ",").compactMap { Int($0) } }
        if let v = w6Samples { c.w6Samples = v }
        c.w6Logins = w6Logins
        if let v = w7Connections { c.w7Connections = v }
        if let v = w8Mib { c.w8MiB = v }
        if let v = idleNodes { c.clusterIdleNodes = v }
        if let dir = postgres {
            BenchStore.postgres = try PostgresTarget(directory: dir)
            BenchStore.name = "postgres"
        }
        let status = Bench(config: c).run()
        if status != 0 { throw ExitCode(status) }
    }
}

BenchCommand.main()
