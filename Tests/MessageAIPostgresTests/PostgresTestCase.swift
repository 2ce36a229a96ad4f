import Foundation
import MessageAIPostgres
import MessageAIStore
import MessageAIVocabulary
import XCTest

/// One cluster for the whole class (initdb costs seconds), a fresh database per test, and
/// every store a test opened closed at its end.
class PostgresTestCase: XCTestCase {
    nonisolated(unsafe) static var cluster: TestCluster?
    nonisolated(unsafe) private var stores: [PostgresStore] = []

    override class func tearDown() {
        PostgresTestCase.cluster?.stop()
        PostgresTestCase.cluster = nil
        super.tearDown()
    }

    /// Started by the first test (a skip or a start failure is then reported on each test),
    /// in the synchronous setUp because it runs on the main thread (see TestCluster).
    override func setUpWithError() throws {
        if PostgresTestCase.cluster == nil { PostgresTestCase.cluster = try TestCluster.start() }
    }

    override func tearDown() async throws {
        for store in stores { await store.close() }
        stores = []
    }

    /// A store on a new database of `cluster`, migrated.
    /// `database`: an existing one (a second store on the same database), else a new one.
    func openStore(on cluster: TestCluster? = nil, database: String? = nil, maximumConnections: Int = 8,
                   operationTimeout: Duration = .seconds(10), purgeDelay: Duration = .seconds(600),
                   synchronousCommit: PostgresStore.SynchronousCommit = .on) async throws -> PostgresStore {
        let cluster = try XCTUnwrap(cluster ?? PostgresTestCase.cluster)
        let name = try database ?? newDatabase(on: cluster)
        var configuration = PostgresStore.Configuration(username: "postgres", database: name)
        configuration.unixSocketPath = cluster.socketPath
        configuration.maximumConnections = maximumConnections
        configuration.operationTimeout = operationTimeout
        configuration.purgeDelay = purgeDelay
        configuration.synchronousCommit = synchronousCommit
        let store = try await PostgresStore.open(configuration, now: now())
        stores.append(store)
        return store
    }

    /// A new, empty database on the cluster; returns its name.
    func newDatabase(on cluster: TestCluster? = nil) throws -> String {
        let cluster = try XCTUnwrap(cluster ?? PostgresTestCase.cluster)
        let name = "t_\(UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: ""))"
        try cluster.createDatabase(name)
        return name
    }

    /// Keeps `store` to be closed at the test's end.
    func track(_ store: PostgresStore) { stores.append(store) }

    /// `count` users in one group; returns (group, user ids).
    func makeGroup(_ store: PostgresStore, users count: Int) async throws -> (UInt64, [UInt64]) {
        var ids: [UInt64] = []
        for i in 0..<count {
            let name = "user\(i)_\(UInt32.random(in: 0...UInt32.max))"
            ids.append(try await store.createUser(username: name, email: "\(name)@example.org", displayName: name,
                                                  passwordHash: "x", now: now()))
        }
        return (try await store.createGroup(name: "team", memberIDs: ids, now: now()), ids)
    }
}

func now() -> UInt64 { UInt64(Date().timeIntervalSince1970 * 1000) }

/// A fresh 16-byte client id, as a client makes one (a random UUID).
func newClientID() -> [UInt8] {
    withUnsafeBytes(of: UUID().uuid) { Array($0) }
}
