import XCTest
import MessageAISocket
@testable import MessageAIClient

/// A server listening on IPv6 loopback (`--host ::1`) and clients reaching it with
/// `--server [::1]:PORT`: registration, a message both ways.
final class IPv6Tests: ServerBackedTestCase {
    override class var directoryName: String { "ipv6" }
    override class var serverHost: String { "::1" }

    func testClientsTalkThroughAnIPv6Server() throws {
        XCTAssertTrue(server.address.hasPrefix("[::1]:"), server.address)
        try clients.register("alice", "bob")
        XCTAssertEqual(try clients.run("alice", ["/dm bob", "over IPv6 🌍", "/wait sent"]).status, 0)
        let bob = try clients.run("bob", ["/dm alice", "/wait-messages 1", "/history"])
        XCTAssertEqual(bob.status, 0, bob.err)
        XCTAssertTrue(bob.out.contains("alice: over IPv6 🌍"), bob.out)
    }

    func testAddressesParseAndResolveForBothFamilies() throws {
        XCTAssertTrue(SocketAddress.parse("[::1]:7878")! == ("::1", 7878))
        XCTAssertTrue(SocketAddress.parse("[fe80::1%eth0]:1")! == ("fe80::1%eth0", 1))
        XCTAssertTrue(SocketAddress.parse("chat.example.org:443")! == ("chat.example.org", 443))
        XCTAssertNil(SocketAddress.parse("::1:7878"), "an IPv6 address needs its brackets")
        XCTAssertNil(SocketAddress.parse("[::1]"))
        XCTAssertNil(SocketAddress.parse("[::1]:0"))
        let v6 = try SocketAddress.resolve("::1", port: 9).get()
        XCTAssertEqual(v6.map(\.host), ["::1"])
        XCTAssertEqual(v6.first?.family, AF_INET6)
        XCTAssertEqual(v6.first?.port, 9)
        XCTAssertEqual(try SocketAddress.resolve("[::1]", port: 9, passive: true).get().map(\.host), ["::1"])
        XCTAssertEqual(try SocketAddress.resolve("127.0.0.1", port: 9).get().map(\.family), [AF_INET])
        // Nothing listens on port 9 of ::1: the error names the address as it was given.
        guard case .failure(let e) = Sockets.connect(host: "::1", port: 9, timeoutMs: 2000) else { return XCTFail("connected to port 9") }
        XCTAssertTrue(e.message.hasPrefix("cannot connect to [::1]:9: "), e.message)
    }
}
