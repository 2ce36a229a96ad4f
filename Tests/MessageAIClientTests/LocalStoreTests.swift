import XCTest
import MessageAIProtocol
@testable import MessageAIClient

/// The same checks against an in-memory database and a temp file.
final class LocalStoreTests: XCTestCase {
    let alice = UserInfo(userID: 1, username: "alice", displayName: "Alice")
    let bob = UserInfo(userID: 2, username: "bob", displayName: "")
    let carol = UserInfo(userID: 3, username: "carol", displayName: "")

    private func eachStore(_ body: (LocalStore) throws -> Void) throws {
        try body(LocalStore(path: ":memory:", userID: 1))
        let path = NSTemporaryDirectory() + "store-\(UUID().uuidString).sqlite"
        defer { for s in ["", "-wal", "-shm"] { unlink(path + s) } }
        try body(LocalStore(path: path, userID: 1))
    }

    private func msg(_ cid: UInt64, _ seq: UInt64, from u: UserInfo, _ text: String) -> ChatMessage {
        ChatMessage(conversationID: cid, seq: seq, clientID: Hex.decode(Outbox.newClientID())!, senderID: u.userID,
                    senderUsername: u.username, serverTime: 1_700_000_000_000 + seq, text: text)
    }

    func testUnreadCountsInOneQueryMatchTheSummaries() throws {
        try eachStore { s in
            try s.upsert(Conversation(conversationID: 5, kind: .direct, name: "", members: [alice, bob]))
            try s.upsert(Conversation(conversationID: 6, kind: .group, name: "crew", members: [alice, bob, carol], lastActivity: 9))
            try s.insert([msg(5, 1, from: bob, "a"), msg(5, 2, from: alice, "b"), msg(5, 3, from: bob, "c"),
                          msg(6, 1, from: carol, "d"), msg(6, 2, from: bob, "e")])
            try s.raiseMarker(5, userID: 1, username: "alice", delivered: 1, read: 1)
            let counts = try s.unreadCounts()
            XCTAssertEqual(counts.map(\.name), ["bob", "crew"], "most recent message first")
            XCTAssertEqual(counts.map(\.unread), [1, 2], "own messages and read ones do not count")
            XCTAssertEqual(counts.map(\.unread), try s.summaries().map(\.unread))
            XCTAssertEqual(counts.map(\.name), try s.summaries().map(\.conversation.name))
        }
    }

    func testMessagesAreStoredOncePerSeqAndSyncPositionsFollow() throws {
        try eachStore { s in
            try s.upsert(Conversation(conversationID: 5, kind: .direct, name: "", members: [alice, bob]))
            let m1 = msg(5, 1, from: bob, "hi"), m2 = msg(5, 2, from: alice, "hello")
            XCTAssertEqual(try s.insert([m1, m2]).count, 2)
            XCTAssertEqual(try s.insert([m1, m2, msg(5, 3, from: bob, "new")]).map(\.seq), [3])
            XCTAssertEqual(try s.count(in: 5), 3)
            XCTAssertEqual(try s.syncPositions(), [SyncPosition(conversationID: 5, lastSeq: 3)])
            XCTAssertEqual(try s.messages(in: 5, limit: 2).map(\.seq), [2, 3])
            XCTAssertEqual(try s.messages(in: 5, limit: 2, before: 3).map(\.seq), [1, 2])
            XCTAssertEqual(try s.messages(in: 5, limit: 2, before: 1).map(\.seq), [])
            XCTAssertEqual(try s.conversation(5)?.name, "bob", "a direct conversation is named after the other member")
            XCTAssertEqual(try s.findConversation("BOB")?.id, 5)
            XCTAssertEqual(try s.findConversation("5")?.id, 5)
            XCTAssertNil(try s.findConversation("nobody"))
        }
    }

    func testUnknownMessageKindsAreStoredAsUnsupported() throws {
        try eachStore { s in
            var file = msg(5, 1, from: bob, "raw file reference")
            file.kind = 2
            try s.insert([file])
            XCTAssertEqual(try s.message(in: 5, seq: 1)?.text, "(unsupported message)")
        }
    }

    func testStatesFollowTheOtherMembersMarkersAndNeverGoBack() throws {
        try eachStore { s in
            try s.upsert(Conversation(conversationID: 5, kind: .direct, name: "", members: [alice, bob]))
            try s.insert([msg(5, 1, from: alice, "a"), msg(5, 2, from: alice, "b")])
            XCTAssertEqual(try s.state(of: 1, in: 5), .sent)
            try s.raiseMarker(5, userID: 2, username: "bob", delivered: 2, read: 1)
            XCTAssertEqual(try s.state(of: 1, in: 5), .read)
            XCTAssertEqual(try s.state(of: 2, in: 5), .delivered)
            try s.raiseMarker(5, userID: 2, username: "bob", delivered: 0, read: 0)
            XCTAssertEqual(try s.state(of: 1, in: 5), .read, "markers only go up")
            XCTAssertEqual(try s.ownMessages(in: 5, after: 1, upTo: 2).map(\.seq), [2])
        }
    }

