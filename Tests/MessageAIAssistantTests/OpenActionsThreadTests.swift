@testable import MessageAIAssistant
import XCTest

/// ASSISTANT.md's thread `actions`: work still open at the end, owned by a participant, each piece
/// of work told once (an ask and the reply that takes it on are one item).
final class OpenActionsThreadTests: XCTestCase {
    func actions(_ lines: [(String, String)]) -> [ActionItem] {
        engine.summarize(ThreadToSummarize(participants: ["maya", "priya", "jonas", "ken"], messages: lines.map { ChatLine(from: $0.0, text: $0.1) })).actions
    }

    func testAGroupAskNobodyTookHasNoOwnerYet() {
        let open = actions([("maya", "Can someone update the FAQ page? 🙏"), ("jonas", "The FAQ still shows the old pricing table.")])
        XCTAssertFalse(open.contains { !["maya", "priya", "jonas", "ken"].contains($0.who) }, "\(open)")
        // Look-alike: someone takes it (an emoji raised hand included), and it is theirs.
        let taken = actions([("maya", "Can someone update the FAQ page?"), ("ken", "🙋 I'll take it.")])
        XCTAssertTrue(taken.contains { $0.who == "ken" && $0.what.hasPrefix("update") }, "\(taken)")
    }

    func testAnAcceptanceInOtherWordsIsTheAskedWorkOnce() {
        let ask = ("priya", "Jonas, could you collect dietary requirements from everyone by the 5th?")
        for reply in ["Sure, I'll send a form.", "👍 I'll send a form.", "Claro, I'll send a form today."] {
            let open = actions([ask, ("jonas", reply)])
            XCTAssertEqual(open.count, 1, "\(reply): \(open)")
            XCTAssertTrue(open.first?.what.hasPrefix("collect") == true && open.first?.who == "jonas", "\(reply): \(open)")
        }
        // Look-alikes: "also" adds other work; a commitment with no ask to its sender before it stays.
        let also = actions([ask, ("jonas", "Sure, and I'll also book the dinner venue.")])
        XCTAssertTrue(also.contains { $0.what.hasPrefix("book") }, "\(also)")
        let own = actions([("priya", "Decision: we run the A/B test from the 10th."), ("jonas", "Agreed. I'll set up the experiment flags by the 8th.")])
        XCTAssertTrue(own.contains { $0.who == "jonas" && $0.what.hasPrefix("set up") }, "\(own)")
        let other = actions([("priya", "Ken, can you book the room?"), ("jonas", "Sure, I'll send the agenda.")])
        XCTAssertEqual(Set(other.map { OpenActions.firstWord($0.what) }), ["book", "send"], "\(other)")
    }

    func testAPromiseToReportBackIsPartOfTheCheckItFollows() {
        let open = actions([("jonas", "What metric decides the winner?"), ("priya", "Let me check with the data team and get back to you.")])
        XCTAssertEqual(open.map(\.what), ["check with the data team"], "\(open)")
        // Look-alikes: following up with someone else is other work; real work named like a report
        // back ("revert the deploy") is untouched.
        let finance = actions([("jonas", "What do we charge for SSO?"), ("priya", "I'll check the contract and follow up with finance.")])
        XCTAssertEqual(Set(finance.map { OpenActions.firstWord($0.what) }), ["check", "follow"], "\(finance)")
        let revert = actions([("ken", "Errors doubled after the deploy."), ("priya", "I'll check the logs and revert the deploy.")])
        XCTAssertTrue(revert.contains { $0.what.hasPrefix("revert") }, "\(revert)")
    }
}
