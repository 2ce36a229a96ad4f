import MessageAIProtocol
import XCTest

extension ClusterTestCase {
    /// A client on the node at `port`, logged in as `name` with the capabilities the real
    /// client announces (zlib, message changes): the several-node tests' way onto a node.
    func loggedIn(_ name: String, port: Int) throws -> TestClient {
        let c = try TestClient(port: port)
        try c.hello(capabilities: [.zlib, .messageChanges])
        let granted: SessionGranted = try c.request(Login(login: name, password: TestUsers.password))
        c.user = granted.user
        c.token = granted.token
        return c
    }
}
