import Foundation
import MessageAIAssistant
import XCTest
@testable import MessageAIClient

/// Issue 28: "last seen" in the cache, the catch-up after 6 hours away as scripts see it
/// (never unasked; `/catchup away` on request), and the call hint's line. The REPL side is
/// scenario 66 and 65 (real ptys).
final class AwayCatchUpTests: ServerBackedTestCase {
    override class var directoryName: String { "away" }

    func testLastSeenIsKeptApartFromTheAssistantCursorAndMayMoveBack() throws {
        let path = temporaryDirectory("lastseen") + "/store.sqlite"
        let store = try LocalStore(path: path, userID: 1)
        XCTAssertNil(try store.lastSeen())
        try store.setAssistCursor(40)
        try store.setLastSeen(1_790_000_000_000)
        try store.setLastSeen(1_789_000_000_000)
        XCTAssertEqual(try store.lastSeen(), 1_789_000_000_000, "a clock set back moves it back")
        XCTAssertEqual(try store.assistCursor(), 40)
        XCTAssertEqual(try LocalStore(path: path, userID: 1).lastSeen(), 1_789_000_000_000, "kept in the file")
    }

    func testHowLongAwayReads() {
        XCTAssertEqual(Client.awayFor(7 * 3_600_000 + 59_000), "7h away")
        XCTAssertEqual(Client.awayFor(51 * 3_600_000), "2d 3h away")
    }

    func testAScriptGetsTheCatchUpOnlyWhenItAsksAndDoesNotCountAsBeingBack() throws {
        try clients.register("alice", "bob")
        let never = try clients.run("alice", ["/catchup away"], json: true)
        XCTAssertEqual(jsonLines(never.out).first { $0["type"] as? String == "error" }?["code"] as? String, "not_found", never.out)

        let sevenHoursAgo = UInt64(Date().timeIntervalSince1970 * 1000) - 7 * 3_600_000
        try LocalStore(path: AccountPaths(dataDir: clients.dir("alice"), username: "alice").store, userID: 0).setLastSeen(sevenHoursAgo)
        XCTAssertEqual(try clients.run("bob", ["/dm alice", "Alice, could you review the release notes by Friday?", "/wait sent"]).status, 0)
        let r = try clients.run("alice", ["/dm bob", "/catchup away"], json: true)
        XCTAssertEqual(r.status, 0, r.err)
        let answers = jsonLines(r.out).filter { $0["type"] as? String == "catchup" }
        XCTAssertEqual(answers.count, 1, "the one asked for, none unasked: \(r.out)")
        XCTAssertNil(answers.first?["automatic"])
        XCTAssertEqual((answers.first?["since"] as? NSNumber)?.uint64Value, sevenHoursAgo)
        let parts = answers.first?["conversations"] as? [[String: Any]] ?? []
        XCTAssertEqual(parts.map { $0["conversation"] as? String }, ["bob"])
        let yours = (parts.first?["yours"] as? [[String: Any]] ?? []).compactMap { $0["what"] as? String }
        XCTAssertTrue(yours.contains { $0.contains("review the release notes") }, "\(yours)")
        let store = try LocalStore(path: AccountPaths(dataDir: clients.dir("alice"), username: "alice").store, userID: 0)
        XCTAssertEqual(try store.lastSeen(), sevenHoursAgo, "a script is not the user coming back")
    }

    func testTheCallHintIsOneDimLineAndAJSONEvent() {
        let hint = CallHint(start: 0, asked: 0, question: "Which port does staging use?", turns: 6, speakers: ["alice", "bob"], minutes: 4)
        let direct = CallHintEvent(conversationID: 7, group: nil, with: ["bob"], hint: hint)
        XCTAssertEqual(TerminalRenderer(colour: false).render(direct),
                       "· this would be quicker as a call: 6 back-and-forths with bob in 4 min on \"Which port does staging use?\" (/set callhint off to stop these)\n")
        XCTAssertTrue(TerminalRenderer(colour: true).render(direct)?.hasPrefix("\u{1B}[2m· this") == true, "dim")
        let group = CallHintEvent(conversationID: 8, group: "design", with: ["bob"], hint: CallHint(start: 0, asked: 0, question: "Q?", turns: 7, speakers: [], minutes: 0))
        XCTAssertTrue(TerminalRenderer(colour: false).render(group)?.contains("with bob in [design] in under a minute") == true)
        XCTAssertEqual(JSONLinesRenderer().render(direct),
                       #"{"conversation_id":7,"minutes":4,"question":"Which port does staging use?","turns":6,"type":"call_hint","with":["bob"]}"# + "\n")
    }
}
