@testable import MessageAIAssistant
import XCTest

/// Issue 28, 0.5.5: a decision by agreement told as the accepter's restatement of another member's
/// proposal ("ok: X", "X confirmed"), beside look-alikes that must stay no decision. Threads made
/// up here, none from a labelled set.
final class DecisionRestatedTests: XCTestCase {
    let people = ["ana", "bo", "cyd"]

    func decisions(_ lines: [(String, String)]) -> [String] {
        engine.summarize(ThreadToSummarize(participants: people, messages: lines.map { ChatLine(from: $0.0, text: $0.1) })).decisions
    }

    func testAnOkWithAColonRestatingAnotherMembersProposalIsTheDecision() {
        let thread = [("bo", "should the importer skip empty rows? I'd say skip them and log a warning"),
                      ("cyd", "+1 bo, failing the whole import is harsh"),
                      ("ana", "ok: skip empty rows and log a warning. changing it now")]
        XCTAssertEqual(decisions(thread), ["skip empty rows and log a warning"])
        // The message-level judgement says the same.
        XCTAssertEqual(judge("ok: skip empty rows and log a warning.", to: people, context: Array(thread.prefix(2)), from: "ana").decision,
                       "skip empty rows and log a warning")
    }

    func testAClosingConfirmedOnAnOptionOthersPutIsTheDecision() {
        let thread = [("ana", "pagination: cursor or offset?"), ("bo", "cursor. offset breaks on big tenants"), ("cyd", "cursor"),
                      ("ana", "let's park total counts. cursor pagination confirmed")]
        XCTAssertEqual(decisions(thread), ["cursor pagination confirmed"])
    }

    func testAnOkColonWithoutAProposalOrAsOwnWorkIsNoDecision() {
        // Nobody proposed these words: a status told after "ok:".
        XCTAssertEqual(decisions([("bo", "deploy is stuck again"), ("ana", "ok: the build cache is full on runner 3")]), [])
        // The speaker's own work, or the speaker restating only their own proposal.
        XCTAssertEqual(decisions([("bo", "skip empty rows and log a warning"), ("ana", "ok: I'll skip empty rows and log a warning")]), [])
        XCTAssertEqual(decisions([("ana", "I'd say skip empty rows and log a warning"), ("ana", "ok: skip empty rows and log a warning")]), [])
        // A question after the colon, or a proposal that was only asked.
        XCTAssertEqual(decisions([("bo", "skip empty rows and log a warning"), ("ana", "ok: skip empty rows and log a warning?")]), [])
        XCTAssertEqual(decisions([("bo", "should we skip empty rows and log a warning?"), ("ana", "ok: skip empty rows and log a warning")]), [])
    }

    func testAConfirmedStateOrReportIsNoDecision() {
        let ask = ("bo", "can you book the large meeting room for friday?")
        XCTAssertEqual(decisions([ask, ("ana", "large meeting room booking confirmed")]), [])
        XCTAssertEqual(decisions([("bo", "the large meeting room looks free"), ("ana", "the large meeting room is confirmed")]), [])
        XCTAssertEqual(decisions([("bo", "the large meeting room looks free"), ("ana", "large meeting room not confirmed")]), [])
        XCTAssertEqual(decisions([("bo", "the large meeting room looks free"), ("ana", "I've confirmed")]), [])
        XCTAssertEqual(decisions([("bo", "the large meeting room looks free"), ("ana", "is the large meeting room confirmed?")]), [])
    }
}
