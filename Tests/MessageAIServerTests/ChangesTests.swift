import Foundation
import MessageAIProtocol
@testable import MessageAIServer
import XCTest

/// Replies, reactions, edits and deletes between real clients over real sockets.
final class ChangesTests: XCTestCase {
    var server: TestServer!
    var ann: TestClient!, ben: TestClient!, cat: TestClient!
    static let thumbs = "\u{1F44D}\u{1F3FD}"      // skin tone: two scalars, one grapheme
    static let family = "\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}" // ZWJ sequence

    override func setUpWithError() throws {
        server = try TestServer { $0.rateLimit = 100_000 }
        let users = try TestUsers.register(["ann", "ben", "cat"], port: server.port, capabilities: [.zlib, .messageChanges])
        (ann, ben, cat) = (users[0], users[1], users[2])
    }
    override func tearDown() { server?.stop() }

    private func group() throws -> UInt64 {
        let g: Conversation = try ann.request(GroupCreate(name: "deploys", usernames: ["ben", "cat"]))
        return g.conversationID
    }

    private func change(_ c: TestClient, _ cid: UInt64, _ target: UInt64, _ action: ChangeAction, emoji: String = "", text: String = "",
                        clientID: [UInt8] = TestClient.newClientID()) throws -> SendAck {
        try c.request(ChangeRequest(conversationID: cid, clientID: clientID, targetSeq: target, action: action, emoji: emoji, text: text))
    }

    private func changeError(_ c: TestClient, _ cid: UInt64, _ target: UInt64, _ action: ChangeAction, emoji: String = "",
                             text: String = "") throws -> ErrorCode? {
        try c.requestError(ChangeRequest(conversationID: cid, clientID: TestClient.newClientID(), targetSeq: target,
                                         action: action, emoji: emoji, text: text)).errorCode
    }

    func testWelcomeAnnouncesTheEditWindowOnlyToCapableClients() throws {
        let w = try TestClient(port: server.port).hello(capabilities: [.messageChanges])
        XCTAssertTrue(w.capabilities.contains(.messageChanges))
        XCTAssertEqual(w.editWindow, 24 * 3_600_000)
        let o = try TestClient(port: server.port).hello()
        XCTAssertFalse(o.capabilities.contains(.messageChanges))
        XCTAssertEqual(o.editWindow, 0)
    }

