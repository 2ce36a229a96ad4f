import XCTest
import MessageAIProtocol
@testable import MessageAIClient

/// The assistant's pushes as people and scripts see them: a line only for what asks something of
/// this user or a done/undo; every change a JSON event; another member's text sanitised.
final class AssistantEventTests: XCTestCase {
    private let item = AssistItem(itemID: 12, conversationID: 7, seq: 3, kind: .action, text: "tag the 2.3 branch \u{1B}[2J",
                                  who: "ann", due: "5pm", from: "ben", rev: 4, engine: "local", engineVersion: "0.1.0")
    private func term(_ e: ClientEvent) -> String? { TerminalRenderer(colour: false).render(e) }

    func testANewItemForMeIsALineAndOneForSomeoneElseIsJSONOnly() throws {
        let mine = try XCTUnwrap(term(AssistantEvent.item(item, conversation: "launch", known: false, me: "Ann")))
        XCTAssertTrue(mine.contains("[launch] for you from ben: tag the 2.3 branch"), mine)
        XCTAssertTrue(mine.contains("(due 5pm) (/done 12 when it is)"), mine)
        XCTAssertFalse(mine.contains("\u{1B}"), "escapes in someone else's text are neutralised")
        XCTAssertNil(term(AssistantEvent.item(item, conversation: "launch", known: false, me: "cat")))
        let json = JSONLinesRenderer().render(AssistantEvent.item(item, conversation: "launch", known: false, me: "cat")) ?? ""
        XCTAssertTrue(json.contains(#""type":"assistant_item""#) && json.contains(#""item_id":12"#) && json.contains(#""open":true"#), json)
    }

    func testDoneAndUndoReadAsWhoDidIt() throws {
        var done = item
        done.done = true; done.doneBy = "ann"; done.doneAt = 1; done.rev = 5
        XCTAssertTrue(try XCTUnwrap(term(AssistantEvent.item(done, conversation: "launch", known: true, me: "ann"))).contains("you marked #12 done"))
        XCTAssertTrue(try XCTUnwrap(term(AssistantEvent.item(done, conversation: "launch", known: true, me: "ben"))).contains("ann marked #12 done"))
        XCTAssertTrue(try XCTUnwrap(term(AssistantEvent.item(item, conversation: "launch", known: true, me: "ben"))).contains("#12 is open again"))
        let off = AssistSettings(conversationID: 7, providerOff: true, changedBy: "cat")
        XCTAssertTrue(try XCTUnwrap(term(AssistantEvent.settings(off, conversation: "launch"))).contains("cat turned the language model off here"))
    }

    /// An item changed by an edit (or withdrawn by a delete) is a JSON event and no line: the
    /// edit or delete has its own.
    func testAnUpdatedItemIsJSONOnly() throws {
        XCTAssertNil(term(AssistantEvent.updated(item, conversation: "launch")))
        var gone = item
        gone.text = ""
        let json = JSONLinesRenderer().render(AssistantEvent.updated(gone, conversation: "launch")) ?? ""
        XCTAssertTrue(json.contains(#""type":"assistant_item""#) && json.contains(#""item_id":12"#), json)
    }
}
