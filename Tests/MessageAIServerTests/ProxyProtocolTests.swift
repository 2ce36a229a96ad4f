import Foundation
import MessageAIProtocol
@testable import MessageAIServer
import XCTest

/// The PROXY protocol v2 from a trusted balancer (`--trusted-proxy`): the header is parsed byte
/// for byte, and over real sockets the client's address it names is the one the per-address
/// limits count, while nobody else can claim an address.
final class ProxyProtocolTests: XCTestCase {
    var server: TestServer!
    override func tearDown() { server?.stop() }

    /// HAProxy's `send-proxy-v2` header for a TCP client at `source`:`port` (IPv4 or IPv6),
    /// with one TLV behind the addresses as HAProxy adds with `proxy-v2-options`.
    static func header(source: String, port: UInt16 = 50_123, local: Bool = false, tlv: Bool = false) -> [UInt8] {
        var v4 = in_addr(), v6 = in6_addr()
        let isV4 = inet_pton(AF_INET, source, &v4) == 1
        if !isV4 { precondition(inet_pton(AF_INET6, source, &v6) == 1) }
        let address = isV4 ? withUnsafeBytes(of: &v4) { Array($0) } : withUnsafeBytes(of: &v6) { Array($0) }
        var body = address + address.map { _ in 0 } + [UInt8(port >> 8), UInt8(port & 0xFF), 0x1E, 0xC6]
        if tlv { body += [0x04, 0x00, 0x02, 0xAB, 0xCD] }  // PP2_TYPE_NOOP, 2 bytes
        return ProxyHeader.signature + [local ? 0x20 : 0x21, isV4 ? 0x11 : 0x21, UInt8(body.count >> 8), UInt8(body.count & 0xFF)] + body
    }

    // MARK: The parser

    func testParsesIPv4AndIPv6SourcesWithTLVs() {
        let four = Self.header(source: "203.0.113.7", tlv: true)
        XCTAssertEqual(ProxyHeader.parse(four), .header(length: four.count, source: "203.0.113.7"))
        let six = Self.header(source: "2001:db8::42")
        XCTAssertEqual(ProxyHeader.parse(six), .header(length: six.count, source: "2001:db8::42"))
        let local = Self.header(source: "203.0.113.7", local: true)
        XCTAssertEqual(ProxyHeader.parse(local), .header(length: local.count, source: nil), "LOCAL: the balancer's own check")
    }

    func testAsksForExactlyTheBytesItLacks() {
        let full = Self.header(source: "198.51.100.1")
        XCTAssertEqual(ProxyHeader.parse(Array(full.prefix(5))), .needMore(total: 16))
        XCTAssertEqual(ProxyHeader.parse(Array(full.prefix(16))), .needMore(total: full.count))
        XCTAssertEqual(ProxyHeader.parse(Array(full.prefix(full.count - 1))), .needMore(total: full.count))
    }

    func testRefusesWhatIsNotAVersionTwoHeader() {
        let v1 = Array("PROXY TCP4 203.0.113.7 10.0.0.1 5000 7878\r\n".utf8)
        XCTAssertEqual(ProxyHeader.parse(v1), .invalid("no PROXY protocol v2 signature"))
        var wrongVersion = Self.header(source: "203.0.113.7")
        wrongVersion[12] = 0x11
        XCTAssertEqual(ProxyHeader.parse(wrongVersion), .invalid("PROXY protocol version 1"))
        var huge = Self.header(source: "203.0.113.7")
        huge[14] = 0xFF
        huge[15] = 0xFF
        XCTAssertEqual(ProxyHeader.parse(huge), .invalid("PROXY header of 65551 bytes"))
        var short = Self.header(source: "2001:db8::1")
        short[15] = 12  // an IPv6 family with an IPv4-sized body
        XCTAssertEqual(ProxyHeader.parse(Array(short.prefix(28))), .invalid("PROXY header too short for IPv6"))
        // A client speaking the protocol at once (no header) is refused on its first byte.
        XCTAssertEqual(ProxyHeader.parse(Frame(type: Ping.frameType, requestID: 1).encoded()),
                       .invalid("no PROXY protocol v2 signature"))
    }

