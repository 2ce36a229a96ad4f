import MessageAIProtocol
@testable import MessageAIServer
import XCTest

/// A real server on port 0 with alice and bob registered and logged in, for the test classes
/// whose every test starts that way. The rate limit is out of the way unless a test sets one.
class TwoUserTestCase: XCTestCase {
    var server: TestServer!
    var alice: TestClient!, bob: TestClient!

    override func setUpWithError() throws {
        server = try TestServer { $0.rateLimit = 100_000 }
        let users = try TestUsers.register(["alice", "bob"], port: server.port)
        (alice, bob) = (users[0], users[1])
    }
    override func tearDown() { server?.stop() }
}

/// The same with three people, ann, ben and cat, and the server's default limits.
class ThreeUserTestCase: XCTestCase {
    var server: TestServer!
    var ann: TestClient!, ben: TestClient!, cat: TestClient!

    override func setUpWithError() throws {
        server = try TestServer()
        (ann, ben, cat) = try { (c: [TestClient]) in (c[0], c[1], c[2]) }(TestUsers.register(["ann", "ben", "cat"], port: server.port))
    }
    override func tearDown() { server?.stop() }
}
