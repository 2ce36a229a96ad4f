import Foundation
import XCTest
@testable import MessageAIServer
import MessageAIProtocol
import MessageAISQLite

final class StoreChangesTests: XCTestCase {
    /// A 0.1.0-era (v4) database with messages: v6 keeps every message, its seq, text and
    /// search, and the messages can then be reacted to, edited and deleted.
    func testMigrationFromAV4DatabaseKeepsEveryMessage() throws {
        let dir = try TempDirectory()
        let old = try Database(path: dir.databasePath)
        let v4 = Array(Migrations.all.prefix { $0.name != "v6_message_changes" && !$0.name.hasPrefix("v5") })
        XCTAssertEqual(v4.last?.name, "v4_contact_consent_and_blocks")
        try Migrations.apply(to: old, now: 1, migrations: v4)
        for (id, name) in [(1, "ann"), (2, "ben")] {
            try old.run("""
                INSERT INTO users (id, username, username_lower, email, email_lower, display_name, password_hash, created_at)
                VALUES (?, ?, ?, ?, ?, ?, 'x', 1)
                """, UInt64(id), name, name, "\(name)@example.org", "\(name)@example.org", name.capitalized)
        }
        try old.run("INSERT INTO conversations (id, kind, name, created_at, last_seq, last_activity) VALUES (1, 2, 'g', 1, 3, 1)")
        try old.run("INSERT INTO members (conversation_id, user_id, joined_at) VALUES (1, 1, 1), (1, 2, 1)")
        let texts = ["première réunion", "会议在三点", "مرحبا بالجميع"]
        for (i, text) in texts.enumerated() {
            try old.run("INSERT INTO messages (conversation_id, seq, sender_id, client_id, kind, text, server_time) VALUES (1, ?, 1, ?, 1, ?, ?)",
                        UInt64(i + 1), [UInt8](repeating: UInt8(i), count: 16), text, UInt64(10 + i))
        }
        old.close()

        let store = try SQLiteStore(path: dir.databasePath)
        defer { store.close() }
        XCTAssertTrue(try store.appliedMigrations().contains("v6_message_changes"))
        let kept = try store.messages(conversationID: 1, afterSeq: 0, limit: 10)
        XCTAssertEqual(kept.map(\.text), texts)
        XCTAssertEqual(kept.map(\.seq), [1, 2, 3])
        XCTAssertTrue(kept.allSatisfy { !$0.deleted && $0.editedAt == 0 && $0.replyTo == 0 })
        XCTAssertEqual(try store.search(userID: 2, query: "réunion", conversationID: nil, offset: 0, limit: 10).map(\.seq), [1])

        let edit = try store.apply(NewChange(conversationID: 1, actorID: 1, clientID: newClientID(), targetSeq: 1, action: .edit,
                                             text: "deuxième réunion", serverTime: 20))
        guard case .stored(let e) = edit else { return XCTFail("edit not stored") }
        XCTAssertEqual(e.seq, 4, "changes continue the old sequence")
        XCTAssertEqual(try store.search(userID: 2, query: "première", conversationID: nil, offset: 0, limit: 10), [])
        XCTAssertEqual(try store.search(userID: 2, query: "deuxième", conversationID: nil, offset: 0, limit: 10).map(\.seq), [1])
    }

    /// After a delete, the text is in neither the database file nor its WAL (nor its search
    /// index), while a message that was kept is still there: the check can fail.
    func testDeleteLeavesNoCopyInTheFileOrTheWAL() throws {
        let dir = try TempDirectory()
        let store = try SQLiteStore(path: dir.databasePath, synchronous: .normal, checkpoints: WALCheckpointer.Limits())
        let ann = try store.makeUser("ann"), ben = try store.makeUser("ben")
        let (dm, _) = try store.directConversation(ann.id, ben.id, now: 1)
        let gone = try store.send(ann, dm.id, "zanzibarquokka plans for friday").message
        _ = try store.send(ann, dm.id, "keepsakewombat stays").message
        for i in 0..<300 { _ = try store.send(ben, dm.id, "filler message \(i) about zanzibarquokka") } // many index segments
        try store.indexPendingMessages()
        for i in 0..<300 { _ = try store.send(ben, dm.id, "more filler \(i)") }
        try store.indexPendingMessages()
        let files = [dir.databasePath, dir.databasePath + "-wal"]
        func contains(_ word: String) -> Bool {
            files.contains { (FileManager.default.contents(atPath: $0) ?? Data()).range(of: Data(word.utf8)) != nil }
        }
        XCTAssertTrue(contains("zanzibarquokka plans"), "the text is on disk before the delete")
        // "friday" is in no other message: its index term (prefix-compressed, hence "riday").
        XCTAssertTrue(contains("riday"), "the index holds the word before the delete")
        guard case .stored = try store.apply(NewChange(conversationID: dm.id, actorID: ann.id, clientID: newClientID(),
                                                       targetSeq: gone.seq, action: .delete, serverTime: 3)) else { return XCTFail() }
        // The server runs the scrub's steps on the hub after answering the delete, as this does.
        try store.finishScrub()
        XCTAssertFalse(contains("zanzibarquokka plans"), "not in the database file or its WAL")
        XCTAssertFalse(contains("riday"), "nor in the full-text index's pages")
        XCTAssertTrue(contains("keepsakewombat stays"))
        XCTAssertEqual(try store.search(userID: ann.id, query: "friday", conversationID: nil, offset: 0, limit: 10), [])
        XCTAssertEqual(try store.search(userID: ann.id, query: "zanzibarquokka", conversationID: nil, offset: 0, limit: 1000).count, 300)
        store.close()
        XCTAssertFalse(contains("zanzibarquokka plans"), "nor after the store checkpoints on close")
    }

