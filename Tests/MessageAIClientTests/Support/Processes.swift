import Foundation
import XCTest

/// The built executables sit next to the test bundle in the same .build directory.
enum Binaries {
    static func path(_ name: String) throws -> String {
        var dirs: [URL] = []
        if let exe = Bundle.main.executableURL { dirs.append(exe.deletingLastPathComponent()) }
        dirs.append(Bundle.main.bundleURL)
        dirs.append(Bundle.main.bundleURL.deletingLastPathComponent())
        for b in Bundle.allBundles { dirs.append(b.bundleURL.deletingLastPathComponent()) }
        dirs.append(URL(fileURLWithPath: FileManager.default.currentDirectoryPath + "/.build/debug"))
        for d in dirs {
            let p = d.appendingPathComponent(name).path
            if FileManager.default.isExecutableFile(atPath: p) { return p }
        }
        throw XCTSkip("\(name) is not built next to the tests (run `swift build` first); looked in \(dirs.map(\.path))")
    }
}

/// Polls a condition until it holds or the deadline passes: no bare sleeps in tests.
func eventually(_ timeout: Double = 15, _ what: String, file: StaticString = #filePath, line: UInt = #line,
                _ condition: () throws -> Bool) rethrows {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        if try condition() { return }
        Thread.sleep(forTimeInterval: 0.02)
    }
    XCTFail("timed out after \(timeout) s waiting for: \(what)", file: file, line: line)
}

/// A child process with its output captured as it arrives.
final class Child {
    let process = Process()
    private let lock = NSLock()
    private var out = Data()
    private var err = Data()
    private let stdinPipe = Pipe()

    init(_ path: String, _ args: [String], environment: [String: String]? = nil) throws {
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = args
        if let environment { process.environment = environment }
        let o = Pipe(), e = Pipe()
        process.standardInput = stdinPipe
        process.standardOutput = o
        process.standardError = e
        o.fileHandleForReading.readabilityHandler = { [weak self] h in self?.append(h.availableData, toErr: false) }
        e.fileHandleForReading.readabilityHandler = { [weak self] h in self?.append(h.availableData, toErr: true) }
        try process.run()
    }

    private var closedStreams = 0

    private func append(_ d: Data, toErr: Bool) {
        lock.lock(); defer { lock.unlock() }
        if d.isEmpty { closedStreams += 1 }
        if toErr { err.append(d) } else { out.append(d) }
    }

    /// Both output pipes reached end of file: everything the process wrote is captured.
    private var outputComplete: Bool { lock.lock(); defer { lock.unlock() }; return closedStreams >= 2 }

    var stdout: String { lock.lock(); defer { lock.unlock() }; return String(decoding: out, as: UTF8.self) }
    var stderr: String { lock.lock(); defer { lock.unlock() }; return String(decoding: err, as: UTF8.self) }
    var pid: Int32 { process.processIdentifier }

    func send(_ line: String) { stdinPipe.fileHandleForWriting.write(Data((line + "\n").utf8)) }
    func closeInput() { try? stdinPipe.fileHandleForWriting.close() }

    func waitForStdout(_ text: String, count: Int = 1, timeout: Double = 15, file: StaticString = #filePath, line: UInt = #line) {
        eventually(timeout, "\(count)x \"\(text)\" on stdout; got:\n\(stdout)\nstderr:\n\(stderr)", file: file, line: line) {
            stdout.components(separatedBy: text).count - 1 >= count
        }
    }

    @discardableResult
    func waitExit(timeout: Double = 30, file: StaticString = #filePath, line: UInt = #line) -> Int32 {
        eventually(timeout, "exit of \(process.executableURL?.lastPathComponent ?? "")", file: file, line: line) { !process.isRunning }
        if process.isRunning { kill(pid, SIGKILL); process.waitUntilExit() }
        waitForOutputEnd()
        return process.terminationStatus
    }

    func kill9() {
        kill(pid, SIGKILL)
        process.waitUntilExit()
        waitForOutputEnd()
    }

    /// Waits briefly for the pipes' end of file so the last bytes written are captured. Not
    /// an assertion: a grandchild that inherited a pipe can hold it open.
    private func waitForOutputEnd() {
        let deadline = Date().addingTimeInterval(2)
        while !outputComplete && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
    }

    deinit { if process.isRunning { kill(pid, SIGKILL) } }
}

