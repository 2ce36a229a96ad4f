import Foundation
import MessageAIPostgres
import MessageAIStore
import MessageAIVocabulary
import XCTest

/// Delete for everyone on PostgreSQL, checked against the promise in PostgresStore+Purge.swift:
/// the text is gone from every read at once; after the purge, no file of the cluster's data
/// directory (tables, indexes, TOAST, WAL) holds the deleted text or an edit's old text, while
/// a kept message's text is still found there (so the scan is known to see what is there).
final class PurgeTests: PostgresTestCase {
    func testPurgeLeavesNoCopyOfDeletedOrEditedTextInAnyFile() async throws {
        let cluster = try XCTUnwrap(PostgresTestCase.cluster)
        let database = try newDatabase()
        let store = try await openStore(database: database)
        let (group, users) = try await makeGroup(store, users: 2)
        // Random words, so that nothing else in the cluster holds them and compression cannot hide them.
        func marker(_ name: String) -> String { "\(name)\(UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased())" }
        let (deleted, editedAway, kept) = (marker("deleted"), marker("editedaway"), marker("kept"))
        let gone = try await store.appendMessage(conversationID: group, senderID: users[0], clientID: newClientID(),
                                                 text: "secret \(deleted) плохо", serverTime: now())
        let edited = try await store.appendMessage(conversationID: group, senderID: users[1], clientID: newClientID(),
                                                   text: "typo \(editedAway)", serverTime: now())
        _ = try await store.appendMessage(conversationID: group, senderID: users[1], clientID: newClientID(),
                                          text: "stays \(kept)", serverTime: now())
        try cluster.psql("CHECKPOINT")
        let before = try cluster.dataFiles(containing: deleted)
        XCTAssertTrue(before.contains { $0.contains("/base/") }, "the table holds the text before: \(before)")
        XCTAssertTrue(before.contains { $0.contains("/pg_wal/") }, "the WAL holds the text before: \(before)")

        let owedBefore = try await store.purgeOwedSince()
        XCTAssertNil(owedBefore)
        _ = try await store.apply(.init(conversationID: group, actorID: users[0], clientID: newClientID(), targetSeq: gone.seq,
                                        action: .delete, serverTime: now()))
        _ = try await store.apply(.init(conversationID: group, actorID: users[1], clientID: newClientID(), targetSeq: edited.seq,
                                        action: .edit, text: "fixed", serverTime: now()))
        // At once, for every reader.
        let read = try await store.message(conversationID: group, seq: gone.seq)
        XCTAssertEqual(read?.text, "")
        let found = try await store.search(userID: users[1], query: deleted, conversationID: nil, offset: 0, limit: 10)
        XCTAssertEqual(found, [])
        let owed = try await store.purgeOwedSince()
        XCTAssertNotNil(owed, "the delete owes a purge, recorded in its own transaction")
        try cluster.psql("CHECKPOINT")
        let stillInFiles = try cluster.dataFiles(containing: deleted)
        XCTAssertFalse(stillInFiles.isEmpty, "without the purge the bytes stay (what the purge is for)")

        let report = try await store.purgeDeletedText()
        XCTAssertEqual(report, .init(rewrote: true, walCleared: true))
        for text in [deleted, editedAway] {
            let files = try cluster.dataFiles(containing: text)
            XCTAssertEqual(files, [], "\(text.prefix(10))... is still in \(files)")
        }
        let keptFiles = try cluster.dataFiles(containing: kept)
        XCTAssertTrue(keptFiles.contains { $0.contains("/base/") }, "the kept message is still stored: \(keptFiles)")
        let owedAfter = try await store.purgeOwedSince()
        XCTAssertNil(owedAfter)
        let again = try await store.purgeDeletedText()
        XCTAssertEqual(again, .init(rewrote: false, walCleared: false), "nothing owed, nothing done")
        let history = try await store.messages(conversationID: group, afterSeq: 0, limit: 10)
        XCTAssertEqual(history.map(\.text), ["", "fixed", "stays \(kept)"])
    }

    /// The server asks for the purge after every delete and once a minute; the table rewrite
    /// runs only once the oldest owed delete is `purgeDelay` old, so deletes are gathered
    /// instead of each locking the messages table for a rewrite.
    func testThePurgeWaitsUntilTheOldestDeleteIsPurgeDelayOld() async throws {
        let database = try newDatabase()
        let gathering = try await openStore(database: database)
        let (group, users) = try await makeGroup(gathering, users: 1)
        let sent = try await gathering.appendMessage(conversationID: group, senderID: users[0], clientID: newClientID(),
                                                     text: "gathered delete", serverTime: now())
        _ = try await gathering.apply(.init(conversationID: group, actorID: users[0], clientID: newClientID(), targetSeq: sent.seq,
                                            action: .delete, serverTime: now()))
        let owed = try await gathering.purgeOwedSince()
        XCTAssertNotNil(owed)
        // Ten minutes not passed: nothing is rewritten, the purge stays owed.
        _ = try await gathering.runDeferred(.purgeDeleted)
        let stillOwed = try await gathering.purgeOwedSince()
        XCTAssertEqual(stillOwed, owed)
        // A node whose delay has passed (here: none) runs it, and it is owed no more.
        let due = try await openStore(database: database, purgeDelay: .zero)
        _ = try await due.runDeferred(.purgeDeleted)
        let afterPurge = try await due.purgeOwedSince()
        XCTAssertNil(afterPurge)
    }
}
