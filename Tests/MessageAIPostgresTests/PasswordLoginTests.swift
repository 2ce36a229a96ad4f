import Foundation
import Logging
import MessageAIPostgres
import MessageAIStore
import MessageAIVocabulary
import Synchronization
import XCTest

/// A user with a password on a cluster whose pg_hba asks TCP clients for SCRAM-SHA-256: the
/// store logs in with the password from a 0600 file or a pgpass file, a wrong or missing one
/// is a clear `loginRefused` at open (not a hang), and no log line ever holds the password.
final class PasswordLoginTests: XCTestCase {
    nonisolated(unsafe) private var cluster: TestCluster?
    nonisolated(unsafe) private var directory = ""
    private let password = "pässwörd:with\\escapes 🔑"

    override func setUpWithError() throws {
        let cluster = try TestCluster.start(hostAuth: "scram-sha-256")
        self.cluster = cluster
        try cluster.psql("SET password_encryption = 'scram-sha-256'; CREATE ROLE alice LOGIN PASSWORD '\(password.replacingOccurrences(of: "'", with: "''"))'")
        try cluster.psql("CREATE DATABASE chat OWNER alice")
        directory = NSTemporaryDirectory() + "pglogin-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    override func tearDown() {
        cluster?.stop()
        try? FileManager.default.removeItem(atPath: directory)
    }

    private var url: String { "postgres://alice@127.0.0.1:\(cluster!.port)/chat?sslmode=disable" }

    private func open(_ settings: ConnectionSettings, logs: CapturedLogs) async throws(PostgresStoreError) -> PostgresStore {
        var configuration = try! settings.storeConfiguration()
        configuration.logger = logs.logger
        configuration.operationTimeout = .seconds(5)
        return try await PostgresStore.open(configuration, now: now())
    }

    func testPasswordFromA0600FileLogsInAndIsNeverLogged() async throws {
        let file = "\(directory)/password"
        try write(password + "\n", to: file, mode: 0o600)
        let settings = try ConnectionSettings.resolve(url: url, passwordFile: file, environment: [:], home: nil)
        let logs = CapturedLogs()
        let store = try await open(settings, logs: logs)
        let user = try await store.createUser(username: "zoë", email: "zoe@example.org", displayName: "Zoë", passwordHash: "x", now: now())
        let group = try await store.createGroup(name: "g", memberIDs: [user], now: now())
        let sent = try await store.appendMessage(conversationID: group, senderID: user, clientID: newClientID(), text: "hi", serverTime: now())
        XCTAssertEqual(sent.seq, 1)
        await store.close()
        XCTAssertTrue(logs.text.contains("alice@127.0.0.1:\(cluster!.port)/chat"), "the start-up line names the database:\n\(logs.text)")
        XCTAssertTrue(logs.text.contains("password: set"))
        XCTAssertFalse(logs.text.contains("pässwörd"), "the password never reaches a log")
    }

    func testPasswordFromAPGPassFileWithWildcards() async throws {
        let passfile = "\(directory)/pgpass"
        let escaped = password.replacingOccurrences(of: "\\", with: "\\\\")
        try write("127.0.0.1:\(cluster!.port):other:alice:wrong\n*:*:chat:alice:\(escaped)\n", to: passfile, mode: 0o600)
        let settings = try ConnectionSettings.resolve(url: url, passwordFile: nil, environment: ["PGPASSFILE": passfile], home: nil)
        XCTAssertEqual(settings.passwordSource, "\(passfile) line 2")
        let store = try await open(settings, logs: CapturedLogs())
        let migrations = try await store.appliedMigrations()
        XCTAssertFalse(migrations.isEmpty)
        await store.close()
    }

    func testWrongOrMissingPasswordIsRefusedAtOnceWithTheCause() async throws {
        let logs = CapturedLogs()
        let wrong = try ConnectionSettings.resolve(url: url, passwordFile: nil, environment: ["PGPASSWORD": "not-it-42"], home: nil)
        let started = ContinuousClock.now
        do {
            _ = try await open(wrong, logs: logs)
            XCTFail("a wrong password logged in")
        } catch {
            guard case .loginRefused(let reason) = error else { return XCTFail("expected loginRefused, got \(error)") }
            XCTAssertTrue(reason.contains("password authentication failed"), reason)
            XCTAssertFalse("\(error)".contains("not-it-42"))
        }
        XCTAssertLessThan(ContinuousClock.now - started, .seconds(4), "refused at once, not at a timeout")

        let none = try ConnectionSettings.resolve(url: url, passwordFile: nil, environment: [:], home: "/nonexistent")
        do {
            _ = try await open(none, logs: logs)
            XCTFail("no password logged in")
        } catch {
            guard case .loginRefused(let reason) = error else { return XCTFail("expected loginRefused, got \(error)") }
            XCTAssertTrue(reason.contains("password"), reason)
        }
        XCTAssertFalse(logs.text.contains("not-it-42"))
    }

    func testUnreachableDatabaseIsUnavailableWithTheCause() async throws {
        let port = try freePort()
        let settings = try ConnectionSettings.resolve(url: "postgres://alice@127.0.0.1:\(port)/chat?sslmode=disable",
                                                      passwordFile: nil, environment: [:], home: nil)
        do {
            _ = try await open(settings, logs: CapturedLogs())
            XCTFail("connected to a port nothing listens on")
        } catch {
            guard case .databaseUnavailable(let reason) = error else { return XCTFail("expected databaseUnavailable, got \(error)") }
            XCTAssertTrue(reason.lowercased().contains("refused"), reason)
        }
    }
}

/// Every log line (at every level) the store emits, as text: message and metadata.
final class CapturedLogs: Sendable {
    private let lines = Mutex<[String]>([])

    var text: String { lines.withLock { $0.joined(separator: "\n") } }

    var logger: Logger {
        var logger = Logger(label: "test") { _ in Handler(sink: self) }
        logger.logLevel = .trace
        return logger
    }

    fileprivate func append(_ line: String) { lines.withLock { $0.append(line) } }

    private struct Handler: LogHandler {
        let sink: CapturedLogs
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(level: Logger.Level, message: Logger.Message, metadata: Logger.Metadata?, source: String,
                 file: String, function: String, line: UInt) {
            let all = self.metadata.merging(metadata ?? [:]) { $1 }
            sink.append("\(level) \(message) \(all)")
        }
    }
}
