import Foundation
import MessageAIProtocol
import MessageAISQLite
@testable import MessageAIServer
import XCTest
import MessageAILoad

/// SEARCH takes every query as literal words: no FTS5 syntax error, no operator that widens
/// the match, whatever Unicode the user types.
final class SearchQueryTests: XCTestCase {
    /// Words of the stored messages; "zzq" is in none of them, so any query holding "zzq"
    /// (all words must match) finds nothing, unless something in it became an FTS operator.
    static let corpus = [
        "deploy friday", "friday OR NOT", "NEAR the end", "lunch at noon", "café ☕️ friday",
        "say \"hello\" AND goodbye", "col:umn a*b ^start", "👩🏽‍💻 done friday", "مرحبا friday", "東京 friday",
    ]

    static let reported = ["a\"\u{0301}b", "x\"\u{0308} NOT y", "zz\"\u{0301} OR \"\u{0301}friday", "\"\u{0301}", "\"\u{0301}\"\u{0301}",
        // CI's seed 2994768105935789355: U+0D4E is a prepended letter, so it and the `"` after it
        // made one Character, and the quote went into the token.
        "\u{0D4E}\"\u{7D}N OR friday", "x\u{0D4E}\" OR \"friday", "a\u{200D}\"b", "\u{0600}\"1"]

    func testHundredThousandRandomQueriesAreLiteralWords() throws {
        let dir = try TempDirectory()
        let store = try SQLiteStore(path: dir.databasePath)
        defer { store.close() }
        let ann = try store.makeUser("ann"), ben = try store.makeUser("ben")
        let dm = try store.directConversation(ann.id, ben.id, now: 1).0
        for (i, text) in Self.corpus.enumerated() { _ = try store.send(ann, dm.id, text, time: UInt64(10 + i)) }
        XCTAssertEqual(try store.search(userID: ben.id, query: "friday", conversationID: nil, offset: 0, limit: 50).count, 6)

        let seed = UInt64.random(in: 0...UInt64.max)
        var rng = SplitMix64(seed: seed)
        var withBait = 0
        for i in 0..<100_000 {
            var query = QueryFuzzer.query(using: &rng)
            let bait = i % 2 == 0
            if bait {
                // "zzq" as a word of its own somewhere in the junk, and "friday" after an operator.
                let at = query.unicodeScalars.count == 0 ? 0 : Int.random(in: 0...query.unicodeScalars.count, using: &rng)
                var scalars = Array(query.unicodeScalars)
                scalars.insert(contentsOf: " zzq\" OR \"friday ".unicodeScalars, at: at)
                query = String(String.UnicodeScalarView(scalars))
                withBait += 1
            }
            let hits: [StoredMessage]
            do {
                hits = try store.search(userID: ben.id, query: query, conversationID: nil, offset: 0, limit: 20)
            } catch {
                XCTFail("seed \(seed), query \(query.unicodeScalars.map { String($0.value, radix: 16) }): \(error)")
                return
            }
            if bait, !hits.isEmpty {
                XCTFail("seed \(seed): \(query.debugDescription) matched \(hits.map(\.text)): an operator leaked")
                return
            }
        }
        XCTAssertEqual(withBait, 50_000)
        func texts(_ query: String) throws -> [String] {
            try store.search(userID: ben.id, query: query, conversationID: nil, offset: 0, limit: 50).map(\.text)
        }
        XCTAssertEqual(try texts("zz\"\u{0301} OR \"\u{0301}friday"), [], "OR is a word, zz is in no message")
        XCTAssertEqual(try texts("a\"\u{0301}b"), ["col:umn a*b ^start"], "the words a and b")
        XCTAssertEqual(try texts("x\"\u{0308} NOT y"), [])
        XCTAssertEqual(try texts("\"\u{0301}\"\u{0301}"), [], "no word at all")
    }

    func testTokensAreQuotedWordsOnly() {
        // A combining mark with no letter before it is no part of a word for SearchWords, the
        // one tokeniser of the index and the query; the index folds diacritics anyway.
        XCTAssertEqual(FullTextQuery.match("zz\"\u{0301} OR \"\u{0301}friday"), "\"zz\" \"OR\" \"friday\"*")
        XCTAssertEqual(FullTextQuery.match("don't (NEAR) x*"), "\"don\" \"t\" \"NEAR\" \"x\"*")
        XCTAssertEqual(FullTextQuery.match("café 東京"), "\"café\" \"東京\"*")
        XCTAssertNil(FullTextQuery.match("\" * ^ : ( ) \u{0301} 🙂"))
        for query in Self.reported + ["\"\"", "a\"b\"c"] {
            let fts = FullTextQuery.match(query) ?? ""
            // Quotes only at token edges: every token is one string with no quote inside.
            let pieces = fts.unicodeScalars.split(separator: " ")
            XCTAssertTrue(pieces.allSatisfy { p in
                let inner = p.last == "*" ? p.dropLast() : p[...]
                return inner.count >= 2 && inner.first == "\"" && inner.last == "\"" && !inner.dropFirst().dropLast().contains("\"")
            }, fts)
        }
    }

