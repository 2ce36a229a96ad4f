import Foundation
import Glibc

/// The PostgreSQL cluster a bench run puts its servers on: the directory `Scripts/postgres.sh`
/// made (its socket, `port` file and `data/postmaster.pid`). Each started server gets a new
/// database in it, so one workload's rows do not weigh on the next, as with SQLite's fresh file.
struct PostgresTarget {
    let directory: String
    let port: Int
    let bin: String

    init(directory: String) throws {
        self.directory = directory
        port = readSmallFile(directory + "/port").flatMap { Int($0.filter(\.isNumber)) } ?? 5432
        let root = "/usr/lib/postgresql"
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
        guard let newest = versions.compactMap(Int.init).max() else { throw BenchError("PostgreSQL not installed (\(root))") }
        bin = "\(root)/\(newest)/bin"
        guard postmasterPID != nil else { throw BenchError("no running PostgreSQL in \(directory) (Scripts/postgres.sh start --dir \(directory))") }
    }

    /// The URL form `Scripts/postgres.sh url` prints: the unix socket in the directory.
    func url(database: String) -> String {
        "postgres://postgres@/\(database)?host=\(directory)&port=\(port)&sslmode=disable"
    }

    func createDatabase(_ name: String) throws {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: bin + "/createdb")
        p.arguments = ["-h", directory, "-p", "\(port)", "-U", "postgres", name]
        try p.run()
        p.waitUntilExit()
        guard p.terminationStatus == 0 else { throw BenchError("createdb \(name) failed (\(p.terminationStatus))") }
    }

    var postmasterPID: pid_t? {
        readSmallFile(directory + "/data/postmaster.pid")?.split(separator: "\n").first.flatMap { pid_t($0) }
    }

    /// CPU seconds of the postmaster and every process it started (backends, WAL writer,
    /// checkpointer...): PostgreSQL's own share of a workload, beside the server's. A backend
    /// that exits during the phase takes its seconds with it; the servers' pools keep theirs.
    func cpuSeconds() -> Double? {
        guard let root = postmasterPID else { return nil }
        var total = ProcessStats.cpuSeconds(pid: root) ?? 0
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        for entry in entries {
            guard let pid = pid_t(entry), pid != root, parentPID(pid) == root else { continue }
            total += ProcessStats.cpuSeconds(pid: pid) ?? 0
        }
        return total
    }

    private func parentPID(_ pid: pid_t) -> pid_t? {
        guard let text = readSmallFile("/proc/\(pid)/stat"), let close = text.lastIndex(of: ")") else { return nil }
        let fields = text[text.index(after: close)...].split(separator: " ")
        return fields.count > 1 ? pid_t(fields[1]) : nil
    }
}

/// What the RESULT lines say about the store behind the measured server, set once at start.
enum BenchStore {
    nonisolated(unsafe) static var name = "sqlite"
    nonisolated(unsafe) static var postgres: PostgresTarget?
}
