@testable import MessageAIAssistant
import XCTest

/// Issue 28, 0.5.5: an ask nobody answered keeps what its "it" names when the sentence before it
/// in the same message says so ("X is flaky on CI. can someone look at it?"); look-alikes keep the
/// question as written. The summary's "Open:" line stays short. Threads made up here.
final class OpenQuestionsReferentTests: XCTestCase {
    let people = ["ana", "ben", "cy"]

    func summary(_ lines: [(String, String)]) -> ThreadSummary {
        engine.summarize(ThreadToSummarize(participants: people, messages: lines.map { ChatLine(from: $0.0, text: $0.1) }))
    }

    func testAnUnansweredAsksItNamesTheSentenceBefore() {
        let s = summary([("ana", "the release is cut"), ("cy", "fyi: the importer_smoke test is flaky on CI, failed twice today. can someone look at it?"),
                         ("ben", "release notes are posted")])
        XCTAssertEqual(s.openQuestions, ["Can someone look at it (the importer_smoke test is flaky on CI)?"])
        // The summary's line is the ask alone.
        XCTAssertTrue(s.summary.contains("Open: Can someone look at it?"), s.summary)
    }

    func testAnAskWithoutAPronounOrAfterAQuestionIsAsWritten() {
        let named = summary([("cy", "the importer_smoke test is flaky on CI. can someone look at the importer_smoke test?"), ("ben", "release notes are posted")])
        XCTAssertFalse(named.openQuestions.contains { $0.contains("(") }, "\(named.openQuestions)")
        let afterQuestion = summary([("cy", "is the importer_smoke test flaky? can someone look at it?"), ("ben", "release notes are posted")])
        XCTAssertFalse(afterQuestion.openQuestions.contains { $0.contains("(") }, "\(afterQuestion.openQuestions)")
    }

    func testTheBracketComesOffOnlyAtTheEnd() {
        XCTAssertEqual(OpenQuestions.withoutReferent("Can someone look at it (X is flaky)?"), "Can someone look at it?")
        XCTAssertEqual(OpenQuestions.withoutReferent("Is the (old) job still running?"), "Is the (old) job still running?")
        XCTAssertEqual(OpenQuestions.referent("drive-by: the cache test is flaky on CI, failed twice"), "the cache test is flaky on CI")
        XCTAssertNil(OpenQuestions.referent("ok."))
    }
}