    func testReportedQueriesOverSockets() throws {
        let server = try TestServer()
        defer { server.stop() }
        let users = try TestUsers.register(["alice", "bob"], port: server.port)
        let (alice, bob) = (users[0], users[1])
        let dm = try alice.openDM(with: "bob")
        for text in Self.corpus { _ = try alice.sendText(text, in: dm.conversationID) }
        let friday: SearchResults = try bob.request(SearchRequest(query: "friday"))
        XCTAssertEqual(friday.messages.count, 6)
        var rng = SplitMix64(seed: 15)
        for query in Self.reported + (0..<20).map({ _ in QueryFuzzer.query(using: &rng) }) where !query.trimmingWhitespace.isEmpty {
            let f = try bob.wait(for: "search answer") { [id = bob.send(SearchRequest(query: String(query.unicodeScalars.prefix(256))))] in $0.requestID == id }
            if f.type == .error {
                let e = try f.decode(ErrorFrame.self)
                XCTAssertNotEqual(e.errorCode, .internalError, query.debugDescription)
                XCTAssertFalse(e.closes, query.debugDescription)
            } else {
                XCTAssertEqual(f.type, .searchResults)
            }
        }
        let injected: SearchResults = try bob.request(SearchRequest(query: "zz\"\u{0301} OR \"\u{0301}friday"))
        XCTAssertEqual(injected.messages.map(\.text), [], "OR is a word, not an operator")
        let operatorsAsWords: SearchResults = try bob.request(SearchRequest(query: "friday OR NOT"))
        XCTAssertEqual(operatorsAsWords.messages.map(\.text), ["friday OR NOT"])
        // The connection and the server are fine.
        _ = try alice.sendText("still here", in: dm.conversationID)
        XCTAssertEqual(try bob.push(ChatMessage.self) { $0.text == "still here" }.conversationID, dm.conversationID)
    }
}


/// Random queries of what breaks FTS5 query syntax: quotes, combining marks, operators,
/// parentheses, column filters, prefixes, controls, bidi marks, emoji, CJK, RTL.
enum QueryFuzzer {
    static let pieces = ["\"", "\"\"", "*", "^", ":", "(", ")", "-", "+", "{", "}", ",", ".", "'", "\\", "/",
                         "NEAR", "NEAR(", "NEAR/2", "OR", "NOT", "AND", "or", " ", "  ", "\t", "\n", "text", "conv", "c1",
                         "friday", "deploy", "zzq", "\u{200D}", "\u{202E}", "\u{0}", "\u{1B}", "👩🏽‍💻", "🙂", "東京", "مرحبا"]

    static func scalar(using rng: inout SplitMix64) -> Unicode.Scalar {
        while true {
            let value: UInt32
            switch Int.random(in: 0..<6, using: &rng) {
            case 0: value = UInt32.random(in: 0x300...0x36F, using: &rng)      // combining diacritics
            case 1: value = [0x20D0, 0x1AB0, 0x1DC0, 0xFE20, 0x0488, 0x093F].randomElement(using: &rng)! + UInt32.random(in: 0...8, using: &rng)
            case 2: value = UInt32.random(in: 0x20...0x7E, using: &rng)
            case 3: value = UInt32.random(in: 0...0xFFFF, using: &rng)
            case 4: value = UInt32.random(in: 0x10000...0x10FFFF, using: &rng)
            default: value = UInt32.random(in: 0x80...0x2FFF, using: &rng)
            }
            if let s = Unicode.Scalar(value) { return s }
        }
    }

    static func query(using rng: inout SplitMix64) -> String {
        var scalars = String.UnicodeScalarView()
        for _ in 0..<Int.random(in: 1...24, using: &rng) {
            if Bool.random(using: &rng) {
                scalars.append(contentsOf: pieces.randomElement(using: &rng)!.unicodeScalars)
            } else {
                scalars.append(scalar(using: &rng))
            }
        }
        return String(scalars)
    }
}
