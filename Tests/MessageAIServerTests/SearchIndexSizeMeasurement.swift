import Foundation
import XCTest
@testable import MessageAIServer
import MessageAISQLite

/// Issue 24's figures for BENCHMARKS.md: the message index's size with the text as typed
/// (0.4.0) and cut by `search_words` (now), on W5's corpus and on Japanese text, and a search's
/// time on each. Opt-in (MEASURE_INDEX=1): it stores 100,000 messages twice.
final class SearchIndexSizeMeasurement: XCTestCase {
    /// W5's texts: "m<seq>" and four words of a 1,000-word vocabulary, padded to 64 bytes.
    static func w5Text(_ seq: Int) -> String {
        var state = UInt64(seq)
        func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        var s = "m\(seq)"
        for _ in 0..<4 { s += " " + word(Int(next() % 1_000)) }
        s += " "
        return s.utf8.count < 64 ? s + String(repeating: "x", count: 64 - s.utf8.count) : s
    }

    static func word(_ i: Int) -> String {
        let letters = Array("abcdefghijklmnopqrstuvwxyz")
        var n = i, s = "w"
        repeat { s.append(letters[n % 26]); n /= 26 } while n > 0
        return s + "q"
    }

    static let japanese = ["日本語のテストを明日行います", "東京タワーの近くで会議があります", "新しい機能のリリースは来週です",
                           "検索のインデックスを作り直しました", "サーバーの再起動は夜に行います"]

    /// Bytes of the index: the file after VACUUM, minus the same file with the index emptied.
    private func indexBytes(_ store: SQLiteStore, _ path: String) throws -> Int {
        func size() throws -> Int {
            try store.db.execute("VACUUM")
            return (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        }
        let with = try size()
        try store.db.execute("INSERT INTO messages_fts (messages_fts) VALUES ('delete-all')")
        return with - (try size())
    }

    private func measure(_ label: String, count: Int, text: (Int) -> String, query: String, asTyped: Bool) throws -> (Int, Double) {
        let dir = try TempDirectory()
        let store = try SQLiteStore(path: dir.databasePath)
        defer { store.close() }
        let ann = try store.makeUser("ann"), ben = try store.makeUser("ben")
        let dm = try store.directConversation(ann.id, ben.id, now: 1).0
        for start in stride(from: 0, to: count, by: 1_000) {
            _ = try store.append((start..<min(start + 1_000, count)).map {
                NewMessage(conversationID: dm.id, senderID: ann.id, clientID: newClientID(), text: text($0), serverTime: UInt64($0))
            })
        }
        try store.indexPendingMessages()
        if asTyped {  // the 0.4.0 index: the text as typed
            try store.db.execute("""
                INSERT INTO messages_fts (messages_fts) VALUES ('delete-all');
                INSERT INTO messages_fts (rowid, text, conv) SELECT id, text, 'c' || conversation_id FROM messages;
                """)
        }
        let rounds = 200
        let t0 = Date()
        var found = 0
        for _ in 0..<rounds { found = try store.search(userID: ann.id, query: query, conversationID: nil, offset: 0, limit: 20).count }
        let ms = Date().timeIntervalSince(t0) * 1000 / Double(rounds)
        let bytes = try indexBytes(store, dir.databasePath)
        print("MEASURE \(label) \(asTyped ? "as typed" : "search_words"): index \(bytes) bytes, search '\(query)' \(String(format: "%.3f", ms)) ms, \(found) found")
        return (bytes, ms)
    }

    func testIndexSizeAndSearchTimeBeforeAndAfter() throws {
        guard ProcessInfo.processInfo.environment["MEASURE_INDEX"] == "1" else { throw XCTSkip("MEASURE_INDEX=1 to measure") }
        let n = 100_000
        let w5Before = try measure("W5 corpus", count: n, text: Self.w5Text, query: Self.word(7), asTyped: true)
        let w5After = try measure("W5 corpus", count: n, text: Self.w5Text, query: Self.word(7), asTyped: false)
        XCTAssertLessThan(Double(w5After.0), Double(w5Before.0) * 1.05, "words-only text: the same index")
        let jaText = { (i: Int) in "\(Self.japanese[i % Self.japanese.count]) \(i)" }
        _ = try measure("Japanese", count: n, text: jaText, query: "東京", asTyped: true)
        _ = try measure("Japanese", count: n, text: jaText, query: "東京", asTyped: false)
    }
}
