@testable import MessageAIAssistant
import XCTest

/// Questions still open at the end of a thread: back-to-back questions of one message are one.
final class OpenQuestionsTests: XCTestCase {
    func questions(_ lines: [(String, String)]) -> [String] {
        engine.summarize(ThreadToSummarize(participants: ["omar", "ken", "jonas"], messages: lines.map { ChatLine(from: $0.0, text: $0.1) })).openQuestions
    }

    func testBackToBackQuestionsOfOneMessageAreOneOpenQuestion() {
        let open = questions([("omar", "Decision: URL path versioning for the partner API."), ("jonas", "And who tells the partners? Is there a comms plan?")])
        XCTAssertEqual(open, ["Who tells the partners? Is there a comms plan?"])
        let spanish = questions([("omar", "Decision: URL path versioning for the partner API."), ("jonas", "¿Quién avisa a los partners? ¿Hay un plan de comunicación?")])
        XCTAssertEqual(spanish.count, 1, "\(spanish)")
        // Look-alikes: a statement between them keeps two questions; questions in two messages stay two.
        let apart = questions([("jonas", "Who tells the partners? The launch is in May. Is there a comms plan?")])
        XCTAssertEqual(apart.count, 2, "\(apart)")
        let twoMessages = questions([("jonas", "Who tells the partners?"), ("jonas", "Is there a comms plan?")])
        XCTAssertEqual(twoMessages.count, 2, "\(twoMessages)")
    }
}
