import Foundation
import XCTest
@testable import MessageAIServer
import MessageAIProtocol

/// The WAL checkpoints run on a second connection (`WALCheckpointer`), not inside the hub's
/// commits. What a user would notice if that went wrong: a WAL that grows without end under a
/// steady stream of messages (disk filling up, slower reads), or messages missing after restart.
final class StoreCheckpointTests: XCTestCase {
    func testWALStaysBoundedUnderABurstAndEveryMessageSurvivesReopen() throws {
        let dir = try TempDirectory()
        let limits = WALCheckpointer.Limits(softFrames: 100, hardFrames: 800)
        var store = try SQLiteStore(path: dir.databasePath, synchronous: .normal, checkpoints: limits)
        XCTAssertEqual(try store.lockingMode(), "normal", "a second connection needs the shared locking mode")
        let ann = try store.makeUser("ann"), ben = try store.makeUser("ben")
        let dm = try store.directConversation(ann.id, ben.id, now: 1).0
        let walPath = dir.databasePath + "-wal"
        let pageSize = try XCTUnwrap(store.db.queryOne("PRAGMA page_size") { $0.int(0) })
        // The hard limit plus the largest transaction: the full-text index batch of 256
        // messages writes ~90 pages (a SEND ~5-10). Unchecked, the burst would leave ~20,000
        // frames (~80 MB).
        let capBytes = (Int(limits.hardFrames) + 150) * (pageSize + 24) + 32
        var largest = 0
        let count = 4_000 // one message per transaction, as W1 does: ~40,000 WAL frames unchecked
        for i in 0..<count {
            _ = try store.send(ann, dm.id, "burst \(i) é 文字 👩🏽‍💻", time: 10 + UInt64(i))
            if i % 100 == 0 {
                let size = (try? FileManager.default.attributesOfItem(atPath: walPath)[.size] as? Int) ?? 0
                largest = max(largest, size)
            }
        }
        let size = (try FileManager.default.attributesOfItem(atPath: walPath)[.size] as? Int) ?? 0
        largest = max(largest, size)
        let counts = try XCTUnwrap(store.checkpointer).checkpointCounts
        print("WAL after \(count) messages: \(size) B, largest seen \(largest) B (cap \(capBytes) B); "
              + "checkpoints in the background \(counts.background), on the writer \(counts.onWriter)")
        XCTAssertLessThanOrEqual(largest, capBytes, "the WAL stays under its cap")
        XCTAssertGreaterThan(counts.background, 0, "the background connection checkpointed")
        store.close()

        store = try SQLiteStore(path: dir.databasePath)
        defer { store.close() }
        let stored = try store.messages(conversationID: dm.id, afterSeq: 0, limit: 1_000)
        XCTAssertEqual(try store.conversation(id: dm.id)?.lastSeq, UInt64(count))
        XCTAssertEqual(stored.first?.text, "burst 0 é 文字 👩🏽‍💻")
        let last = try store.messages(conversationID: dm.id, afterSeq: UInt64(count - 1), limit: 10)
        XCTAssertEqual(last.map(\.text), ["burst \(count - 1) é 文字 👩🏽‍💻"])
    }

    func testClosingTheStoreClosesTheCheckpointConnectionAndFoldsTheWAL() throws {
        // Closing the store closes the checkpoint connection first; the WAL is then folded in
        // and removed by the store's own close, as without the checkpointer.
        let dir = try TempDirectory()
        let store = try SQLiteStore(path: dir.databasePath, synchronous: .full, checkpoints: .init(softFrames: 10))
        let ann = try store.makeUser("ann"), ben = try store.makeUser("ben")
        let dm = try store.directConversation(ann.id, ben.id, now: 1).0
        for i in 0..<50 { _ = try store.send(ann, dm.id, "m\(i)", time: UInt64(i)) }
        store.close()
        store.close()
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.databasePath + "-wal"))
        let reopened = try SQLiteStore(path: dir.databasePath)
        defer { reopened.close() }
        XCTAssertEqual(try reopened.conversation(id: dm.id)?.lastSeq, 50)
    }
}
