import Foundation
import XCTest

/// A `ServerBackedTestCase` whose server runs on PostgreSQL: one throw-away cluster per class
/// (started by the first test's setUp, on the main thread as TestCluster's --pdeathsig needs),
/// and a new database per test, created before the server starts on it (`databaseURL`).
class PostgresBackedTestCase: ServerBackedTestCase {
    nonisolated(unsafe) static var cluster: TestCluster?
    nonisolated(unsafe) static var databaseURL = ""

    override class func tearDown() {
        cluster?.stop()
        cluster = nil
        super.tearDown()
    }

    override func setUpWithError() throws {
        if Self.cluster == nil { Self.cluster = try TestCluster.start() }
        let cluster = try XCTUnwrap(Self.cluster)
        let name = "t_\(UUID().uuidString.prefix(8).lowercased())"
        try cluster.createDatabase(name)
        Self.databaseURL = cluster.url(database: name)
        try super.setUpWithError()
    }
}
