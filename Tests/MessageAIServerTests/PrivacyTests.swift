import Foundation
import MessageAIProtocol
@testable import MessageAIServer
import XCTest

/// Contact requests by consent, and blocking, over real sockets.
final class PrivacyTests: ThreeUserTestCase {
    func testARequestShowsNoPresenceUntilAcceptedThenBothWays() throws {
        let sent: Profile = try ann.request(ContactAdd(username: "ben"))
        XCTAssertEqual(sent.contactState, .requested)
        XCTAssertFalse(sent.online, "ben is online but ann may not know it yet")
        // ben hears of it live, names only.
        let incoming = try ben.push(ContactUpdate.self)
        XCTAssertEqual(incoming.profile.user.username, "ann")
        XCTAssertEqual(incoming.profile.contactState, .incoming)
        XCTAssertFalse(incoming.profile.online)
        // ... and in his list (what a client reads after reconnecting).
        let list: Contacts = try ben.request(ContactsList())
        XCTAssertEqual(list.contacts.map(\.user.username), ["ann"])
        XCTAssertEqual(list.contacts.first?.contactState, .incoming)
        let annView: Profile = try ann.request(ProfileGet(username: "ben"))
        XCTAssertEqual(annView.contactState, .requested)
        XCTAssertFalse(annView.online)

        // No presence goes out before the accept.
        let benPhone = try TestUsers.secondSession(of: ben, port: server.port)
        ben.close()
        benPhone.close()
        let _: Pong = try ann.request(Ping())
        XCTAssertNil(ann.inbox.first { $0.type == .presence }, "a pending request must not leak presence")

        ben = try TestUsers.secondSession(of: ben, port: server.port)
        let accepted: Profile = try ben.request(ContactAccept(username: "ann"))
        XCTAssertEqual(accepted.contactState, .accepted)
        XCTAssertTrue(accepted.online)
        let told = try ann.push(ContactUpdate.self) { $0.profile.contactState == .accepted }
        XCTAssertEqual(told.profile.user.username, "ben")
        XCTAssertTrue(told.profile.online)
        // From now on presence flows.
        ben.close()
        let off = try ann.push(Presence.self) { $0.user.username == "ben" }
        XCTAssertFalse(off.online)
        XCTAssertGreaterThan(off.lastSeen, 0)
    }

    func testAddingEachOtherIsAnAcceptAndDeclineIsNotTold() throws {
        let _: Profile = try ann.request(ContactAdd(username: "ben"))
        let both: Profile = try ben.request(ContactAdd(username: "ann"))
        XCTAssertEqual(both.contactState, .accepted)
        XCTAssertTrue(both.online)

        let _: Profile = try cat.request(ContactAdd(username: "ann"))
        _ = try ann.push(ContactUpdate.self) { $0.profile.user.username == "cat" }
        let _: OK = try ann.request(ContactDecline(username: "cat"))
        let annList: Contacts = try ann.request(ContactsList())
        XCTAssertEqual(annList.contacts.map(\.user.username), ["ben"], "a declined request leaves the list")
        let catView: Profile = try cat.request(ProfileGet(username: "ann"))
        XCTAssertEqual(catView.contactState, .requested, "the requester is not told of the decline")
        // Asking again does not come back to ann.
        let _: Profile = try cat.request(ContactAdd(username: "ann"))
        let _: Pong = try ann.request(Ping())
        XCTAssertNil(ann.inbox.first { $0.type == .contactUpdate && (try? $0.decode(ContactUpdate.self).profile.user.username) == "cat" })
        XCTAssertEqual(try ann.requestError(ContactAccept(username: "ghost")).errorCode, .notFound)
        XCTAssertEqual(try ben.requestError(ContactAccept(username: "cat")).errorCode, .notFound, "no request from cat to ben")
    }

    /// Issue 23: removing the declined request and asking again does not reach the decliner
    /// either; the decliner can still accept it, and adding the requester forgets the decline.
    func testAskingAgainAfterRemovingDoesNotReachTheDecliner() throws {
        let _: Profile = try cat.request(ContactAdd(username: "ann"))
        _ = try ann.push(ContactUpdate.self) { $0.profile.user.username == "cat" }
        let _: OK = try ann.request(ContactDecline(username: "cat"))
        for _ in 0..<2 {
            let _: OK = try cat.request(ContactRemove(username: "ann"))
            let again: Profile = try cat.request(ContactAdd(username: "ann"))
            XCTAssertEqual(again.contactState, .requested, "cat is not told")
        }
        let _: Pong = try ann.request(Ping()) // a push would have come before the PONG
        XCTAssertNil(ann.inbox.first { $0.type == .contactUpdate }, "no new request reached ann")
        let list: Contacts = try ann.request(ContactsList())
        XCTAssertFalse(list.contacts.contains { $0.user.username == "cat" }, "cat is not in ann's list")
        let view: Profile = try ann.request(ProfileGet(username: "cat"))
        XCTAssertEqual(view.contactState, ContactState.none)
        // ann changes her mind: accepting works, and both are contacts.
        let accepted: Profile = try ann.request(ContactAccept(username: "cat"))
        XCTAssertEqual(accepted.contactState, .accepted)
    }