    func testTrustedRangesMatchAddressesAndPrefixes() throws {
        let trusted = try TrustedProxies(["10.1.0.0/16", "127.0.0.7", "fd00::/8"])
        XCTAssertTrue(trusted.contains("10.1.200.3"))
        XCTAssertFalse(trusted.contains("10.2.0.1"))
        XCTAssertTrue(trusted.contains("127.0.0.7"))
        XCTAssertFalse(trusted.contains("127.0.0.8"))
        XCTAssertTrue(trusted.contains("::ffff:10.1.0.9"), "an IPv4 peer on an IPv6 socket")
        XCTAssertTrue(trusted.contains("fd12:3456::1"))
        XCTAssertFalse(trusted.contains("fe80::1"))
        XCTAssertThrowsError(try TrustedProxies(["10.0.0.0/33"]))
        XCTAssertThrowsError(try TrustedProxies(["balancer.example.org"]))
    }

    // MARK: Over real sockets

    /// A client behind the balancer at 127.0.0.7 whose header names `client`; `split` sends the
    /// header a byte at a time (a trickle) before the HELLO, else both in one write.
    func proxied(as client: String, split: Bool = false) throws -> TestClient {
        let c = try TestClient(port: server.port, source: "127.0.0.7")
        let header = Self.header(source: client)
        if split {
            for byte in header { c.sendRaw([byte]) }
        } else {
            c.sendRaw(header)
        }
        try c.hello()
        return c
    }

    func register(_ c: TestClient, _ name: String) throws -> Frame {
        let id = c.send(Register(email: "\(name)@example.org", username: name, password: TestUsers.password, displayName: name, device: "t"))
        return try c.wait(for: "register answer", timeout: 30) { $0.requestID == id }
    }

    /// The registration limit per address counts the clients the balancer names, not the
    /// balancer: two people behind it each register, and the second account from one of them
    /// waits, as it would without a balancer.
    func testLimitsCountTheClientsAddressNotTheBalancers() throws {
        server = try TestServer { $0.registrationsPerAddressPerHour = 1; $0.trustedProxies = try! TrustedProxies(["127.0.0.7"]) }
        let ann = try proxied(as: "203.0.113.7"), ben = try proxied(as: "2001:db8::9", split: true)
        XCTAssertEqual(try register(ann, "ann").type, SessionGranted.frameType)
        XCTAssertEqual(try register(ben, "ben").type, SessionGranted.frameType,
                       "another client behind the same balancer is not limited by the first")
        let again = try register(try proxied(as: "203.0.113.7"), "cal").decode(ErrorFrame.self)
        XCTAssertEqual(again.errorCode, .throttled, "the first client's second account waits")
        let names = server.server.queue.sync { server.server.peers.values.map(\.address) }
        XCTAssertTrue(Set(names).isSuperset(of: ["203.0.113.7", "2001:db8::9"]), "connections are known by the client's address: \(names)")
        XCTAssertFalse(names.contains("127.0.0.7"))
    }

    /// From the trusted address, no header (a balancer without send-proxy-v2) is refused
    /// rather than served as the balancer; from anyone else a header is not honoured.
    func testOnlyTrustedPeersMayNameAnAddressAndTheyMust() throws {
        server = try TestServer { $0.registrationsPerAddressPerHour = 1; $0.trustedProxies = try! TrustedProxies(["127.0.0.7"]) }
        let bare = try TestClient(port: server.port, source: "127.0.0.7")
        _ = bare.send(Ping())
        XCTAssertTrue(try bare.waitForClose(timeout: 10), "a trusted peer without a header is closed")

        let forger = try TestClient(port: server.port, source: "127.0.0.8")
        forger.sendRaw(Self.header(source: "198.51.100.23"))
        XCTAssertTrue(try forger.waitForClose(timeout: 10), "an untrusted peer's header is bytes the protocol refuses")

        // The balancer's own health check (LOCAL) is served under its address.
        let check = try TestClient(port: server.port, source: "127.0.0.7")
        check.sendRaw(Self.header(source: "198.51.100.23", local: true))
        try check.hello()
        XCTAssertEqual(try register(check, "dee").type, SessionGranted.frameType)
    }
}
