import Foundation
import MessageAIProtocol
import XCTest

/// What answering a login only after its node's `node_users` row commits costs, on one node on
/// a real PostgreSQL: RESUME of a user on no node (the row is written and waited for) beside
/// RESUME of a user already connected there (no row to write, nothing waits), and LOGIN for
/// scale (its password hash dominates). Opt-in (MEASURE_CLUSTER=1): it prints figures.
final class ClusterLoginMeasurement: ClusterTestCase {
    override func setUpWithError() throws {
        try XCTSkipUnless(ProcessInfo.processInfo.environment["MEASURE_CLUSTER"] == "1", "MEASURE_CLUSTER=1 to measure")
        try super.setUpWithError()
    }

    func testWhatWaitingForThePresenceRowAddsToALogin() throws {
        let cluster = try XCTUnwrap(Self.cluster)
        let name = "measure_login_\(UUID().uuidString.prefix(8).lowercased())"
        try cluster.createDatabase(name)
        let dir = try ServerTestDirectory()
        let node = try ChildServer(dataDir: dir.path, arguments: ["--database", cluster.url(database: name)])
        defer { _ = node.terminate() }
        let users = try TestUsers.register(["ann", "ben"], port: node.port)
        let (ann, ben) = (users[0], users[1])
        try TestUsers.makeContacts(ann, ben)
        ben.close()
        _ = try ann.push(Presence.self) { $0.user.username == "ben" && !$0.online }

        var first: [Double] = [], second: [Double] = [], logins: [Double] = []
        for i in 0..<60 {
            // ben on no node: his resume writes the row and is answered after its commit.
            let (phone, took) = try timed { try self.resume(ben.token, port: node.port) }
            first.append(took)
            _ = try ann.push(Presence.self) { $0.user.username == "ben" && $0.online }
            // ben already here: nothing to write, nothing waits.
            let (laptop, again) = try timed { try self.resume(ben.token, port: node.port) }
            second.append(again)
            if i < 8 {
                let (tablet, login) = try timed {
                    let c = try TestClient(port: node.port)
                    try c.hello()
                    let _: SessionGranted = try c.request(Login(login: "ben", password: TestUsers.password))
                    return c
                }
                logins.append(login)
                tablet.close()
            }
            phone.close()
            laptop.close()
            // The next round starts with ben on no node again.
            _ = try ann.push(Presence.self) { $0.user.username == "ben" && !$0.online }
        }
        let (p50First, p50Second) = (median(first), median(second))
        print(String(format: "ClusterLoginMeasurement: RESUME p50 %.2f ms with the row written and waited for, %.2f ms without (already online here): +%.2f ms; p90 %.2f / %.2f ms; LOGIN p50 %.1f ms (PBKDF2 600,000 rounds included), %d samples",
                     p50First, p50Second, p50First - p50Second, percentile(first, 0.9), percentile(second, 0.9), median(logins), first.count))
    }

    private func resume(_ token: [UInt8], port: Int) throws -> TestClient {
        let c = try TestClient(port: port)
        try c.hello()
        let _: SessionGranted = try c.request(Resume(token: token))
        return c
    }

    /// Connection, HELLO and the request, as a client logs in: the same in both cases but the row.
    private func timed<T>(_ body: () throws -> T) throws -> (T, Double) {
        let started = DispatchTime.now().uptimeNanoseconds
        let value = try body()
        return (value, Double(DispatchTime.now().uptimeNanoseconds - started) / 1e6)
    }

    private func median(_ xs: [Double]) -> Double { percentile(xs, 0.5) }
    private func percentile(_ xs: [Double], _ p: Double) -> Double {
        let sorted = xs.sorted()
        return sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]
    }
}