    func testBlockedUserCannotMessageAddOrSeeAndIsNotTold() throws {
        let _: Profile = try ann.request(ContactAdd(username: "ben"))
        let _: Profile = try ben.request(ContactAdd(username: "ann"))
        let dm = try ben.openDM(with: "ann")
        _ = try ben.sendText("before", in: dm.conversationID)

        let _: OK = try ann.request(Block(username: "ben"))
        let _: OK = try ann.request(Block(username: "ben")) // idempotent
        let blocked: Users = try ann.request(BlockedList())
        XCTAssertEqual(blocked.users.map(\.username), ["ben"])
        XCTAssertEqual(try ann.requestError(Block(username: "ann")).errorCode, .invalidArgument)

        // ben's SEND is refused with words that do not say "blocked"; ann gets nothing.
        ann.discard(.message)
        let refused = try ben.requestError(Send(conversationID: dm.conversationID, clientID: TestClient.newClientID(), text: "hello? 👋🏽"))
        XCTAssertEqual(refused.errorCode, .notAContact)
        XCTAssertFalse(refused.message.lowercased().contains("block"), refused.message)
        // ann is told why she cannot send.
        let own = try ann.requestError(Send(conversationID: dm.conversationID, clientID: TestClient.newClientID(), text: "x"))
        XCTAssertTrue(own.message.contains("unblock"), own.message)
        // ben cannot put ann in a group.
        let group = try ben.requestError(GroupCreate(name: "trap", usernames: ["ann", "cat"]))
        XCTAssertEqual(group.errorCode, .notAContact)
        XCTAssertFalse(group.message.lowercased().contains("block"), group.message)
        // ben sees ann as any non-contact: names only, no presence; no typing either way.
        let view: Profile = try ben.request(ProfileGet(username: "ann"))
        XCTAssertFalse(view.online)
        XCTAssertEqual(view.lastSeen, 0)
        // TYPING answered OK means the fan-out is done; a PONG after it means anything sent to
        // the other side would already be in its inbox (one connection's output is in order).
        let _: OK = try ben.request(Typing(conversationID: dm.conversationID))
        let _: OK = try ann.request(Typing(conversationID: dm.conversationID))
        let _: Pong = try ann.request(Ping())
        let _: Pong = try ben.request(Ping())
        XCTAssertNil(ann.inbox.first { $0.type == .typingEvent }, "no typing from the blocked user")
        XCTAssertNil(ben.inbox.first { $0.type == .typingEvent }, "no typing to the blocked user")
        // cat, an accepted contact, hears ann leave; ben, asked after that, heard nothing.
        let _: Profile = try cat.request(ContactAdd(username: "ann"))
        let _: Profile = try ann.request(ContactAccept(username: "cat"))
        ann.close()
        _ = try cat.push(Presence.self) { $0.user.username == "ann" && !$0.online }
        let _: Pong = try ben.request(Ping())
        XCTAssertNil(ben.inbox.first { $0.type == .presence }, "a blocked user gets no presence")

        let annAgain = try TestUsers.secondSession(of: ann, port: server.port)
        let page: HistoryPage = try annAgain.request(HistoryRequest(conversationID: dm.conversationID))
        XCTAssertEqual(page.messages.map(\.text), ["before"], "nothing from ben after the block")

        let _: OK = try annAgain.request(Unblock(username: "ben"))
        let empty: Users = try annAgain.request(BlockedList())
        XCTAssertTrue(empty.users.isEmpty)
        let ack = try ben.sendText("after", in: dm.conversationID)
        XCTAssertGreaterThan(ack.seq, 0)
    }

    func testRequestFromABlockedUserIsStoredButNeverShown() throws {
        let _: OK = try ann.request(Block(username: "cat"))
        let sent: Profile = try cat.request(ContactAdd(username: "ann"))
        XCTAssertEqual(sent.contactState, .requested, "cat cannot tell")
        let _: Pong = try ann.request(Ping())
        XCTAssertNil(ann.inbox.first { $0.type == .contactUpdate })
        let list: Contacts = try ann.request(ContactsList())
        XCTAssertTrue(list.contacts.isEmpty)
        // Nor is a new conversation cat opens with ann pushed to her.
        _ = try cat.openDM(with: "ann")
        let _: Pong = try ann.request(Ping())
        XCTAssertNil(ann.inbox.first { $0.type == .conversation })
    }

    /// A 0.1.0 client would read a request as an added contact who is offline: it is refused at
    /// the handshake, with words that say so, instead of being misled.
    func testAVersion1ClientIsRefusedAtTheHandshake() throws {
        let old = try TestClient(port: server.port)
        let e = try old.requestError(Hello(maxVersion: 1, minVersion: 1, capabilities: [.zlib], client: "messageai/0.1.0"))
        XCTAssertEqual(e.errorCode, .unsupportedVersion)
        XCTAssertTrue(e.message.contains("2"), e.message)
        XCTAssertTrue(try old.waitForClose())
    }
}

extension TestUsers {
    /// a asks, b accepts: a direct conversation between them is then no message request.
    static func makeContacts(_ a: TestClient, _ b: TestClient) throws {
        let _: Profile = try a.request(ContactAdd(username: b.username))
        let _: Profile = try b.request(ContactAccept(username: a.username))
        a.discard(.contactUpdate)
        b.discard(.contactUpdate)
    }
}
