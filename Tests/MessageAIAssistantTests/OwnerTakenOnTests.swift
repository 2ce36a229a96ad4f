@testable import MessageAIAssistant
import XCTest

/// Issue 28, 0.5.6: owners by turn-taking. A member who, when asked, takes on named work another
/// member held ("... cyd could you take it?" — "yes I'll take the postmortem") owns it now, with the
/// taker's date; look-alikes that take nothing from anyone (a spontaneous "I'll take notes", work
/// of another name). Threads made up here, none from a labelled set.
final class OwnerTakenOnTests: XCTestCase {
    let people = ["ana", "bo", "cyd"]

    func actions(_ lines: [(String, String)]) -> [ActionItem] {
        engine.summarize(ThreadToSummarize(participants: people, messages: lines.map { ChatLine(from: $0.0, text: $0.1) })).actions
    }

    func testNamedWorkTakenOnWhenAskedIsTheTakersWithTheirDate() {
        let found = actions([("ana", "@bo can you write the postmortem for the outage by tuesday?"),
                             ("bo", "sure, I'll draft it by monday"),
                             ("bo", "hmm actually I'm out monday for a visa appointment. cyd could you take it?"),
                             ("cyd", "yes I'll take the postmortem, draft tuesday 10:00 CET")])
        let postmortem = found.filter { $0.what.lowercased().contains("postmortem") }
        XCTAssertEqual(postmortem.map(\.who), ["cyd"], "\(found)")
        // The work as asked ("write"), not the words that took it ("take").
        XCTAssertEqual(postmortem.first.map { OpenActions.firstWord($0.what) }, "write")
        XCTAssertEqual(postmortem.first?.due, "tuesday 10:00 CET")
    }

    func testTakingWithoutAnAskOrOtherWorkTakesNothingFromAnyone() {
        // Nobody asked: "I'll take notes" is the speaker's own, the release notes stay bo's.
        let notes = actions([("ana", "bo, can you write the release notes by friday?"), ("bo", "sure"),
                             ("cyd", "I'll take notes in the retro")])
        XCTAssertTrue(notes.contains { $0.who == "bo" && $0.what.lowercased().contains("release notes") }, "\(notes)")
        // Asked, but for other work: the earlier item keeps its owner.
        let other = actions([("ana", "bo, can you write the release notes by friday?"), ("bo", "will do"),
                             ("ana", "cyd, can you take the on-call swap next week?"), ("cyd", "yes, I'll take the on-call swap")])
        XCTAssertTrue(other.contains { $0.who == "bo" && $0.what.lowercased().contains("release notes") }, "\(other)")
        XCTAssertFalse(other.contains { $0.who == "cyd" && $0.what.lowercased().contains("release notes") }, "\(other)")
    }
}