    func testReplyReactEditDeleteReachMembersInOneSequenceAndFollowTheRules() throws {
        let cid = try group()
        _ = try ben.push(Conversation.self); _ = try cat.push(Conversation.self)
        let catOld = try TestUsers.secondSession(of: cat, port: server.port) // no messageChanges
        let original = try ann.sendText("the deploy moved to 3pm, café crème for all 🎉", in: cid)
        let reply = try ben.request(Send(conversationID: cid, clientID: TestClient.newClientID(), text: "ok", replyTo: original.seq),
                                    expecting: SendAck.self)
        XCTAssertEqual(try cat.push(ChatMessage.self) { $0.seq == reply.seq }.replyTo, original.seq)

        let thumbsID = TestClient.newClientID()
        let react = try change(ben, cid, original.seq, .react, emoji: Self.thumbs, clientID: thumbsID)
        XCTAssertEqual(react.seq, reply.seq + 1, "a change takes the next seq of the conversation")
        let pushed = try ann.push(MessageChange.self)
        XCTAssertEqual([pushed.seq, pushed.targetSeq], [react.seq, original.seq])
        XCTAssertEqual(pushed.emoji, Self.thumbs)
        XCTAssertEqual(pushed.actorUsername, "ben")
        // The outbox resends: the same change, counted once.
        let resent = try change(ben, cid, original.seq, .react, emoji: Self.thumbs, clientID: thumbsID)
        XCTAssertEqual([resent.seq, resent.duplicate ? 1 : 0], [react.seq, 1])
        let again = try change(ben, cid, original.seq, .react, emoji: Self.thumbs)
        XCTAssertEqual([again.seq, again.duplicate ? 1 : 0], [0, 1], "one of each emoji per member: a no-op")
        XCTAssertEqual(try change(cat, cid, original.seq, .react, emoji: Self.family).duplicate, false)
        XCTAssertEqual(try change(cat, cid, original.seq, .react, emoji: "🇫🇷").duplicate, false)

        for bad in ["a", "👍👍", "", "e\u{301}", ":+1:", "1", String(repeating: "👍", count: 1) + "x"] {
            XCTAssertEqual(try changeError(cat, cid, original.seq, .react, emoji: bad), .invalidReaction, "\(bad.debugDescription)")
        }
        XCTAssertEqual(try changeError(ben, cid, original.seq, .edit, text: "mine now"), .notSender)
        XCTAssertEqual(try changeError(ben, cid, original.seq, .delete), .notSender)
        XCTAssertEqual(try changeError(ann, cid, 999, .edit, text: "x"), .noSuchMessage)
        XCTAssertEqual(try changeError(ann, cid, react.seq, .react, emoji: "🎉"), .noSuchMessage, "a change is not a message")
        XCTAssertEqual(try ben.requestError(Send(conversationID: cid, clientID: TestClient.newClientID(), text: "?", replyTo: 999)).errorCode,
                       .noSuchMessage)
        XCTAssertEqual(try ann.requestError(ChangeRequest(conversationID: cid, clientID: TestClient.newClientID(), targetSeq: 1,
                                                          action: .edit, text: "")).errorCode, .invalidArgument)

        let edit = try change(ann, cid, original.seq, .edit, text: "the deploy moved to 4pm")
        let editPush = try cat.push(MessageChange.self) { $0.seq == edit.seq }
        XCTAssertEqual(editPush.text, "the deploy moved to 4pm")
        XCTAssertEqual(try ann.request(SearchRequest(query: "3pm"), expecting: SearchResults.self).messages.count, 0, "old text left the index")
        XCTAssertEqual(try ann.request(SearchRequest(query: "4pm"), expecting: SearchResults.self).messages.map(\.seq), [original.seq])

        let delete = try change(ann, cid, original.seq, .delete)
        XCTAssertEqual(try ben.push(MessageChange.self) { $0.seq == delete.seq }.changeAction, .delete)
        XCTAssertEqual(try changeError(ben, cid, original.seq, .react, emoji: "🎉"), .messageDeleted)
        XCTAssertEqual(try changeError(ann, cid, original.seq, .edit, text: "back"), .messageDeleted)
        XCTAssertEqual(try ben.requestError(Send(conversationID: cid, clientID: TestClient.newClientID(), text: "?",
                                                 replyTo: original.seq)).errorCode, .messageDeleted)
        XCTAssertEqual(try ann.request(SearchRequest(query: "deploy"), expecting: SearchResults.self).messages.count, 0)

        let page: HistoryPage = try cat.request(HistoryRequest(conversationID: cid))
        XCTAssertEqual(page.messages.map(\.seq), [original.seq, reply.seq], "changes are not messages")
        XCTAssertTrue(page.messages[0].deleted)
        XCTAssertEqual(page.messages[0].text, "")
        XCTAssertEqual(page.messages[0].reactions, [], "a deleted message keeps no reactions")
        XCTAssertEqual(page.messages[1].replyTo, original.seq)
        let oldPage: HistoryPage = try catOld.request(HistoryRequest(conversationID: cid))
        XCTAssertEqual(oldPage.messages[0].text, "message deleted")
        // The old session got the messages but never a change.
        let _: Pong = try catOld.request(Ping())
        XCTAssertFalse(catOld.inbox.contains { $0.type == .messageChange })
        XCTAssertEqual(try catOld.requestError(ChangeRequest(conversationID: cid, clientID: TestClient.newClientID(), targetSeq: reply.seq,
                                                             action: .react, emoji: "🎉")).errorCode, .unknownFrameType)

        // Unread counts only messages from others: cat has 2 (ann's, ben's), not the 5 changes.
        let list: Conversations = try cat.request(ConversationsList())
        let view = try XCTUnwrap(list.conversations.first { $0.conversationID == cid })
        XCTAssertEqual(view.unread, 2)
        XCTAssertEqual(view.lastMessage?.seq, reply.seq, "the preview is the last message, not a change")
    }

