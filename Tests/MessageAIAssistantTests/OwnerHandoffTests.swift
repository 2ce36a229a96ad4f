@testable import MessageAIAssistant
import XCTest

/// Issue 28, 0.5.3: owners across turns (ASSISTANT.md: the owner is who takes the work on). An ask
/// answered "Sure, I'll ..." or "I'll take it" by someone else, an ask passed on ("Actually Sam will
/// do the alert"), and look-alikes that pass nothing on or take nothing up. Threads made up here,
/// none from a labelled set.
final class OwnerHandoffTests: XCTestCase {
    let people = ["ana", "ken", "rui", "sam"]

    func owners(_ lines: [(String, String)]) -> [String] {
        engine.summarize(ThreadToSummarize(participants: people, messages: lines.map { ChatLine(from: $0.0, text: $0.1) }))
            .actions.map { "\($0.who): \($0.what)" }
    }

    func testAnAskPassedOnBelongsToTheMemberNamed() {
        let ask = ("rui", "Ken, can you add an alert when the backup runs over 30 minutes?")
        let handed = owners([ask, ("ken", "Actually Sam will do the alert, he owns the alerting config."), ("sam", "Yes, I'll add it tomorrow.")])
        XCTAssertEqual(handed.filter { $0.hasPrefix("ken:") }, [], "\(handed)")
        XCTAssertEqual(handed.filter { $0.hasPrefix("sam: add") }.count, 1, "\(handed)")
        // "..., he should review it": the name first, then the pronoun with the modal.
        let review = owners([("rui", "Ken, can you review the backup script?"),
                             ("ken", "Sam knows the script better, he should review it."), ("ana", "Makes sense.")])
        XCTAssertEqual(review, ["sam: review the backup script"])
        // The message alone names the new owner too.
        let alone = judge("Actually Sam will do the alert, he owns the alerting config.", to: ["rui", "sam", "ana"],
                          context: [ask], from: "ken").actions
        XCTAssertEqual(alone.map(\.who), ["sam"])
    }

    func testWordsAboutAnotherMemberPassNothingOn() {
        let ask = ("rui", "Ken, can you add an alert when the backup runs over 30 minutes?")
        // Another member's absence, or an ask of them, leaves the ask with its owner.
        let away = owners([ask, ("ken", "Sam will be out tomorrow, so I'll add the alert on Monday.")])
        XCTAssertTrue(away.contains { $0.hasPrefix("ken: add") }, "\(away)")
        XCTAssertFalse(away.contains { $0.hasPrefix("sam:") }, "\(away)")
        let asks = owners([ask, ("ken", "Sure. Sam, can you send me the alerting config?")])
        XCTAssertTrue(asks.contains { $0.hasPrefix("ken: add") }, "\(asks)")
    }

    func testAnAskTakenUpByAnotherMemberIsTheirs() {
        let taken = owners([("rui", "Someone should update the runbook for the new jobs."), ("ken", "I'll take it.")])
        XCTAssertEqual(taken, ["ken: update the runbook for the new jobs"])
        let mentioned = owners([("rui", "@ana can you write the job definitions by Thursday?"), ("ana", "Sure, I'll do it by Thursday.")])
        XCTAssertEqual(mentioned, ["ana: write the job definitions"])
        // An offer nobody takes up is no one's work; a conditional offer never is.
        XCTAssertEqual(owners([("sam", "Happy to help with the load test if you need."), ("rui", "The export finished at 04:10.")]), [])
    }

    func testAWhoQuestionIsAnsweredByGivingTheWorkToAMember() {
        func open(_ lines: [(String, String)]) -> [String] {
            engine.summarize(ThreadToSummarize(participants: people, messages: lines.map { ChatLine(from: $0.0, text: $0.1) })).openQuestions
        }
        XCTAssertEqual(open([("ken", "Who reviews the backup script change?"), ("rui", "Ana, can you review it?"), ("ana", "Sure.")]), [])
        // Given to nobody by name, or other work given: still open.
        let unnamed = open([("ken", "Who reviews the backup script change?"), ("rui", "Can someone review it?"), ("sam", "The export finished.")])
        XCTAssertTrue(unnamed.contains { $0.hasPrefix("Who reviews") }, "\(unnamed)")
        let other = open([("ken", "Who reviews the backup script change?"), ("rui", "Ana, can you deploy the exporter?"), ("ana", "Sure.")])
        XCTAssertTrue(other.contains { $0.hasPrefix("Who reviews") }, "\(other)")
    }

    func testYesPleaseThenAStatementIsNoOrder() {
        let context = [("ana", "Do you need my VAT number on the invoice?")]
        XCTAssertEqual(judge("Yes please, finance asks for it.", to: ["ana"], context: context, from: "ken").actions, [])
        // An order after the "yes please," is still one, and so is "please" before a verb.
        XCTAssertEqual(judge("Yes please, send it to finance.", to: ["ana"], context: context, from: "ken").actions.map(\.who), ["ana"])
        XCTAssertEqual(judge("Please add it to the invoice.", to: ["ana"], context: context, from: "ken").actions.count, 1)
    }
}
