@testable import MessageAIAssistant
import XCTest

final class ActionTests: XCTestCase {
    func testRequestWithTwoVerbsResolvesTheReferenceFromContext() {
        let j = judge("Thanks. Could you tag it and post the notes by 5pm?", context: [("maya", "The 2.3 hotfix branch is cut.")])
        XCTAssertEqual(j.actions, [ActionItem(what: "tag the 2.3 hotfix branch", who: "maya", due: "5pm"),
                                   ActionItem(what: "post the notes", who: "maya", due: "5pm")])
    }

    func testPronounResolvesToTheThingNamedEarlierInTheSentence() {
        let j = judge("Can you bump Node to 20 in the CI image and rebuild it today?")
        XCTAssertEqual(j.actions.map(\.what), ["bump Node to 20 in the CI image", "rebuild the CI image"])
        XCTAssertEqual(j.actions.map(\.due), ["today", "today"])
    }

    func testOwnersFromMentionsVocativesAndLists() {
        XCTAssertEqual(judge("@li please update the latency dashboard by Monday.", to: group).actions.map(\.who), ["li"])
        XCTAssertEqual(judge("Ken, can you file it as a P1?", to: group).actions.map(\.who), ["ken"])
        let list = judge("1) Li updates the status page by Monday 2) Ken drafts the customer email by Wednesday noon", to: group)
        XCTAssertEqual(list.actions, [ActionItem(what: "update the status page", who: "li", due: "Monday"),
                                      ActionItem(what: "draft the customer email", who: "ken", due: "Wednesday noon")])
    }

    func testEveryoneAndSomeoneInAGroupAreTheRecipientGroup() {
        XCTAssertEqual(judge("Everyone, please fill in the Q3 retro survey by Thursday EOD.", to: group).actions,
                       [ActionItem(what: "fill in the Q3 retro survey", who: "recipient", due: "Thursday EOD")])
        XCTAssertEqual(judge("Can someone restart the Linux build runner?", to: group).actions.map(\.who), ["recipient"])
    }

    func testSecondClauseWithItsOwnOwner() {
        let j = judge("I'll write the Redis failover runbook by Wednesday and Ken will review it.", to: group)
        XCTAssertEqual(j.actions, [ActionItem(what: "write the Redis failover runbook", who: "omar", due: "Wednesday"),
                                   ActionItem(what: "review the Redis failover runbook", who: "ken", due: nil)])
    }

    func testCommitments() {
        XCTAssertEqual(judge("I'm going to re-run the load tests tomorrow 09:00 UTC.").actions,
                       [ActionItem(what: "re-run the load tests", who: "omar", due: "tomorrow 09:00 UTC")])
        let take = judge("Yes, I'll take it.", to: group, context: [("maya", "Can someone take the Friday on-call shift?")])
        XCTAssertEqual(take.actions.first?.what, "take the Friday on-call shift")
    }

    func testPassiveRequestBelongsToTheGroup() {
        let j = judge("The database migration script needs to be reviewed by Thursday.", to: group)
        XCTAssertEqual(j.actions, [ActionItem(what: "review the database migration script", who: "recipient", due: "Thursday")])
    }

    func testPoliteAndIndirectForms() {
        XCTAssertEqual(judge("Would you be able to review the pricing page copy by Thursday?").actions,
                       [ActionItem(what: "review the pricing page copy", who: "maya", due: "Thursday")])
        XCTAssertEqual(judge("Any chance you could send me the Q3 numbers today?").actions.map(\.what), ["send me the Q3 numbers"])
        XCTAssertEqual(judge("I'd appreciate it if you could proofread the blog post before Monday.").actions.map(\.due), ["Monday"])
        XCTAssertEqual(judge("On it, I'll have the fix up in an hour.").actions.map(\.due), ["in an hour"])
        XCTAssertEqual(judge("Everyone needs to rotate their API keys by end of week.", to: group).actions.map(\.who), ["recipient"])
        let list = judge("Action items: Maya drafts the RFC, Ken sets up the benchmark rig.", to: group).actions
        XCTAssertEqual(list.map(\.who), ["maya", "ken"])
        XCTAssertEqual(list.map(\.what), ["draft the RFC", "set up the benchmark rig"])
    }

    /// ASSISTANT.md's hard negatives: none of these is an action item.
    func testHardNegatives() {
        for text in ["If we ever have time I'd like to rewrite the parser.",          // hypothetical
                     "I merged it last night.",                                       // done
                     "Is staging up?",                                                // information question
                     "Happy to help with the migration if you need.",                 // conditional offer
                     "If the canary fails again, I can roll back.",                   // conditional offer
                     "Backend is ready except the CSV import.",                       // status report
                     "It would be nice to have dark mode one day.",                   // wish
                     "Can you see the dashboard from your laptop?",                   // asks for information
                     "I'll pass this time, but thanks for asking!",                  // polite decline
                     "Let me know if you need anything.",                             // offer
                     "Maybe we should move standup to 10?",                           // suggestion
                     "I've updated the dashboard with the new panel."] {              // done
            XCTAssertEqual(judge(text).actions, [], text)
        }
    }
}
