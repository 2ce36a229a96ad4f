import Foundation
import XCTest
@testable import MessageAIServer
import MessageAIProtocol

/// Failures a user would notice: a full disk, and two connections racing on one file.
final class StoreFailureTests: XCTestCase {
    func testFullDiskIsReportedAndTheBatchLeavesNoTrace() {
        forEachStore { store, kind in
            let ann = try store.makeUser("ann"), ben = try store.makeUser("ben")
            let dm = try store.directConversation(ann.id, ben.id, now: 1).0
            _ = try store.send(ann, dm.id, "small", time: 10)
            // Cap the database at its current size plus a little: a big batch cannot fit.
            let pages = try XCTUnwrap(try store.db.queryOne("PRAGMA page_count") { $0.int(0) })
            _ = try store.db.queryOne("PRAGMA max_page_count = \(pages + 4)") { $0.int(0) }
            let big = String(repeating: "x", count: 9_000)
            let batch = (0..<50).map { _ in
                NewMessage(conversationID: dm.id, senderID: ben.id, clientID: newClientID(), text: big, serverTime: 20)
            }
            XCTAssertThrowsError(try store.append(batch)) { XCTAssertEqual($0 as? StoreError, .diskFull, "\(kind)") }
            XCTAssertEqual(try store.messages(conversationID: dm.id, afterSeq: 0, limit: 100).map(\.text), ["small"])
            XCTAssertEqual(try store.conversation(id: dm.id)?.lastSeq, 1)
            // Still usable: a small message fits and gets the next seq.
            XCTAssertEqual(try store.send(ben, dm.id, "still here", time: 30).message.seq, 2)
        }
    }

    func testTwoConnectionsRacingOnOneFileAgree() throws {
        let dir = try TempDirectory()
        let setup = try SQLiteStore(path: dir.databasePath)
        let ann = try setup.makeUser("ann"), ben = try setup.makeUser("ben")
        setup.close()

        let connections = try (0..<4).map { _ in try SQLiteStore(path: dir.databasePath) }
        defer { connections.forEach { $0.close() } }
        var dmIDs = [[UInt64]](repeating: [], count: connections.count)
        var registered = [Bool](repeating: false, count: connections.count)
        var failures = [String](repeating: "", count: connections.count)
        dmIDs.withUnsafeMutableBufferPointer { ids in
            registered.withUnsafeMutableBufferPointer { won in
                failures.withUnsafeMutableBufferPointer { failed in
                    DispatchQueue.concurrentPerform(iterations: connections.count) { i in
                        let store = connections[i]
                        do {
                            for _ in 0..<25 { ids[i].append(try store.directConversation(ann.id, ben.id, now: 1).0.id) }
                            do {
                                _ = try store.createUser(email: "racer\(i)@x.org", username: "Racer", displayName: "r",
                                                         passwordHash: "h", now: 2)
                                won[i] = true
                            } catch StoreError.usernameTaken {}
                        } catch {
                            failed[i] = "\(error)"
                        }
                    }
                }
            }
        }
        XCTAssertEqual(failures, Array(repeating: "", count: connections.count))
        XCTAssertEqual(Set(dmIDs.joined()).count, 1, "one direct conversation per pair")
        XCTAssertEqual(registered.filter { $0 }.count, 1, "exactly one registration wins")
        XCTAssertEqual(try connections[0].conversationList(userID: ann.id).count, 1)
    }
}
