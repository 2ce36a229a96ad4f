import MessageAISQLite
import Foundation
import XCTest
@testable import MessageAIServer
import MessageAIProtocol

final class StoreDurabilityTests: XCTestCase {
    func testFileDatabaseIsInWALModeWithForeignKeys() throws {
        let dir = try TempDirectory()
        for mode in [SQLiteStore.Synchronous.normal, .full] {
            let store = try SQLiteStore(path: dir.databasePath, synchronous: mode)
            XCTAssertEqual(try store.journalMode(), "wal")
            XCTAssertEqual(try store.db.queryOne("PRAGMA synchronous") { $0.int(0) }, mode == .full ? 2 : 1)
            XCTAssertEqual(try store.db.queryOne("PRAGMA foreign_keys") { $0.int(0) }, 1)
            // A write really goes through the WAL file.
            try store.makeUser("w\(mode.rawValue.lowercased())")
            XCTAssertTrue(FileManager.default.fileExists(atPath: dir.databasePath + "-wal"))
            store.close()
        }
    }

    func testExclusiveStoreKeepsWALAndItsDataAcrossReopen() throws {
        let dir = try TempDirectory()
        var store = try SQLiteStore(path: dir.databasePath, synchronous: .normal, exclusive: true)
        XCTAssertEqual(try store.lockingMode(), "exclusive")
        XCTAssertEqual(try store.journalMode(), "wal")
        let ann = try store.makeUser("ann"), ben = try store.makeUser("ben")
        let dm = try store.directConversation(ann.id, ben.id, now: 1).0
        let sent = try store.send(ann, dm.id, "locked in", time: 2).message
        store.close()

        // Closing released the locks: the default (shared) mode opens the same file.
        store = try SQLiteStore(path: dir.databasePath)
        defer { store.close() }
        XCTAssertEqual(try store.lockingMode(), "normal")
        XCTAssertEqual(try store.messages(conversationID: dm.id, afterSeq: 0, limit: 10), [sent])
    }

    func testReopeningAFileDatabaseKeepsEverything() throws {
        let dir = try TempDirectory()
        var store = try SQLiteStore(path: dir.databasePath)
        let ann = try store.makeUser("ann"), ben = try store.makeUser("ben"), cal = try store.makeUser("cal")
        let token = [UInt8](repeating: 0xAB, count: 32)
        let session = try store.createSession(userID: ann.id, tokenHash: token, device: "cli", now: 5)
        try store.addContact(owner: ann.id, contact: ben.id, now: 6)
        let dm = try store.directConversation(ann.id, ben.id, now: 7).0
        let group = try store.createGroup(name: "trio", creator: ann.id, members: [ben.id, cal.id], now: 8)
        let clientID = newClientID()
        let sent = try store.send(ann, dm.id, "kept?", time: 100, clientID: clientID).message
        _ = try store.send(cal, group.id, "group note", time: 110)
        _ = try store.raiseMarkers(conversationID: dm.id, userID: ben.id, delivered: 1, read: 1)
        let listBefore = try store.conversationList(userID: ann.id)
        store.close()

        store = try SQLiteStore(path: dir.databasePath)
        defer { store.close() }
        XCTAssertEqual(try store.user(login: "ANN"), ann)
        XCTAssertEqual(try store.session(tokenHash: token), session)
        XCTAssertEqual(try store.contacts(owner: ann.id).map(\.id), [ben.id])
        XCTAssertEqual(try store.directConversation(ben.id, ann.id, now: 9).0.id, dm.id)
        XCTAssertEqual(try store.messages(conversationID: dm.id, afterSeq: 0, limit: 10), [sent])
        XCTAssertEqual(try store.markers(conversationID: dm.id).map(\.readSeq), [0, 1])
        XCTAssertEqual(try store.search(userID: ben.id, query: "group", conversationID: nil, offset: 0, limit: 5).map(\.text), ["group note"])
        XCTAssertEqual(try store.conversationList(userID: ann.id).map(\.conversationID), listBefore.map(\.conversationID))
        XCTAssertEqual(try store.conversationList(userID: ann.id).map(\.unread), listBefore.map(\.unread))
        // Idempotency survives the restart: the resend gets the original.
        let resend = try store.send(ann, dm.id, "kept?", time: 999, clientID: clientID)
        XCTAssertTrue(resend.isDuplicate)
        XCTAssertEqual(resend.message, sent)
        XCTAssertEqual(try store.send(ann, dm.id, "next").message.seq, 2)
    }

