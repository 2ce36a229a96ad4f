import Foundation
import MessageAIProtocol
@testable import MessageAIServer
import XCTest

/// A group's fan-out is cached per conversation (`AudienceCache`); every change of who is in
/// it or who is online must show in the very next message, whatever was cached before.
final class FanOutTests: XCTestCase {
    var server: TestServer!
    override func tearDown() { server?.stop() }

    func testNextMessageFollowsJoinLeaveLoginLogoutAndClose() throws {
        server = try TestServer { $0.rateLimit = 100_000 }
        let users = try TestUsers.register(["ann", "ben", "cat", "dan"], port: server.port)
        let (ann, ben, cat, dan) = (users[0], users[1], users[2], users[3])
        let group: Conversation = try ann.request(GroupCreate(name: "crew ☕️", usernames: ["ben", "cat"]))
        let id = group.conversationID
        var n = 0
        /// ann sends; exactly `to` get it (pushes are written before ann's ack, and a PING
        /// answered afterwards proves the others got nothing).
        func post(to receivers: [TestClient], notTo others: [TestClient]) throws {
            n += 1
            let text = "msg \(n) — naïve 👩🏽‍💻 مرحبا"
            _ = try ann.sendText(text, in: id)
            for r in receivers {
                XCTAssertEqual(try r.push(ChatMessage.self).text, text, "\(r.user!.username) missed message \(n)")
            }
            for o in others {
                let _: Pong = try o.request(Ping())
                XCTAssertFalse(o.inbox.contains { $0.type == .message }, "\(o.user!.username) got message \(n)")
            }
        }

        try post(to: [ben, cat], notTo: [dan])       // fills the cache
        try post(to: [ben, cat], notTo: [dan])       // served from it
        let _: Conversation = try ann.request(GroupAdd(conversationID: id, usernames: ["dan"]))
        try post(to: [ben, cat, dan], notTo: [])     // join
        let _: OK = try cat.request(GroupLeave(conversationID: id))
        try post(to: [ben, dan], notTo: [cat])       // leave
        let benPhone = try TestUsers.secondSession(of: ben, port: server.port)
        try post(to: [ben, benPhone, dan], notTo: [cat]) // login
        let annPhone = try TestUsers.secondSession(of: ann, port: server.port)
        try post(to: [ben, benPhone, dan, annPhone], notTo: [cat]) // the sender's other session
        benPhone.close()
        try waitUntil("the server noticed the close") { self.server.server.connectionCount == 5 }
        try post(to: [ben, dan, annPhone], notTo: [cat]) // close
        let _: OK = try dan.request(Logout())
        try post(to: [ben, annPhone], notTo: [cat, dan]) // logout
    }

    private func waitUntil(_ what: String, timeout: Double = 10, _ condition: () -> Bool) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while !condition() {
            guard Date() < deadline else { throw FanOutTimeout(what: what) }
            usleep(5_000)
        }
    }
}

private struct FanOutTimeout: Error {
    let what: String
}
