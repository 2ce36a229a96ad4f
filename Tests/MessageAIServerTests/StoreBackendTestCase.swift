import Foundation
import XCTest
@testable import MessageAIServer
import MessageAIPostgres

/// The backends one store test body runs on, in GRDB's manner: SQLite in memory and in a
/// file, and PostgreSQL (a fresh database per body on a throw-away cluster, `TestCluster`).
enum StoreBackend: CaseIterable, CustomStringConvertible {
    case sqliteMemory, sqliteFile, postgres
    var description: String {
        switch self {
        case .sqliteMemory: "SQLite in memory"
        case .sqliteFile: "SQLite file"
        case .postgres: "PostgreSQL"
        }
    }
}

/// A store test written once against the interface (`any Store`) and run on every backend.
/// Where PostgreSQL is not installed its run is skipped (and fails under CI, as TestCluster
/// decides); the SQLite runs go on.
class StoreBackendTestCase: XCTestCase {
    nonisolated(unsafe) static var cluster: TestCluster?
    nonisolated(unsafe) static var clusterUnavailable: String?

    override class func tearDown() {
        cluster?.stop()
        cluster = nil
        super.tearDown()
    }

    /// On the main thread (TestCluster's --pdeathsig), once per class.
    override func setUpWithError() throws {
        guard Self.cluster == nil, Self.clusterUnavailable == nil else { return }
        do {
            Self.cluster = try TestCluster.start()
        } catch {
            Self.clusterUnavailable = "\(error)"
        }
    }

    func forEachBackend(file: StaticString = #filePath, line: UInt = #line,
                        _ body: (any Store, StoreBackend) async throws -> Void) async {
        for backend in StoreBackend.allCases {
            let dir: TempDirectory
            let store: any Store
            do {
                dir = try TempDirectory()
                switch backend {
                case .sqliteMemory: store = try SQLiteStore(path: ":memory:")
                case .sqliteFile: store = try SQLiteStore(path: dir.databasePath)
                case .postgres:
                    guard let cluster = Self.cluster else {
                        print("store test: PostgreSQL run skipped: \(Self.clusterUnavailable ?? "no cluster")")
                        continue
                    }
                    let name = "s_\(UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: ""))"
                    try cluster.createDatabase(name)
                    var configuration = PostgresStore.Configuration(username: "postgres", database: name)
                    configuration.unixSocketPath = cluster.socketPath
                    configuration.operationTimeout = .seconds(30)
                    store = try await PostgresStore.open(configuration, now: 1)
                }
            } catch {
                XCTFail("\(backend): cannot open the store: \(error)", file: file, line: line)
                continue
            }
            do {
                try await body(store, backend)
            } catch {
                XCTFail("\(backend): \(error)", file: file, line: line)
            }
            await store.close()
            withExtendedLifetime(dir) {}
        }
    }
}

/// Small builders so the shared bodies read as scenarios (async: `any Store`).
extension Store {
    @discardableResult
    func addUser(_ name: String, now: UInt64 = 1_000) async throws -> UserRecord {
        try await createUser(email: "\(name)@example.com", username: name, displayName: name.capitalized,
                             passwordHash: "pbkdf2$test$\(name)", now: now)
    }

    func post(_ sender: UserRecord, _ conversation: UInt64, _ text: String, time: UInt64 = 2_000,
              clientID: [UInt8]? = nil) async throws -> AppendOutcome {
        try await append([NewMessage(conversationID: conversation, senderID: sender.id, clientID: clientID ?? newClientID(),
                                     text: text, serverTime: time)])[0]
    }

    func texts(_ conversation: UInt64, after: UInt64 = 0) async throws -> [String] {
        try await messages(conversationID: conversation, afterSeq: after, limit: 1000).map(\.text)
    }

    func seqs(_ conversation: UInt64, after: UInt64 = 0, limit: Int = 1000) async throws -> [UInt64] {
        try await messages(conversationID: conversation, afterSeq: after, limit: limit).map(\.seq)
    }
}