    func testLeftMemberGetsNotAMember() throws {
        let cid = try group()
        let m = try ann.sendText("hello", in: cid)
        let _: OK = try cat.request(GroupLeave(conversationID: cid))
        XCTAssertEqual(try changeError(cat, cid, m.seq, .react, emoji: "👍"), .notAMember)
    }

    func testEditAfterTheWindowIsRefused() throws {
        server.stop()
        server = try TestServer { $0.rateLimit = 100_000; $0.editWindowMillis = 2_000 }
        let users = try TestUsers.register(["ann", "ben"], port: server.port, capabilities: [.zlib, .messageChanges])
        let dm = try users[0].openDM(with: "ben")
        let sent = try users[0].sendText("typo", in: dm.conversationID)
        XCTAssertEqual(try change(users[0], dm.conversationID, sent.seq, .edit, text: "fixed in time").duplicate, false)
        // The condition is the wall clock passing the window's end (2 s after the server time:
        // long enough that the first edit lands inside it on a loaded machine), with a deadline.
        let deadline = Date().addingTimeInterval(15)
        while UInt64(Date().timeIntervalSince1970 * 1000) <= sent.serverTime + 2_050, Date() < deadline { usleep(20_000) }
        let e = try users[0].requestError(ChangeRequest(conversationID: dm.conversationID, clientID: TestClient.newClientID(),
                                                        targetSeq: sent.seq, action: .edit, text: "too late"))
        XCTAssertEqual(e.errorCode, .editWindowClosed)
        XCTAssertTrue(e.message.contains("edit window"), e.message)
        XCTAssertEqual(try change(users[0], dm.conversationID, sent.seq, .delete).duplicate, false, "delete has no window")
    }

    func testSyncCarriesFinalStateAndChangesToDevicesThatWereAway() throws {
        let cid = try group()
        let first = try ann.sendText("lunch at noon?", in: cid)
        let second = try ann.sendText("secret: the launch code is swordfish", in: cid)
        let position = second.seq
        _ = try change(ben, cid, first.seq, .react, emoji: "🎉")
        _ = try change(cat, cid, first.seq, .react, emoji: "🎉")
        _ = try change(ben, cid, first.seq, .react, emoji: Self.thumbs)
        _ = try change(ben, cid, first.seq, .unreact, emoji: Self.thumbs)
        _ = try change(ann, cid, first.seq, .edit, text: "lunch at one?")
        _ = try change(ann, cid, second.seq, .delete)

        // A device that holds both messages gets the changes above its position, in order.
        let away = try TestUsers.secondSession(of: cat, port: server.port, capabilities: [.zlib, .messageChanges])
        let catchUp = try away.sync([SyncPosition(conversationID: cid, lastSeq: position)])
        let changes = catchUp.batches.flatMap(\.changes)
        XCTAssertEqual(changes.map(\.seq), Array(position + 1...position + 6))
        XCTAssertEqual(changes.compactMap(\.changeAction), [.react, .react, .react, .unreact, .edit, .delete])
        XCTAssertEqual(changes[4].text, "lunch at one?")
        XCTAssertEqual(catchUp.batches.flatMap(\.messages), [])

        // A fresh device sees the final state in the messages themselves.
        let fresh = try TestUsers.secondSession(of: ben, port: server.port, capabilities: [.zlib, .messageChanges])
        let all = try fresh.sync().batches
        let messages = all.flatMap(\.messages)
        XCTAssertEqual(messages.map(\.text), ["lunch at one?", ""])
        XCTAssertNotEqual(messages[0].editedAt, 0)
        XCTAssertEqual(messages[0].reactions.map(\.emoji), ["🎉", "🎉"])
        XCTAssertEqual(messages[0].reactions.map(\.username), ["ben", "cat"])
        XCTAssertTrue(messages[1].deleted)
        XCTAssertEqual(all.flatMap(\.changes).count, 6)
        // An old client's sync: no changes, the final texts.
        let old = try TestUsers.secondSession(of: ben, port: server.port)
        let oldSync = try old.sync().batches
        XCTAssertEqual(oldSync.flatMap(\.changes).count, 0)
        XCTAssertEqual(oldSync.flatMap(\.messages).map(\.text), ["lunch at one?", "message deleted"])
    }
}
