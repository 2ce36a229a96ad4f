import XCTest
import MessageAIProtocol
@testable import MessageAIClient

/// The ASSIST_SYNC cursor and live pushes. With several nodes, pushes can arrive out of rev
/// order: a done mark made through this device's node (rev 12) is pushed at once, while the
/// item extracted a moment earlier through another node (rev 11) is pushed only once this node
/// reads it from the event log. A device that dropped its connection between the two must still
/// get rev 11 from its next ASSIST_SYNC, or `/actions` offline never shows it.
final class AssistCursorTests: XCTestCase {
    func testAPushNeverMovesTheSyncCursorPastAnItemItHasNotSeen() throws {
        var config = ClientConfiguration()
        config.dataDir = temporaryDirectory("assistcursor")
        addTeardownBlock { [dir = config.dataDir] in try? FileManager.default.removeItem(atPath: dir) }
        let c = Client(config: config, output: Output(json: true))
        var printed: [String] = []
        c.output.write = { text, _ in printed.append(text) }
        let saved = SavedSession(username: "alice", userID: 1, token: String(repeating: "ab", count: 32))
        try c.openAccount(saved)
        c.session = saved
        let store = try XCTUnwrap(c.store)
        let alice = UserInfo(userID: 1, username: "alice", displayName: "Alice")
        let bob = UserInfo(userID: 2, username: "bob", displayName: "Bob")
        try store.upsert(Conversation(conversationID: 4, kind: .direct, name: "", members: [alice, bob]))
        try store.setAssistCursor(10)        // the last ASSIST_SYNC answered up to rev 10

        let later = AssistItem(itemID: 3, conversationID: 4, seq: 9, kind: .action, text: "send Zoë the 東京 rollout notes",
                               who: "alice", due: "", from: "bob", rev: 12, engine: "local", engineVersion: "0.5.6")
        c.handleAssistItems(AssistItems(items: [later], cursor: 0))

        XCTAssertTrue(printed.contains { $0.contains("東京 rollout notes") }, "the push is shown: \(printed)")
        let cached = try store.assistItems(conversationID: 4, filter: .all, kind: nil, me: "alice", limit: 10)
        XCTAssertEqual(cached.map(\.itemID), [3], "and cached for /actions offline")
        XCTAssertEqual(try store.assistCursor(), 10,
                       "the next ASSIST_SYNC must still ask from rev 10, or rev 11 (pushed later, or never if the connection drops) is skipped")
    }
}