    /// A scrub still owed when the store stops (a crash between the delete's commit and the
    /// scrub's last step) is finished when the store opens again, before anything is served.
    func testAScrubCutShortIsFinishedAtTheNextOpen() throws {
        let dir = try TempDirectory()
        let files = [dir.databasePath, dir.databasePath + "-wal"]
        func contains(_ word: String) -> Bool {
            files.contains { (FileManager.default.contents(atPath: $0) ?? Data()).range(of: Data(word.utf8)) != nil }
        }
        do {
            let store = try SQLiteStore(path: dir.databasePath)
            let ann = try store.makeUser("ann"), ben = try store.makeUser("ben")
            let (dm, _) = try store.directConversation(ann.id, ben.id, now: 1)
            let gone = try store.send(ann, dm.id, "xylophonequagga meets on thursday").message
            for i in 0..<300 { _ = try store.send(ben, dm.id, "filler message \(i)") }
            try store.indexPendingMessages()
            for i in 0..<300 { _ = try store.send(ben, dm.id, "more filler \(i)") }
            try store.indexPendingMessages()
            guard case .stored = try store.apply(NewChange(conversationID: dm.id, actorID: ann.id, clientID: newClientID(),
                                                           targetSeq: gone.seq, action: .delete, serverTime: 3)) else { return XCTFail() }
            store.close() // no scrub step ran
        }
        // "thursday" is in no other message: its index term (prefix-compressed, hence "ursday").
        XCTAssertTrue(contains("ursday"), "the old index segment still holds the word")
        let store = try SQLiteStore(path: dir.databasePath)
        XCTAssertFalse(contains("ursday"), "the scrub was finished at open")
        XCTAssertFalse(try store.scrubStep(), "and is no longer owed")
        XCTAssertEqual(try store.search(userID: 1, query: "message", conversationID: nil, offset: 0, limit: 1000).count, 300,
                       "the merged index still finds every kept message")
        store.close()
    }

    /// A deleted message's assistant items are withdrawn: listed nowhere, synced to devices
    /// with empty text and a new rev, and never stored again by a late extraction.
    func testDeleteWithdrawsTheMessagesAssistantItems() throws {
        let dir = try TempDirectory()
        let store = try SQLiteStore(path: dir.databasePath)
        defer { store.close() }
        let ann = try store.makeUser("ann"), ben = try store.makeUser("ben")
        let (dm, _) = try store.directConversation(ann.id, ben.id, now: 1)
        let asked = try store.send(ann, dm.id, "ben, please tag the branch by 5pm").message
        let kept = try store.send(ann, dm.id, "ben, please write the notes").message
        func item(_ seq: UInt64, _ text: String) -> NewAssistItem {
            NewAssistItem(conversationID: dm.id, seq: seq, kind: .action, ordinal: 0, text: text, who: "ben", due: "5pm",
                          senderID: ann.id, engine: "local", engineVersion: "test")
        }
        let stored = try store.insertItems([item(asked.seq, "tag the branch"), item(kept.seq, "write the notes")], now: 2)
        XCTAssertEqual(stored.count, 2)
        let cursor = try store.assistantCursor()
        guard case .stored = try store.apply(NewChange(conversationID: dm.id, actorID: ann.id, clientID: newClientID(),
                                                       targetSeq: asked.seq, action: .delete, serverTime: 3)) else { return XCTFail() }
        XCTAssertEqual(try store.items(userID: ben.id, conversationID: nil, filter: .all, kind: nil, limit: 10).map(\.text), ["write the notes"])
        let changed = try store.itemsChanged(userID: ben.id, sinceRev: cursor, limit: 10)
        XCTAssertEqual(changed.map(\.seq), [asked.seq], "the withdrawal reaches devices by ASSIST_SYNC")
        XCTAssertEqual(changed.first?.text, "")
        XCTAssertEqual(changed.first?.who, "")
        XCTAssertNil(try store.item(id: stored[0].itemID, visibleTo: ben.id), "a withdrawn item cannot be marked done")
        XCTAssertEqual(try store.insertItems([item(asked.seq, "tag the release")], now: 4), [], "a late extraction stores nothing")
    }

    func testReactionsAreOnePerEmojiPerMemberAndOrdered() {
        forEachStore { store, kind in
            let ann = try store.makeUser("ann"), ben = try store.makeUser("ben")
            let (dm, _) = try store.directConversation(ann.id, ben.id, now: 1)
            let m = try store.send(ann, dm.id, "hi").message
            func react(_ u: UserRecord, _ e: String, _ a: ChangeAction = .react) throws -> ChangeOutcome {
                try store.apply(NewChange(conversationID: dm.id, actorID: u.id, clientID: newClientID(), targetSeq: m.seq, action: a,
                                          emoji: e, serverTime: 5))
            }
            XCTAssertNotEqual(try react(ben, "🎉"), .unchanged, "\(kind)")
            XCTAssertEqual(try react(ben, "🎉"), .unchanged, "\(kind): twice is a no-op")
            XCTAssertNotEqual(try react(ann, "👍"), .unchanged)
            XCTAssertNotEqual(try react(ann, "🎉"), .unchanged)
            XCTAssertEqual(try react(ben, "👍", .unreact), .unchanged, "removing what is not there")
            let shown = try store.withReactions([m])[0].reactions
            XCTAssertEqual(shown.map(\.emoji), ["🎉", "👍", "🎉"])
            XCTAssertEqual(shown.map(\.username), ["ben", "ann", "ann"])
            XCTAssertEqual(try store.changes(conversationID: dm.id, afterSeq: m.seq, limit: 10).count, 3)
            XCTAssertEqual(try store.conversationView(id: dm.id, userID: ben.id)?.unread, 1, "\(kind): reactions are not unread messages")
        }
    }
}
