import XCTest
import MessageAISQLite
import MessageAIProtocol
@testable import MessageAIClient

/// /list and tab completion read every conversation's summary: two queries whatever the
/// number of conversations, with the same answers as reading them one by one.
final class LocalStoreSummaryTests: XCTestCase {
    /// Counts the statements SQLite starts on a connection (its trace hook).
    private final class StatementCounter {
        var count = 0
        func attach(_ db: Database) {
            sqlite3_trace_v2(db.handle, UInt32(SQLITE_TRACE_STMT), { _, context, _, _ in
                Unmanaged<StatementCounter>.fromOpaque(context!).takeUnretainedValue().count += 1
                return 0
            }, Unmanaged.passUnretained(self).toOpaque())
        }
    }

    func testSummariesTakeTwoQueriesWhateverTheNumberOfConversations() throws {
        let s = try LocalStore(path: ":memory:", userID: 1)
        let alice = UserInfo(userID: 1, username: "alice", displayName: "Alice")
        for i in 0..<30 {
            let other = UserInfo(userID: 100 + UInt64(i), username: "user\(i)", displayName: "")
            let kind: ConversationKind = i % 3 == 0 ? .group : .direct
            try s.upsert(Conversation(conversationID: UInt64(i + 1), kind: kind, name: kind == .group ? "group \(i)" : "",
                                      members: [alice, other], lastActivity: UInt64(i), request: i == 4))
            try s.insert((0..<UInt64(i % 4)).map { $0 + 1 }.map {
                ChatMessage(conversationID: UInt64(i + 1), seq: $0, clientID: Hex.decode(Outbox.newClientID())!,
                            senderID: $0 == 2 ? 1 : other.userID, senderUsername: $0 == 2 ? "alice" : other.username,
                            serverTime: UInt64(i * 10) + $0, text: "m\(i).\($0) café")
            })
        }
        let counter = StatementCounter()
        counter.attach(s.db)
        let all = try s.summaries()
        XCTAssertEqual(counter.count, 2)

        XCTAssertEqual(all.count, 30)
        XCTAssertEqual(all.map(\.conversation.id), try s.conversationIDs())
        for summary in all {
            let id = summary.conversation.id
            XCTAssertEqual(summary.conversation, try s.conversation(id))
            XCTAssertEqual(summary.unread, try s.unread(in: id))
            XCTAssertEqual(summary.lastText, try s.messages(in: id, limit: 1).last?.text ?? "")
        }
        XCTAssertEqual(all.first { $0.conversation.id == 6 }?.conversation.name, "user5", "a direct one is named after the other")
        XCTAssertEqual(all.first { $0.conversation.id == 5 }?.conversation.request, true)
    }
}