    func testMigrationsAreRecordedOnceAndReopenIsANoOp() throws {
        let dir = try TempDirectory()
        var store = try SQLiteStore(path: dir.databasePath)
        let names = Migrations.all.map(\.name)
        XCTAssertEqual(try store.appliedMigrations(), names)
        try store.makeUser("ann")
        store.close()

        store = try SQLiteStore(path: dir.databasePath)
        XCTAssertEqual(try store.appliedMigrations(), names, "nothing applied twice")
        XCTAssertEqual(try Migrations.apply(to: store.db, now: 1), [], "applying again does nothing")
        XCTAssertNotNil(try store.user(username: "ann"))
        store.close()
    }

    func testANewMigrationIsAppliedOnceAndAFailedOneLeavesNoTrace() throws {
        let dir = try TempDirectory()
        let store = try SQLiteStore(path: dir.databasePath)
        defer { store.close() }
        let extra = Migrations.all + [Migration(name: "test_extra", sql: "CREATE TABLE extra (x INTEGER); INSERT INTO extra VALUES (1);")]
        XCTAssertEqual(try Migrations.apply(to: store.db, now: 2, migrations: extra), ["test_extra"])
        XCTAssertEqual(try Migrations.apply(to: store.db, now: 3, migrations: extra), [])
        XCTAssertEqual(try store.db.queryOne("SELECT count(*) FROM extra") { $0.int(0) }, 1)

        let broken = extra + [Migration(name: "test_broken", sql: "CREATE TABLE half (x); THIS IS NOT SQL;")]
        XCTAssertThrowsError(try Migrations.apply(to: store.db, now: 4, migrations: broken))
        XCTAssertFalse(try store.appliedMigrations().contains("test_broken"))
        XCTAssertNil(try store.db.queryOne("SELECT name FROM sqlite_master WHERE name = 'half'") { $0.string(0) },
                     "the failed migration's first statement was rolled back")
        // A database that knows a migration this code does not is refused rather than misused.
        XCTAssertThrowsError(try Migrations.apply(to: store.db, now: 5, migrations: Migrations.all))
    }

    func testUpgradeFromSchemaV1ReindexesExistingMessages() throws {
        let dir = try TempDirectory()
        let old = try Database(path: dir.databasePath)
        try Migrations.apply(to: old, now: 1, migrations: Array(Migrations.all.prefix(1)))
        try old.execute("""
            INSERT INTO users (id, username, username_lower, email, email_lower, display_name, password_hash, created_at)
                VALUES (1, 'ann', 'ann', 'a@x', 'a@x', 'Ann', 'h', 1), (2, 'ben', 'ben', 'b@x', 'b@x', 'Ben', 'h', 1);
            INSERT INTO conversations (id, kind, name, created_at, last_seq, last_activity) VALUES (7, 1, '', 1, 1, 5);
            INSERT INTO direct_pairs VALUES (1, 2, 7);
            INSERT INTO members (conversation_id, user_id, joined_at) VALUES (7, 1, 1), (7, 2, 1);
            INSERT INTO messages (conversation_id, seq, sender_id, client_id, text, server_time)
                VALUES (7, 1, 1, x'00112233445566778899aabbccddeeff', 'written before the upgrade', 5);
            """)
        old.close()

        let store = try SQLiteStore(path: dir.databasePath)
        defer { store.close() }
        XCTAssertEqual(try store.appliedMigrations(), Migrations.all.map(\.name))
        XCTAssertEqual(try store.search(userID: 2, query: "upgrade", conversationID: nil, offset: 0, limit: 5).map(\.text),
                       ["written before the upgrade"])
        let ann = try XCTUnwrap(try store.user(id: 1))
        _ = try store.send(ann, 7, "written after the upgrade", time: 6)
        XCTAssertEqual(try store.search(userID: 2, query: "written", conversationID: 7, offset: 0, limit: 5).map(\.seq), [2, 1])
    }

    func testMemoryDatabasesAreIndependent() throws {
        let a = try SQLiteStore(path: ":memory:"), b = try SQLiteStore(path: ":memory:")
        defer { a.close(); b.close() }
        try a.makeUser("ann")
        XCTAssertNil(try b.user(username: "ann"))
        XCTAssertEqual(try a.journalMode(), "memory")
    }

    func testClosedStoreThrowsInsteadOfCrashing() throws {
        let store = try SQLiteStore(path: ":memory:")
        store.close()
        store.close()
        XCTAssertThrowsError(try store.user(id: 1))
    }
}
