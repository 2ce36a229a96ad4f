import Foundation
import MessageAIProtocol
@testable import MessageAIServer
import XCTest
import MessageAILoad

/// Flooding clients against a real server on a real socket: while several connections write
/// random and mutated frames as fast as they can, a newcomer still gets WELCOME and two users
/// still talk. Each step gets 2 s: generous next to the few milliseconds it takes with the
/// per-turn budget (a shared, loaded machine included), and short of the several seconds it
/// took when one connection's input could hold the hub (0.1.0: about 3 s a step with six
/// flooders in a debug build). How fast it stays is what `messageai-bench --workloads w6` measures.
final class FloodTests: XCTestCase {
    func testFloodingConnectionsDoNotStarveANewcomerOrAConversation() throws {
        let server = try TestServer()
        defer { server.stop() }
        let users = try TestUsers.register(["alice", "bob", "mallory"], port: server.port)
        let (alice, bob, mallory) = (users[0], users[1], users[2])
        let dm = try alice.openDM(with: bob.username)
        // Half the flooders are logged in (mutated requests reach the handlers past the login check).
        let flooders = (0..<6).map { i in Flooder(port: UInt16(server.port), token: i % 2 == 0 ? mallory.token : nil) }
        defer { for f in flooders { f.stop() } }
        // The flood is on: the server has answered plenty of it before the checks start.
        XCTAssertTrue(waitUntil(timeout: 20) { flooders.allSatisfy { $0.bytesSent > 256 * 1024 } }, "the flooders never got going")

        let step = 2.0
        for round in 0..<5 {
            let newcomer = try TestClient(port: server.port)
            let welcome: Welcome = try newcomer.request(Hello(capabilities: [.zlib], client: "newcomer"), timeout: step)
            XCTAssertEqual(welcome.version, ProtocolVersion.current)
            let text = "round \(round) während der Flut 🌊"
            let ack: SendAck = try alice.request(Send(conversationID: dm.conversationID, clientID: TestClient.newClientID(), text: text), timeout: step)
            XCTAssertEqual(try bob.push(ChatMessage.self, timeout: step) { $0.seq == ack.seq }.text, text)
        }
        for f in flooders { f.stop() }
        XCTAssertTrue(flooders.contains { $0.reconnectCount > 0 }, "noise that breaks the framing closes a flooder's connection")
        // After the flood the server is promptly itself again.
        let _: Pong = try alice.request(Ping(), timeout: 10)
        XCTAssertTrue(waitUntil(timeout: 10) { server.server.connectionCount <= 3 }, "flooders' connections are gone")
    }
}
