@testable import MessageAIAssistant
import XCTest

/// ASSISTANT.md's "sender's own commitments" in the forms people write them, and their hard
/// negatives (status reports, work already done, a plan given up).
final class CommitmentTests: XCTestCase {
    func testStatedIntentionsAndPlansInThePresent() {
        XCTAssertEqual(judge("I plan to migrate the wiki on Monday.").actions, [ActionItem(what: "migrate the wiki", who: "omar", due: "Monday")])
        XCTAssertEqual(judge("I should be able to finish the budget draft by Wednesday.").actions,
                       [ActionItem(what: "finish the budget draft", who: "omar", due: "Wednesday")])
        XCTAssertEqual(judge("I'm deploying the hotfix tonight.").actions, [ActionItem(what: "deploy the hotfix", who: "omar", due: "tonight")])
        XCTAssertEqual(judge("Will do, sending the contract over after lunch.").actions.map(\.what), ["send the contract over"])
        XCTAssertEqual(judge("Tomorrow I'm writing the migration script.").actions, [ActionItem(what: "write the migration script", who: "omar", due: "Tomorrow")])
        XCTAssertEqual(judge("gonna rerun the load test tonight").actions, [ActionItem(what: "rerun the load test", who: "omar", due: "tonight")])
        for text in ["I'm writing the migration script now.", "Tomorrow I'm flying to Lisbon 🛫", "gonna be late tonight, train's stuck", "Is anyone reviewing PR 42 tomorrow?"] {
            XCTAssertTrue(judge(text).actions.isEmpty, text)
        }
    }

    func testStatusReportsAndDoneWorkAreNotCommitments() {
        for text in ["I'm working on the migration right now.", "I updated the roadmap yesterday.",
                     "I was going to rewrite the parser, but we ran out of time.", "Kicking off the warehouse migration: tables move by end of quarter."] {
            XCTAssertFalse(judge(text).actions.contains { $0.who == "omar" }, text)
        }
    }

    func testTheSendersOwnListCarriesItsLabelsDay() {
        let j = judge("Todo for me today:\n1) renew the SSL cert\n2) update the status page")
        XCTAssertEqual(j.actions, [ActionItem(what: "renew the SSL cert", who: "omar", due: "today"),
                                   ActionItem(what: "update the status page", who: "omar", due: "today")])
        XCTAssertEqual(judge("My plan for tomorrow: review the vendor bids, call the landlord, book the movers.").actions.map(\.who),
                       ["omar", "omar", "omar"])
    }

    /// A label that only says when ("Tonight:", "Today: 1) ... 2) ...") or "To do ...:" heads the sender's own plan.
    func testATimeLabelOrToDoHeadsTheSendersOwnList() {
        XCTAssertEqual(judge("Tonight: finish the scorecards and send them to Priya.", to: group).actions,
                       [ActionItem(what: "finish the scorecards", who: "omar", due: "Tonight"), ActionItem(what: "send the scorecards to Priya", who: "omar", due: "Tonight")])
        XCTAssertEqual(judge("Today: 1) review PR 88 2) fix the flaky e2e test", to: group).actions.map(\.who), ["omar", "omar"])
        XCTAssertEqual(judge("To do before standup: rotate the staging keys, update the status page.", to: group).actions.map(\.who), ["omar", "omar"])
        // A label that names people is a list of assignments; one that says more than when is not a label of the sender's plan.
        XCTAssertEqual(judge("Maya: update the budget sheet by Friday.", to: group).actions.map(\.who), ["maya"])
        XCTAssertTrue(judge("Tonight: pizza at Ken's 🍕", to: group).actions.isEmpty)
    }

    /// Replies that open with a takeover or repeat the asked verb own the asked work; the same words
    /// inside a sentence, or an answer to something that asked nothing, do not.
    func testRepliesThatOpenWithATakeoverOrTheAskedVerb() {
        let ask = [("maya", "@omar can you restart the ingest workers in eu-west before 09:00 JST?")]
        for reply in ["can do", "yes will handle", "doing it now", "restarting them now", "ok, will restart after the backup", "roger that"] {
            XCTAssertEqual(judge(reply, to: group, context: ask).actions.map(\.what), ["restart the ingest workers in eu-west"], reply)
            XCTAssertEqual(judge(reply, to: group, context: ask).actions.map(\.who), ["omar"], reply)
        }
        XCTAssertEqual(judge("yes, doing it after the deploy", to: group, context: ask).actions.first?.due, "after the deploy")
        let cache = [("maya", "Can you use the cache for the list endpoint?")]
        XCTAssertTrue(judge("Doing it this way breaks the cache invalidation.", to: group, context: cache).actions.isEmpty)
        XCTAssertEqual(judge("I can do the review after lunch.", to: group, context: cache).actions.map(\.what), ["do the review"])
        XCTAssertTrue(judge("restarting my laptop, brb", to: group, context: [("maya", "The ingest workers look healthy now.")]).actions.isEmpty)
    }

    func testAListOfNamedAssignments() {
        let j = judge("Action items:\n- Ana: update the budget sheet by Thursday\n- Ben: book the venue", to: ["ana", "ben", "cara"])
        XCTAssertEqual(j.actions, [ActionItem(what: "update the budget sheet", who: "ana", due: "Thursday"),
                                   ActionItem(what: "book the venue", who: "ben", due: nil)])
    }

    func testAReplyThatTakesOnAnAskOwnsTheAskedWork() {
        let ask = [("nina", "Can someone update the FAQ page before the launch?")]
        for reply in ["I've got it.", "On it.", "Leave it with me.", "wilco", "Sure thing 👍"] {
            XCTAssertEqual(judge(reply, to: ["nina", "sam"], context: ask).actions.map(\.what), ["update the FAQ page"], reply)
            XCTAssertEqual(judge(reply, to: ["nina", "sam"], context: ask).actions.map(\.who), ["omar"], reply)
        }
        XCTAssertEqual(judge("Sure, I can do that tomorrow.", to: ["nina", "sam"], context: ask).actions,
                       [ActionItem(what: "update the FAQ page", who: "omar", due: "tomorrow")], "the reply's own time wins")
        XCTAssertTrue(judge("Sure thing, it was a great launch.", to: ["nina", "sam"], context: [("nina", "Thanks for the launch party!")]).actions.isEmpty,
                      "an answer to thanks takes nothing on")
        XCTAssertTrue(judge("On it.", to: ["nina", "sam"], context: [("nina", "The FAQ page looks great now.")]).actions.isEmpty,
                      "nothing was asked, so nothing is taken on")
    }
}
