import MessageAIPostgres
import MessageAIStore
import MessageAIVocabulary
import XCTest

/// Search on PostgreSQL with the SQLite index's rules: every word must match, case and accents
/// do not matter, the last word may be a prefix, CJK runs are found by any substring, what the
/// user types is never an operator, and only the user's own conversations are searched.
final class SearchTests: PostgresTestCase {
    nonisolated(unsafe) private var store: PostgresStore!
    nonisolated(unsafe) private var group: UInt64 = 0
    nonisolated(unsafe) private var users: [UInt64] = []

    private func send(_ text: String, from sender: Int = 0) async throws -> UInt64 {
        try await store.appendMessage(conversationID: group, senderID: users[sender], clientID: newClientID(),
                                      text: text, serverTime: now()).seq
    }

    private func find(_ query: String, as user: Int = 0, in conversation: UInt64? = nil) async throws -> [UInt64] {
        try await store.search(userID: users[user], query: query, conversationID: conversation, offset: 0, limit: 50).map(\.seq)
    }

    func testWordsCaseAccentsPrefixAndScripts() async throws {
        store = try await openStore()
        (group, users) = try await makeGroup(store, users: 2)
        let cafe = try await send("Meet at the Café Crème tomorrow")
        let naive = try await send("a naïve approach, ÉTÉ en français")
        let japanese = try await send("日本語のテストです")
        let hebrew = try await send("שלום עולם friends")
        let family = try await send("👩‍👩‍👧 family picnic")
        let hello = try await send("hello world")

        let cafeHits = try await find("cafe creme")
        XCTAssertEqual(cafeHits, [cafe], "accents and case folded")
        let upper = try await find("CAFÉ")
        XCTAssertEqual(upper, [cafe])
        let prefix = try await find("hel")
        XCTAssertEqual(prefix, [hello], "the last word as a prefix")
        let notPrefix = try await find("hel world")
        XCTAssertEqual(notPrefix, [], "only the last word is a prefix")
        let both = try await find("world hello")
        XCTAssertEqual(both, [hello], "every word, in any order")
        let missing = try await find("hello moon")
        XCTAssertEqual(missing, [], "every word must match")
        let ete = try await find("ete")
        XCTAssertEqual(ete, [naive])
        let naiveHits = try await find("naive")
        XCTAssertEqual(naiveHits, [naive])
        let cjk = try await find("テスト")
        XCTAssertEqual(cjk, [japanese], "a substring of a CJK run")
        let cjkPair = try await find("本語")
        XCTAssertEqual(cjkPair, [japanese])
        let cjkOne = try await find("語")
        XCTAssertEqual(cjkOne, [japanese], "one CJK character as a prefix")
        let cjkWrongOrder = try await find("語本")
        XCTAssertEqual(cjkWrongOrder, [], "a run's pairs are a phrase, not a bag")
        let rtl = try await find("עולם")
        XCTAssertEqual(rtl, [hebrew])
        let emojiText = try await find("picnic")
        XCTAssertEqual(emojiText, [family])
        let newestFirst = try await find("a")
        XCTAssertEqual(newestFirst, [naive, cafe], "newest first")
    }

    func testEditsAndDeletesChangeWhatIsFound() async throws {
        store = try await openStore()
        (group, users) = try await makeGroup(store, users: 2)
        let seq = try await send("quarterly budget draft")
        _ = try await store.apply(.init(conversationID: group, actorID: users[0], clientID: newClientID(), targetSeq: seq,
                                        action: .edit, text: "annual forecast", serverTime: now()))
        let old = try await find("budget")
        XCTAssertEqual(old, [], "the old words are gone with the edit")
        let new = try await find("forecast")
        XCTAssertEqual(new, [seq])
        _ = try await store.apply(.init(conversationID: group, actorID: users[0], clientID: newClientID(), targetSeq: seq,
                                        action: .delete, serverTime: now()))
        let afterDelete = try await find("annual")
        XCTAssertEqual(afterDelete, [], "a deleted message is found by no one, at once")
        let otherMember = try await find("annual", as: 1)
        XCTAssertEqual(otherMember, [])
    }

    func testLongWordsAndLongMessagesAreIndexed() async throws {
        store = try await openStore()
        (group, users) = try await makeGroup(store, users: 1)
        let longWord = String(repeating: "é", count: 3000)  // 6000 bytes: over PostgreSQL's lexeme limit
        let seq = try await send("start \(longWord) " + String(repeating: "filler ", count: 20_000) + "needle")
        let found = try await find("needle")
        XCTAssertEqual(found, [seq], "a word past position 16383 is still found")
        let long = try await find(longWord)
        XCTAssertEqual(long, [seq])
    }
}
