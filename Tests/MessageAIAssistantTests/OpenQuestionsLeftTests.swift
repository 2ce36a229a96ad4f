@testable import MessageAIAssistant
import XCTest

/// Issue 28, 0.5.8: a question followed by someone leaving ("gotta run, standup", "sorry, next loop
/// starting, have to run") is still open; a thread with nothing to act on says so first. Threads made
/// up here, each beside a look-alike.
final class OpenQuestionsLeftTests: XCTestCase {
    let people = ["ana", "bo", "cyd"]

    func summary(_ lines: [(String, String)]) -> ThreadSummary { summarized(lines, people: people) }

    func testAReplyThatLeavesAnswersNothing() {
        let thread = [("ana", "read replicas showed 4s lag spikes yesterday"), ("bo", "what's the alert threshold on replica lag right now?"),
                      ("cyd", "gotta run, standup")]
        XCTAssertEqual(summary(thread).openQuestions, ["What's the alert threshold on replica lag right now?"])
        XCTAssertTrue(summary(thread).keyPoints.contains { $0.hasPrefix("Open:") })
        // A reply that answers before it leaves still answers.
        let answered = [("bo", "what's the alert threshold on replica lag right now?"), ("cyd", "10s, set last week")]
        XCTAssertEqual(summary(answered).openQuestions, [])
    }

    func testAThreadWithNothingToActOnSaysSoFirst() {
        let chatter = [("ana", "is it just me or is it 34 degrees in berlin today"), ("bo", "12 and raining in porto"),
                       ("ana", "yes please"), ("cyd", "typhoon here, working from a café with terrible wifi"), ("bo", "oof"),
                       ("cyd", "thanks, it's fine, just loud"), ("ana", "my new espresso machine arrived, first shot was pure sadness"),
                       ("bo", "sounds like the grind is too coarse"), ("ana", "it's on the finest setting already"), ("bo", "then the beans are old")]
        XCTAssertEqual(summary(chatter).keyPoints.first, "No decisions, open work or open questions.")
        let work = chatter + [("ana", "bo can you order better beans for the office by friday?"), ("bo", "sure")]
        XCTAssertNotEqual(summary(work).keyPoints.first, "No decisions, open work or open questions.")
    }
    func testWorkStartsWithItsVerbNotWithASpeakersWish() {
        let items = engine.judge(MessageToJudge(from: "ana", to: ["bo", "cyd"], text: "per-tenant only please, I don't want 200 other customers getting retry storms")).actions
        XCTAssertEqual(items, [])
        let asked = engine.judge(MessageToJudge(from: "ana", to: ["bo", "cyd"], text: "bo, please lower the retry cap to 5 minutes for them only")).actions
        XCTAssertEqual(asked.map(\.who), ["bo"])
    }
    func testBothNamesTheTwoThingsJustListed() {
        let context = [ChatLine(from: "bo", text: "also missing: tests for an empty page and for a message deleted between pages")]
        let items = engine.judge(MessageToJudge(from: "ana", to: ["bo"], text: "will add both", context: context)).actions
        XCTAssertEqual(items.map(\.what), ["add tests for an empty page and for a message deleted between pages"])
        // Nothing listed before: "both" stays as written rather than naming the wrong thing.
        let alone = engine.judge(MessageToJudge(from: "ana", to: ["bo"], text: "will add both", context: [ChatLine(from: "bo", text: "two tests are missing")])).actions
        XCTAssertEqual(alone.map(\.what), ["add both"])
    }
}
