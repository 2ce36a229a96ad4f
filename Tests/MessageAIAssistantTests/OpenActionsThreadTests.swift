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

/// Work that never became anyone's (an offer nobody took up, an ask its owner declined) and work a
/// check mark reports done are not open at the end of a thread.
final class OpenActionsOwnershipTests: XCTestCase {
    func actions(_ lines: [(String, String)]) -> [ActionItem] {
        engine.summarize(ThreadToSummarize(participants: ["maya", "priya", "jonas", "ken"], messages: lines.map { ChatLine(from: $0.0, text: $0.1) })).actions
    }

    func testAnOfferNobodyTookUpIsNoOnesWork() {
        let offer = ("jonas", "I can run the technical interview. Do we do a take-home or live coding?")
        let open = actions([("maya", "We have budget for one senior iOS engineer."), offer, ("maya", "I'd lean toward live coding.")])
        XCTAssertFalse(open.contains { $0.what.hasPrefix("run") }, "\(open)")
        // Look-alikes: the next speaker takes it up (in words, in Spanish, with an emoji), or asks for the same work.
        for uptake in ["Great, Jonas, please do.", "Gracias Jonas!", "👍 sounds good"] {
            let taken = actions([("maya", "We have budget for one senior iOS engineer."), offer, ("maya", uptake)])
            XCTAssertTrue(taken.contains { $0.who == "jonas" && $0.what.hasPrefix("run") }, "\(uptake): \(taken)")
        }
        let asked = actions([offer, ("maya", "Jonas, please run the technical interview by Friday.")])
        XCTAssertTrue(asked.contains { $0.who == "jonas" && $0.what.hasPrefix("run") }, "\(asked)")
        // A promise is no offer; nor is "I can" answering an ask made of its sender.
        let promise = actions([("jonas", "I'll run the technical interview."), ("maya", "I'd lean toward live coding.")])
        XCTAssertTrue(promise.contains { $0.what.hasPrefix("run") }, "\(promise)")
        let reply = actions([("maya", "Jonas, could you run the technical interview?"), ("jonas", "Yes, I can run it on Monday."), ("priya", "Live coding, please.")])
        XCTAssertTrue(reply.contains { $0.who == "jonas" && $0.what.hasPrefix("run") }, "\(reply)")
    }

    func testAnAskItsOwnerDeclinesGoesToWhoeverTakesIt() {
        let ask = ("maya", "Ken, can you write the intro copy by Friday?")
        let nobody = actions([ask, ("ken", "Sorry, I can't this week, I'm swamped with pricing.")])
        XCTAssertFalse(nobody.contains { $0.who == "ken" }, "\(nobody)")
        let taken = actions([ask, ("ken", "Sorry, I can't this week."), ("priya", "I'll take it.")])
        XCTAssertTrue(taken.contains { $0.who == "priya" && $0.what.hasPrefix("write") }, "\(taken)")
        // Look-alikes: "can't" about something else next to a commitment, and an accepted ask.
        let both = actions([ask, ("ken", "I can't make standup, but I'll write it tonight.")])
        XCTAssertTrue(both.contains { $0.who == "ken" && $0.what.hasPrefix("write") }, "\(both)")
        let accepted = actions([ask, ("ken", "Sure, Friday works.")])
        XCTAssertTrue(accepted.contains { $0.who == "ken" && $0.what.hasPrefix("write") }, "\(accepted)")
    }

    func testACheckMarkReportsTheWorkDone() {
        let ask = ("maya", "Priya, please update the status page before the call.")
        XCTAssertTrue(actions([ask, ("priya", "✅")]).isEmpty)
        XCTAssertTrue(actions([ask, ("priya", "Listo ✅")]).isEmpty)
        // Look-alike: a thumbs-up accepts; the work is still open.
        XCTAssertFalse(actions([ask, ("priya", "👍 will do")]).isEmpty)
    }
}
