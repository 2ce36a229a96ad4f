import Foundation
import XCTest

/// A throw-away PostgreSQL cluster for one test run: initdb into a fresh temporary directory,
/// the server listening on a unix socket in that directory and a free port on 127.0.0.1, and
/// stopped by its PID, pass or fail.
///
/// As root (CI, this machine) initdb and postgres refuse to run, so both run as the
/// `postgres` user through `setpriv`, which execs the program itself: the PID we hold is the
/// postmaster's, not a wrapper's. `--pdeathsig SIGINT` makes the kernel stop the server if the
/// test process dies without tearing down (a crash, a kill); the signal follows the thread that
/// started it, so clusters are started on the main thread (XCTest's setUp), which outlives them.
final class TestCluster: @unchecked Sendable {
    let directory: String
    let port: Int
    private let binDirectory: String
    private var server: Process
    /// The postmaster's program and arguments, to start it again after `pause()`.
    private let launch: (URL, [String])
    private var stopped = false

    /// PostgreSQL's binaries: `MESSAGEAI_PG_BIN`, else the newest /usr/lib/postgresql/*/bin
    /// (Debian's place; not on PATH).
    static func binaries() -> String? {
        let root = "/usr/lib/postgresql"
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
        let candidates = ProcessInfo.processInfo.environment["MESSAGEAI_PG_BIN"].map { [$0] }
            ?? versions.sorted { (Int($0) ?? 0) > (Int($1) ?? 0) }.map { "\(root)/\($0)/bin" }
        return candidates.first {
            FileManager.default.isExecutableFile(atPath: "\($0)/postgres")
                && FileManager.default.isExecutableFile(atPath: "\($0)/initdb")
        }
    }

    /// Starts a cluster, or skips the test when PostgreSQL is not installed. Under CI a missing
    /// PostgreSQL fails instead: Scripts/install-deps.sh installs it there.
    /// `hostAuth` is pg_hba's method for TCP connections (`trust`, `scram-sha-256`, `md5`);
    /// the unix socket always trusts, so the tests can set up users and databases.
    /// `settings` are extra `name=value` server settings (TLS tests).
    static func start(hostAuth: String = "trust", settings: [String] = [],
                      file: StaticString = #filePath, line: UInt = #line) throws -> TestCluster {
        guard let bin = binaries() else {
            let why = "PostgreSQL not installed (no /usr/lib/postgresql/*/bin; run Scripts/install-deps.sh)"
            if ProcessInfo.processInfo.environment["CI"] != nil {
                XCTFail(why, file: file, line: line)
            }
            throw XCTSkip(why)
        }
        precondition(Thread.isMainThread, "start clusters on the main thread (see --pdeathsig above)")
        return try TestCluster(bin: bin, hostAuth: hostAuth, settings: settings)
    }

    private init(bin: String, hostAuth: String, settings: [String]) throws {
        binDirectory = bin
        directory = try Self.makeDirectory()
        port = try freePort()
        let log = "\(directory)/server.log"
        try Self.run(bin + "/initdb", ["-D", "\(directory)/data", "-U", "postgres", "--auth-local=trust", "--auth-host=\(hostAuth)",
                                       "-E", "UTF8", "--no-instructions"], log: log)
        let (program, arguments) = Self.asPostgres(bin + "/postgres", [
            "-D", "\(directory)/data", "-k", directory, "-p", "\(port)",
            "-c", "listen_addresses=127.0.0.1",
            // A crash of the database process still loses nothing written; only power loss
            // would, and a test cluster does not outlive its run.
            "-c", "fsync=off", "-c", "full_page_writes=off",
            "-c", "max_connections=40", "-c", "shared_buffers=32MB",
            // A removed WAL segment is unlinked, not renamed for reuse with its old bytes:
            // what the purge of deleted text relies on (PostgresStore+Purge.swift).
            "-c", "wal_recycle=off",
        ] + settings.flatMap { ["-c", $0] })
        launch = (program, arguments)
        server = try Self.launch(program, arguments, log: log)
        do {
            try waitUntilReady()
        } catch {
            stop()
            throw error
        }
    }

    deinit { stop() }

    private static func launch(_ program: URL, _ arguments: [String], log: String) throws -> Process {
        let server = Process()
        server.executableURL = program
        server.arguments = arguments
        server.standardOutput = try appending(to: log)
        server.standardError = server.standardOutput
        try server.run()
        return server
    }

    /// Stops the postmaster (fast shutdown: every connection is cut) and keeps the data, so
    /// that `resume()` starts the same database on the same port: a database restart as a
    /// server sees it. On the main thread, like `start` (see --pdeathsig above).
    func pause() {
        guard server.isRunning else { return }
        kill(server.processIdentifier, SIGINT)
        server.waitUntilExit()
    }

    func resume() throws {
        precondition(Thread.isMainThread, "start clusters on the main thread (see --pdeathsig above)")
        guard !server.isRunning else { return }
        server = try Self.launch(launch.0, launch.1, log: "\(directory)/server.log")
        try waitUntilReady()
    }

    /// A TCP URL for `messageai-server --database` (trust authentication unless `start` chose another).
    func url(database: String, user: String = "postgres") -> String {
        "postgres://\(user)@127.0.0.1:\(port)/\(database)?sslmode=disable"
    }

    /// The path PostgresNIO connects to for the unix socket.
    var socketPath: String { "\(directory)/.s.PGSQL.\(port)" }

    /// A new, empty database in this cluster.
    func createDatabase(_ name: String) throws {
        try Self.run(binDirectory + "/createdb", ["-h", directory, "-p", "\(port)", "-U", "postgres", name],
                     log: "\(directory)/server.log", asPostgres: false)
    }

