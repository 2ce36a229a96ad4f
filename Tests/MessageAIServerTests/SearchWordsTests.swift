import XCTest
import MessageAISearch
import MessageAISQLite

/// The one way text is cut for search (server index, client cache): words as unicode61 cuts
/// them, runs of CJK and Thai as overlapping pairs.
final class SearchWordsTests: XCTestCase {
    func testIndexTextCutsRunsIntoPairsAndKeepsWords() {
        XCTAssertEqual(SearchWords.indexText("日本語のテスト"), "日本 本語 語の のテ テス スト ト")
        XCTAssertEqual(SearchWords.indexText("Deploy テスト環境, friday!"), "Deploy テス スト ト環 環境 境 friday")
        XCTAssertEqual(SearchWords.indexText("café au lait"), "café au lait")
        XCTAssertEqual(SearchWords.indexText("東"), "東")
        XCTAssertEqual(SearchWords.indexText("ภาษาไทย"), "ภา าษ ษา าไ ไท ทย ย")
        XCTAssertEqual(SearchWords.indexText("👍🏽 -- ..."), "")
        XCTAssertEqual(SearchWords.indexText(""), "")
    }

    func testQueriesAreLiteralPhrasesOfPairs() {
        XCTAssertEqual(FullTextQuery.match("テスト"), "\"テス スト\"")
        XCTAssertEqual(FullTextQuery.match("気"), "\"気\"*")
        XCTAssertEqual(FullTextQuery.match("テスト fri"), "\"テス スト\" \"fri\"*")
        XCTAssertEqual(FullTextQuery.match("lunch OR \"x"), "\"lunch\" \"OR\" \"x\"*")
        XCTAssertNil(FullTextQuery.match(" \" * ( "))
    }
}
