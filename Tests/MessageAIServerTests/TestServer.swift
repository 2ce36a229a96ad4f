import Foundation
import Logging
import MessageAIProtocol
@testable import MessageAIServer
import XCTest

/// A scratch directory for one test's server, removed afterwards.
final class ServerTestDirectory {
    let path: String
    init() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("server-test-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }
    deinit { try? FileManager.default.removeItem(atPath: path) }
}

/// A real server object, in this process, on a real socket (port 0) and a temp-file SQLite.
final class TestServer {
    let directory: ServerTestDirectory
    let store: SQLiteStore
    let server: ChatServer
    let port: Int
    private var stopped = false

    /// `files`: store uploads under the scratch directory (the `files` capability is offered).
    init(files: Bool = false, _ configure: (inout ServerConfiguration) -> Void = { _ in }) throws {
        signal(SIGPIPE, SIG_IGN)
        directory = try ServerTestDirectory()
        // As the server process opens it.
        store = try SQLiteStore(path: directory.path + "/messageai.sqlite", synchronous: .normal,
                                checkpoints: WALCheckpointer.Limits())
        var config = ServerConfiguration()
        config.port = 0
        if files { config.filesDirectory = directory.path + "/files" }
        configure(&config)
        var logger = Logger(label: "test-server")
        logger.logLevel = .warning
        server = ChatServer(configuration: config, store: store, logger: logger)
        port = try server.start()
    }

    func stop() {
        guard !stopped else { return }
        stopped = true
        let done = DispatchSemaphore(value: 0)
        server.shutdown { done.signal() }
        _ = done.wait(timeout: .now() + 10)
        server.queue.sync { store.close() }
    }

    deinit { stop() }

    /// A connected client that has done the handshake.
    func client(capabilities: Capabilities = [.zlib]) throws -> TestClient {
        let c = try TestClient(port: port)
        try c.hello(capabilities: capabilities)
        return c
    }
}

enum TestUsers {
    static let password = "correct horse battery"

    /// Registers one client per name, all at once (hashing runs in parallel on the server).
    static func register(_ names: [String], port: Int, receiveBuffer: Int32? = nil,
                         capabilities: Capabilities = [.zlib]) throws -> [TestClient] {
        let clients = try names.map { _ in try TestClient(port: port, receiveBuffer: receiveBuffer) }
        for c in clients { try c.hello(capabilities: capabilities) }
        let ids = zip(clients, names).map { c, name in
            c.send(Register(email: "\(name)@example.org", username: name, password: password, displayName: name.capitalized, device: "test"))
        }
        for (c, id) in zip(clients, ids) {
            let s: SessionGranted = try c.answer(id, timeout: 30)
            c.user = s.user
            c.token = s.token
        }
        return clients
    }

    /// Another connection logged in as an existing user (resumes the first one's token).
    static func secondSession(of client: TestClient, port: Int, capabilities: Capabilities = [.zlib]) throws -> TestClient {
        let c = try TestClient(port: port)
        try c.hello(capabilities: capabilities)
        let _: SessionGranted = try c.request(Resume(token: client.token))
        c.user = client.user
        c.token = client.token
        return c
    }
}

extension TestClient {
    var username: String { user!.username }

    func openDM(with username: String) throws -> Conversation {
        try request(DMOpen(username: username))
    }

    /// Sends the texts back to back (pipelined, fresh client ids), then reads the acks: their
    /// seqs in order, as many as were acknowledged within `timeout` each.
    func sendPipelined(_ texts: [String], in conversation: UInt64, timeout: Double = 60) -> [UInt64] {
        let ids = texts.map { send(Send(conversationID: conversation, clientID: TestClient.newClientID(), text: $0)) }
        var seqs: [UInt64] = []
        for id in ids {
            guard let ack: SendAck = try? answer(id, timeout: timeout) else { break }
            seqs.append(ack.seq)
        }
        return seqs
    }

    /// Sends a message with a fresh client id and waits for its ack.
    @discardableResult
    func sendText(_ text: String, in conversation: UInt64, clientID: [UInt8] = TestClient.newClientID()) throws -> SendAck {
        try request(Send(conversationID: conversation, clientID: clientID, text: text))
    }