    /// Runs one SQL command through psql on the socket as `postgres` (setup only: the SQL is
    /// the test's own, never a user's text); returns its unaligned output.
    @discardableResult
    func psql(_ sql: String, database: String = "postgres") throws -> String {
        let output = "\(directory)/psql.\(UUID().uuidString).out"
        defer { try? FileManager.default.removeItem(atPath: output) }
        try Self.run(binDirectory + "/psql", ["-h", directory, "-p", "\(port)", "-U", "postgres", "-d", database,
                                              "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-c", sql],
                     log: output, asPostgres: false)
        return ((try? String(contentsOfFile: output, encoding: .utf8)) ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The files of the data directory holding `bytes` (grep -F over every file, WAL included).
    func dataFiles(containing text: String) throws -> [String] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/grep")
        process.arguments = ["-r", "-l", "-a", "-F", "--", text, "\(directory)/data"]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus <= 1 else { throw ClusterError("grep exited \(process.terminationStatus)", log: "") }
        return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    /// Fast shutdown (SIGINT: clients are disconnected, then a checkpoint), waiting for the
    /// postmaster to exit; SIGKILL past the deadline. Removes the directory. Safe to call twice.
    func stop() {
        guard !stopped else { return }
        stopped = true
        if server.isRunning {
            kill(server.processIdentifier, SIGINT)
            let deadline = Date().addingTimeInterval(20)
            while server.isRunning && Date() < deadline { usleep(10_000) }
            if server.isRunning {
                kill(server.processIdentifier, SIGKILL)
                server.waitUntilExit()
            }
        }
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Ready when the postmaster says so in postmaster.pid (its last line) and the port answers.
    private func waitUntilReady() throws {
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            guard server.isRunning else { throw ClusterError("postgres exited at start", log: tail) }
            let pidFile = (try? String(contentsOfFile: "\(directory)/data/postmaster.pid", encoding: .utf8)) ?? ""
            if pidFile.split(separator: "\n").last?.trimmingCharacters(in: .whitespaces) == "ready", canConnect(port: port) {
                return
            }
            usleep(20_000)
        }
        throw ClusterError("postgres not ready within 60 s", log: tail)
    }

    private var tail: String {
        let text = (try? String(contentsOfFile: "\(directory)/server.log", encoding: .utf8)) ?? ""
        return text.split(separator: "\n").suffix(15).joined(separator: "\n")
    }

    private static func makeDirectory() throws -> String {
        var template = Array("/tmp/messageai-pg.XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw ClusterError("mkdtemp failed", log: "") }
        let path = String(cString: made)
        // initdb wants its directory owned by the user that runs it; /tmp lets it traverse.
        if getuid() == 0, let pw = getpwnam("postgres") {
            chown(path, pw.pointee.pw_uid, pw.pointee.pw_gid)
        }
        return path
    }

    private static func asPostgres(_ program: String, _ arguments: [String]) -> (URL, [String]) {
        guard getuid() == 0 else {
            return (URL(fileURLWithPath: "/usr/bin/setpriv"), ["--pdeathsig", "SIGINT", "--", program] + arguments)
        }
        return (URL(fileURLWithPath: "/usr/bin/setpriv"),
                ["--reuid=postgres", "--regid=postgres", "--init-groups", "--pdeathsig", "SIGINT", "--", program] + arguments)
    }

    private static func run(_ program: String, _ arguments: [String], log: String, asPostgres: Bool = true) throws {
        let process = Process()
        let (url, fullArguments) = asPostgres ? Self.asPostgres(program, arguments) : (URL(fileURLWithPath: program), arguments)
        process.executableURL = url
        process.arguments = fullArguments
        process.standardOutput = try appending(to: log)
        process.standardError = process.standardOutput
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            throw ClusterError("\(program) exited \(process.terminationStatus)", log: text)
        }
    }
}

struct ClusterError: Error, CustomStringConvertible {
    let description: String
    init(_ what: String, log: String) { description = log.isEmpty ? what : "\(what):\n\(log)" }
}

/// The log file opened for appending, so that every program's output lands after the last.
private func appending(to path: String) throws -> FileHandle {
    let fd = open(path, O_WRONLY | O_APPEND | O_CREAT, 0o600)
    guard fd >= 0 else { throw ClusterError("cannot open \(path)", log: "") }
    return FileHandle(fileDescriptor: fd, closeOnDealloc: true)
}

/// A port on 127.0.0.1 that nothing listens on now (the kernel's choice for port 0).
func freePort() throws -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
        }
    }
    guard bound else { throw ClusterError("no free port", log: "") }
    return Int(UInt16(bigEndian: address.sin_port))
}

func canConnect(port: Int) -> Bool {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = UInt16(port).bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    return withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
        }
    }
}

/// A test class whose tests share one throw-away cluster: started by the first test's setUp
/// (on the main thread, as `--pdeathsig` needs), stopped after the class's last test.
class ClusterTestCase: XCTestCase {
    nonisolated(unsafe) static var cluster: TestCluster?

    override class func tearDown() {
        cluster?.stop()
        cluster = nil
        super.tearDown()
    }

    override func setUpWithError() throws {
        try super.setUpWithError()
        if Self.cluster == nil { Self.cluster = try TestCluster.start() }
    }

    /// A database of its own for one test, on the class's cluster: the `--database` URL that
    /// every node of that test is given.
    func freshDatabaseURL(_ prefix: String) throws -> String {
        let cluster = try XCTUnwrap(Self.cluster)
        let name = "\(prefix)_\(UUID().uuidString.prefix(8).lowercased())"
        try cluster.createDatabase(name)
        return cluster.url(database: name)
    }
}