/// A real `messageai-server` on 127.0.0.1 (or `host`) with its own data directory.
final class ServerProcess {
    let dataDir: String
    let host: String
    private(set) var port: UInt16 = 0
    private(set) var child: Child?
    let extraArgs: [String]
    /// The SHA-256 fingerprint of the server's self-signed certificate (TLS, the default).
    private(set) var fingerprint = ""

    init(dataDir: String, extraArgs: [String] = [], host: String = "127.0.0.1") throws {
        self.dataDir = dataDir
        self.host = host
        self.extraArgs = extraArgs
        try start(port: 0)
        if !extraArgs.contains("--plaintext") {
            // As an admin would: once the server made its certificate, hand its fingerprint to users.
            // A node given another's certificate (--tls-cert, --tls-key) prints that one.
            let files = extraArgs.indices.filter { ["--tls-cert", "--tls-key"].contains(extraArgs[$0]) && $0 + 1 < extraArgs.count }
                .flatMap { [extraArgs[$0], extraArgs[$0 + 1]] }
            let p = try Child(try Binaries.path("messageai-server"), ["--data-dir", dataDir, "--print-fingerprint"] + files)
            p.closeInput()
            XCTAssertEqual(p.waitExit(timeout: 30), 0, "--print-fingerprint: \(p.stderr)")
            fingerprint = p.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        }
    }

    /// What a client needs to trust this server without asking.
    var clientTLSArgs: [String] { fingerprint.isEmpty ? ["--plaintext"] : ["--tls-fingerprint", fingerprint] }

    /// Starts (again) on `port`, 0 for a free one; returns once it listens.
    func start(port wanted: UInt16, extra: [String]? = nil) throws {
        let c = try Child(try Binaries.path("messageai-server"),
                          ["--host", host, "--port", String(wanted), "--data-dir", dataDir, "--log-level", "error"] + (extra ?? extraArgs))
        child = c
        var found: UInt16 = 0
        eventually(30, "the server's listening line; stderr:\n\(c.stderr)") {
            if let r = c.stderr.range(of: #"listening on \S+:(\d+)"#, options: .regularExpression) {
                found = UInt16(c.stderr[r].split(separator: ":").last ?? "") ?? 0
            }
            return found != 0
        }
        guard found != 0 else { throw XCTSkip("server did not start") }
        port = found
    }

    /// SIGTERM and wait: the server exits cleanly.
    func stop() {
        guard let c = child, c.process.isRunning else { return }
        kill(c.pid, SIGTERM)
        c.waitExit(timeout: 30)   // a loaded machine can take this long to checkpoint and close
        child = nil
    }

    var address: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }

    deinit { if let c = child, c.process.isRunning { kill(c.pid, SIGKILL) } }
}

/// Runs the `messageai` client against a server.
struct ClientRunner {
    let server: ServerProcess
    let root: String

    func dir(_ user: String) -> String { root + "/" + user }

    func start(_ user: String, json: Bool = false, extra: [String] = []) throws -> Child {
        try Child(try Binaries.path("messageai"),
                  ["--server", server.address, "--data-dir", dir(user), "--no-bell"] + server.clientTLSArgs + (json ? ["--json"] : []) + extra)
    }

    /// Feeds `lines`, closes stdin, waits for the exit.
    func run(_ user: String, _ lines: [String], json: Bool = false, extra: [String] = [], timeout: Double = 40,
             file: StaticString = #filePath, line: UInt = #line) throws -> (status: Int32, out: String, err: String) {
        let c = try start(user, json: json, extra: extra)
        for l in lines { c.send(l) }
        c.closeInput()
        let status = c.waitExit(timeout: timeout, file: file, line: line)
        return (status, c.stdout, c.stderr)
    }

    func register(_ users: String...) throws {
        for u in users {
            let r = try run(u, ["/register \(u)@example.com \(u) password-\(u)"])
            XCTAssertEqual(r.status, 0, "register \(u): \(r.err)")
        }
    }
}

/// Lines of --json output as dictionaries.
func jsonLines(_ text: String) -> [[String: Any]] {
    text.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
}

func temporaryDirectory(_ label: String) -> String {
    let d = NSTemporaryDirectory() + "messageai-\(label)-\(UUID().uuidString.prefix(8))"
    try? FileManager.default.createDirectory(atPath: d, withIntermediateDirectories: true)
    return d
}