    func testGroupMessageIsReadWhenEveryRecipientReadIt() throws {
        try eachStore { s in
            try s.upsert(Conversation(conversationID: 9, kind: .group, name: "Team", members: [alice, bob, carol]))
            try s.insert([msg(9, 1, from: alice, "standup?")])
            try s.raiseMarker(9, userID: 2, username: "bob", delivered: 1, read: 1)
            XCTAssertEqual(try s.state(of: 1, in: 9), .sent)
            try s.raiseMarker(9, userID: 3, username: "carol", delivered: 1, read: 0)
            XCTAssertEqual(try s.state(of: 1, in: 9), .delivered)
            try s.raiseMarker(9, userID: 3, username: "carol", delivered: 1, read: 1)
            XCTAssertEqual(try s.state(of: 1, in: 9), .read)
            XCTAssertEqual(try s.findConversation("team")?.name, "Team")
        }
    }

    func testUnreadCountsOnlyOthersAboveMyReadMarker() throws {
        try eachStore { s in
            try s.upsert(Conversation(conversationID: 5, kind: .direct, name: "", members: [alice, bob], readSeq: 1))
            try s.insert([msg(5, 1, from: bob, "1"), msg(5, 2, from: bob, "2"), msg(5, 3, from: alice, "3"), msg(5, 4, from: bob, "4")])
            XCTAssertEqual(try s.unread(in: 5), 2)
            try s.raiseMarker(5, userID: 1, username: "alice", delivered: 4, read: 4)
            XCTAssertEqual(try s.unread(in: 5), 0)
            XCTAssertEqual(try s.summaries().first?.lastText, "4")
        }
    }

    /// The cache's /find follows the server's rules (`FullTextQuery`): words, not substrings;
    /// operators and quotes are separators; the last word is a prefix; the query is bound.
    func testSearchUsesTheServersWordRulesAndBindsTheQuery() throws {
        try eachStore { s in
            try s.upsert(Conversation(conversationID: 5, kind: .direct, name: "", members: [alice, bob]))
            try s.insert([msg(5, 1, from: bob, "100% sure"), msg(5, 2, from: bob, "1000 things"),
                          msg(5, 3, from: bob, "it's o'clock"), msg(5, 4, from: bob, "under_score")])
            XCTAssertEqual(try s.search("100%").map(\.seq), [2, 1], "a prefix of the last word, newest first")
            XCTAssertEqual(try s.search("'").map(\.seq), [], "no word, no match")
            XCTAssertEqual(try s.search("clock IT").map(\.seq), [3])
            XCTAssertEqual(try s.search("under_score").map(\.seq), [4])
            XCTAssertEqual(try s.search("THINGS").map(\.seq), [2])
            XCTAssertEqual(try s.search("'); DROP TABLE messages; --").count, 0)
            XCTAssertEqual(try s.search("sure OR things NEAR(x) \"").count, 0, "operators are words here")
            XCTAssertEqual(try s.count(in: 5), 4)
        }
    }

    /// An edited or deleted message (a later protocol's change) is found by its new text only.
    func testSearchIndexFollowsEditsAndDeletes() throws {
        try eachStore { s in
            try s.upsert(Conversation(conversationID: 5, kind: .direct, name: "", members: [alice, bob]))
            try s.insert([msg(5, 1, from: bob, "see you at noon"), msg(5, 2, from: bob, "bring the map")])
            try s.db.run("UPDATE messages SET text='see you at one' WHERE conversation_id=5 AND seq=1")
            try s.db.run("DELETE FROM messages WHERE conversation_id=5 AND seq=2")
            XCTAssertEqual(try s.search("noon").count, 0)
            XCTAssertEqual(try s.search("see one").map(\.text), ["see you at one"])
            XCTAssertEqual(try s.search("map").count, 0)
        }
    }

    func testQueuedMessagesAreSearchedByTheSameRules() throws {
        try eachStore { s in
            let entries = ["Déjà vu", "plain", "déjà again"].map {
                OutboxEntry(clientID: Outbox.newClientID(), conversationID: 5, text: $0, created: 1)
            }
            XCTAssertEqual(try s.searchQueued("DEJA", in: entries).map(\.text), ["déjà again", "Déjà vu"], "newest first")
            XCTAssertEqual(try s.searchQueued("pla", in: entries).map(\.text), ["plain"])
            XCTAssertEqual(try s.searchQueued("vu", in: Array(entries.prefix(1))).map(\.text), ["Déjà vu"], "each search starts afresh")
        }
    }
}
