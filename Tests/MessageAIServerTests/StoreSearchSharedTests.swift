import XCTest
@testable import MessageAIServer
import MessageAIProtocol

/// Search's rules on every backend (`StoreBackendTestCase`): every word must match, case and
/// accents do not matter, the last word may be a prefix, operators are plain words, a user
/// finds only their own conversations, CJK and Thai text by the words inside a run.
final class StoreSearchSharedTests: StoreBackendTestCase {
    private func texts(_ store: any Store, _ user: UInt64, _ query: String, in conversation: UInt64? = nil,
                       offset: Int = 0, limit: Int = 20) async throws -> [String] {
        try await store.search(userID: user, query: query, conversationID: conversation, offset: offset, limit: limit).map(\.text)
    }

    func testSearchFindsOnlyOwnConversationsNewestFirst() async {
        await forEachBackend { store, backend in
            let ann = try await store.addUser("ann"), ben = try await store.addUser("ben"), cal = try await store.addUser("cal")
            let annBen = try await store.directConversation(ann.id, ben.id, now: 1).0
            let benCal = try await store.directConversation(ben.id, cal.id, now: 1).0
            let group = try await store.createGroup(name: "g", creator: ann.id, members: [ben.id, cal.id], now: 1)
            _ = try await store.post(ann, annBen.id, "Lunch at noon?", time: 10)
            _ = try await store.post(ben, benCal.id, "lunch secret, don't tell ann", time: 20)
            _ = try await store.post(cal, group.id, "LUNCH tomorrow maybe", time: 30)
            _ = try await store.post(ben, annBen.id, "sure, lunch works", time: 40)
            _ = try await store.post(ben, annBen.id, "something else", time: 50)

            let all = try await texts(store, ann.id, "lunch")
            XCTAssertEqual(all, ["sure, lunch works", "LUNCH tomorrow maybe", "Lunch at noon?"], "\(backend)")
            let cals = try await texts(store, cal.id, "lunch")
            XCTAssertEqual(cals.count, 2, "\(backend)")
            let inOne = try await store.search(userID: ann.id, query: "lunch", conversationID: annBen.id, offset: 0, limit: 20).map(\.seq)
            XCTAssertEqual(inOne, [2, 1], "\(backend)")
            let foreign = try await texts(store, ann.id, "secret", in: benCal.id)
            XCTAssertEqual(foreign, [], "\(backend): naming someone else's conversation does not open it")
            let paged = [try await texts(store, ann.id, "lunch", offset: 1, limit: 1), try await texts(store, ann.id, "lunch", offset: 3, limit: 5)]
            XCTAssertEqual(paged, [["LUNCH tomorrow maybe"], []], "\(backend)")
            // All words must match; the last one also as a prefix.
            let prefix = try await texts(store, ann.id, "lunch wor")
            XCTAssertEqual(prefix, ["sure, lunch works"], "\(backend)")
            let anyOrder = try await texts(store, ann.id, "noon lunch")
            XCTAssertEqual(anyOrder, ["Lunch at noon?"], "\(backend)")
            // A user who leaves stops finding the group's messages.
            try await store.removeMember(conversationID: group.id, userID: cal.id)
            let afterLeaving = try await texts(store, cal.id, "lunch")
            XCTAssertEqual(afterLeaving, ["lunch secret, don't tell ann"], "\(backend)")
        }
    }

    func testAccentsAndCaseDoNotMatter() async {
        await forEachBackend { store, backend in
            let ann = try await store.addUser("ann"), ben = try await store.addUser("ben")
            let dm = try await store.directConversation(ann.id, ben.id, now: 1).0
            _ = try await store.post(ann, dm.id, "Crème brûlée at the Café Zoë", time: 10)
            for query in ["creme", "BRULEE", "café zoe", "cafe zo", "CRÈME Brûl"] {
                let found = try await texts(store, ben.id, query)
                XCTAssertEqual(found, ["Crème brûlée at the Café Zoë"], "\(backend): \(query)")
            }
            let missing = try await texts(store, ben.id, "creme tea")
            XCTAssertEqual(missing, [], "\(backend): every word must match")
        }
    }

    func testQueriesWithOperatorsAreWords() async {
        await forEachBackend { store, backend in
            let ann = try await store.addUser("ann"), ben = try await store.addUser("ben")
            let dm = try await store.directConversation(ann.id, ben.id, now: 1).0
            _ = try await store.post(ann, dm.id, "say \"hello\" AND goodbye (NEAR the end) col:umn a*b", time: 10)
            let hostile = ["\"", "\"\"", "hello\"", "AND", "OR NOT", "NEAR(", "(", ")", "*", "^", ":", "col:umn", "text:hello",
                           "a*b", "-hello", "+", "{text}: x", "hello OR", "'", "\\", "***", "   ", "", "😀", "\u{0}", "NEAR/2",
                           "!hello", "hello & goodbye", "a | b", "<->", "hello:*"]
            for query in hostile {
                do { _ = try await texts(store, ann.id, query) } catch { XCTFail("\(backend): \(query.debugDescription): \(error)") }
            }
            // Operators are words: "AND" finds the message that contains it, "hello\"" finds hello.
            let and = try await texts(store, ann.id, "AND"), quoted = try await texts(store, ann.id, "\"hello\"")
            XCTAssertEqual([and.count, quoted.count], [1, 1], "\(backend)")
            let or = try await texts(store, ann.id, "goodbye OR nothing")
            XCTAssertEqual(or.count, 0, "\(backend): OR is a plain word too, and 'nothing' is not in the text")
            let empty = try await texts(store, ann.id, "")
            XCTAssertEqual(empty, [])
        }
    }

    /// Issue 24: a CJK or Thai run is indexed as overlapping pairs, so a word inside it is found.
    func testWordsInsideCJKAndThaiTextAreFound() async {
        await forEachBackend { store, backend in
            let ann = try await store.addUser("ann"), ben = try await store.addUser("ben")
            let dm = try await store.directConversation(ann.id, ben.id, now: 1).0
            _ = try await store.post(ann, dm.id, "日本語のテスト", time: 10)
            _ = try await store.post(ben, dm.id, "北京和上海的天气", time: 20)
            _ = try await store.post(ann, dm.id, "ภาษาไทยง่ายมาก", time: 30)
            _ = try await store.post(ben, dm.id, "deploy テスト環境 friday", time: 40)
            let expected: [(String, [String], String)] = [
                ("テスト", ["deploy テスト環境 friday", "日本語のテスト"], ""),
                ("本語", ["日本語のテスト"], ""),
                ("上海", ["北京和上海的天气"], ""),
                ("ไทย", ["ภาษาไทยง่ายมาก"], ""),
                ("気", [], "気 (Japanese) is not 气 (Chinese)"),
                ("气", ["北京和上海的天气"], "one character, even a run's last"),
                ("テスト fri", ["deploy テスト環境 friday"], "words and runs together"),
                ("ストテ", [], "the pairs must be consecutive, in order"),
                ("語テ", [], "not in the text"),
            ]
            for (query, hits, why) in expected {
                let found = try await texts(store, ann.id, query)
                XCTAssertEqual(found, hits, "\(backend): \(query) \(why)")
            }
        }
    }
}