    static func newClientID() -> [UInt8] { (0..<16).map { _ in UInt8.random(in: 0...255) } }

    /// Runs a SYNC and returns what its batches held.
    func sync(_ positions: [SyncPosition] = []) throws -> (batches: [SyncBatch], done: SyncDone) {
        let id = send(SyncRequest(positions: positions))
        var batches: [SyncBatch] = []
        while true {
            let f = try wait(for: "sync answer") { $0.requestID == id }
            if f.type == .syncBatch { batches.append(try f.decode(SyncBatch.self)); continue }
            if f.type == .error { throw try f.decode(ErrorFrame.self) }
            return (batches, try f.decode(SyncDone.self))
        }
    }
}

/// The `messageai-server` executable as a child process (for kill -9 and CLI tests).
final class ChildServer {
    /// Runs the server executable with `arguments` to its end (a flag check, --version...):
    /// its exit status and what it printed on stdout and stderr together.
    static func run(_ arguments: [String]) throws -> (status: Int32, out: String) {
        let p = Process()
        p.executableURL = executable
        p.arguments = arguments
        let out = Pipe()
        p.standardOutput = out
        p.standardError = out
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    let process = Process()
    private let stderrPipe = Pipe()
    private let stdoutPipe = Pipe()
    private let lock = NSLock()
    private var stderrText = ""
    private(set) var port = 0

    /// Next to the test bundle in the build products directory (`swift build` builds it), or
    /// $MESSAGEAI_SERVER_BIN (e.g. a release build).
    static var executable: URL {
        if let path = ProcessInfo.processInfo.environment["MESSAGEAI_SERVER_BIN"] { return URL(fileURLWithPath: path) }
        let bundle = Bundle(for: ChildServer.self).bundleURL
        let argv0 = URL(fileURLWithPath: CommandLine.arguments[0])
        let candidates = [bundle, bundle.deletingLastPathComponent(), argv0.deletingLastPathComponent(),
                          argv0.deletingLastPathComponent().deletingLastPathComponent()]
            .map { $0.appendingPathComponent("messageai-server") }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates[0]
    }

    /// `environment`: added to this process's own (e.g. `MESSAGEAI_STORE_LATENCY_MS`).
    init(dataDir: String, arguments: [String] = [], port: Int = 0, environment: [String: String] = [:]) throws {
        process.executableURL = ChildServer.executable
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        }
        // Plaintext: TLS is not the subject of these tests (TLSProcessTests covers it).
        process.arguments = ["--port", String(port), "--data-dir", dataDir, "--log-level", "warning"]
            + (arguments.contains("--tls") ? arguments.filter { $0 != "--tls" } : ["--plaintext"] + arguments)
        process.standardError = stderrPipe
        process.standardOutput = stdoutPipe
        try process.run()
        let handle = stderrPipe.fileHandleForReading
        // Weak: a strong capture kept the object, whose deinit kills the process, alive until
        // the process ended, so a test that forgot terminate() left a server running.
        Thread.detachNewThread { [weak self, lock] in
            while true {
                let data = handle.availableData
                guard !data.isEmpty, let self else { return }
                lock.lock(); self.stderrText += String(decoding: data, as: UTF8.self); lock.unlock()
            }
        }
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            if let line = stderr.split(separator: "\n").first(where: { $0.hasPrefix("listening on ") }),
               let p = line.split(separator: ":").last.flatMap({ Int($0) }) {
                self.port = p
                return
            }
            guard process.isRunning else { break }
            Thread.sleep(forTimeInterval: 0.02)
        }
        process.terminate()
        throw TestTimeout(what: "'listening on' from messageai-server; stderr: \(stderr)")
    }

    var stderr: String { lock.lock(); defer { lock.unlock() }; return stderrText }

    /// Everything the server wrote to stdout (call after it exited): the contract says nothing.
    func stdoutAfterExit() -> String {
        String(decoding: stdoutPipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    }

    func kill9() {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// Sends SIGTERM and returns the exit status (waits at most 15 s).
    func terminate() -> Int32? {
        kill(process.processIdentifier, SIGTERM)
        let deadline = Date().addingTimeInterval(15)
        while process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        return process.isRunning ? nil : process.terminationStatus
    }

    deinit { if process.isRunning { kill9() } }
}
