@testable import MessageAIAssistant
import Foundation
import XCTest

/// "This would be quicker as a call" (US-2.11): threads that must fire, and the many kinds of
/// neutral exchange that must not.
final class CallHintTests: XCTestCase {
    /// Messages `gap` seconds apart from a fixed start.
    func timed(_ lines: [(String, String)], gap: UInt64 = 40, from t0: UInt64 = 1_790_000_000_000) -> [TimedLine] {
        lines.enumerated().map { TimedLine(from: $1.0, text: $1.1, time: t0 + UInt64($0) * gap * 1000) }
    }

    static let stagingPort: [(String, String)] = [
        ("ana", "Which port does the staging gateway listen on now?"),
        ("ben", "8443, same as before I think"),
        ("ana", "That doesn't work, connection refused on 8443."),
        ("ben", "Are you on the VPN?"),
        ("ana", "Yes, since this morning."),
        ("ben", "Hmm, then try 8080?"),
        ("ana", "Still refused."),
        ("ben", "Which host are you hitting, the old one or gw2?"),
        ("ana", "What do you mean by gw2? I only know staging-gw."),
    ]

    func testABackAndForthOnOneQuestionFires() throws {
        let hint = try XCTUnwrap(CallHintRule.check(timed(Self.stagingPort), members: 2))
        XCTAssertEqual(hint.start, 0)
        XCTAssertEqual(hint.asked, 0)
        XCTAssertEqual(hint.question, "Which port does the staging gateway listen on now?")
        XCTAssertEqual(hint.turns, 8)
        XCTAssertEqual(Set(hint.speakers), ["ana", "ben"])
        XCTAssertEqual(hint.minutes, 5)
    }

    func testItFiresOnlyOnceTheTurnsAreMany() {
        // Five speaker changes are not "more than five".
        XCTAssertNil(CallHintRule.check(timed(Array(Self.stagingPort.prefix(6))), members: 2))
        XCTAssertNotNil(CallHintRule.check(timed(Array(Self.stagingPort.prefix(7))), members: 2))
    }

    func testEveryLaterMessageOfTheEpisodeNamesTheSameStart() throws {
        let more = Self.stagingPort + [("ben", "gw2 is the new one, see the wiki."), ("ana", "Which wiki page? I can't find it.")]
        let a = try XCTUnwrap(CallHintRule.check(timed(Array(more.prefix(8))), members: 2))
        let b = try XCTUnwrap(CallHintRule.check(timed(more), members: 2))
        XCTAssertEqual(a.start, b.start, "one episode, one hint")
    }

    func testABackAndForthAfterAnsweredQuestionsNamesItsOwnQuestion() throws {
        // Plain questions and answers first (nobody says thanks), then the stuck one.
        let before: [(String, String)] = [("ana", "Did the nightly build pass?"), ("ben", "Yes, all green."),
                                          ("ana", "The migration ran in 4 minutes."), ("ben", "Release notes are in the wiki."),
                                          ("ana", "Dashboards are updated too."), ("ben", "Staging runs the new build since 9."),
                                          ("ana", "I moved the demo to Thursday."), ("ben", "The customer list is final."),
                                          ("ana", "Priya reviewed the copy.")]
        let hint = try XCTUnwrap(CallHintRule.check(timed(before + Self.stagingPort), members: 2))
        XCTAssertEqual(hint.start, 0, "the episode is the same one, so the hint stays once")
        XCTAssertEqual(hint.asked, before.count)
        XCTAssertEqual(hint.question, "Which port does the staging gateway listen on now?")
    }

    func testASmallGroupDisagreeingFires() throws {
        let thread: [(String, String)] = [
            ("kofi", "Should the export button live in the header or in the table toolbar?"),
            ("mei", "Header, people look there first."),
            ("kofi", "But the header is already crowded on mobile."),
            ("mei", "Not if we drop the breadcrumb, no?"),
            ("kofi", "I don't think we can drop it, support relies on it."),
            ("mei", "Which support flow? I thought that was the old console."),
            ("kofi", "No, the new one still links to it."),
            ("mei", "Hmm, then toolbar? But it's hidden on small screens."),
        ]
        XCTAssertNotNil(CallHintRule.check(timed(thread), members: 3))
        XCTAssertNotNil(CallHintRule.check(timed(thread), members: 4))
    }

    func testAccentsCJKAndEmojiInTheThreadDoNotConfuseIt() throws {
        let thread: [(String, String)] = [
            ("zoë", "Où est le fichier de config pour 東京 staging?"),
            ("raj", "Under /etc/app 🤷🏽‍♂️"),
            ("zoë", "Still not there, I looked twice."),
            ("raj", "You mean on the jump host?"),
            ("zoë", "No, on the app box itself."),
            ("raj", "Which app box, the new one?"),
            ("zoë", "The one called 東京-2. Same thing, nothing there."),
        ]
        let hint = try XCTUnwrap(CallHintRule.check(timed(thread), members: 2))
        XCTAssertEqual(hint.question, "Où est le fichier de config pour 東京 staging?")
    }

    // MARK: must not fire

    func testLongFriendlyChatterDoesNotFire() {
        let thread: [(String, String)] = [
            ("ana", "How was your weekend?"), ("ben", "Great, we went hiking near the lake. You?"),
            ("ana", "Nice! Mostly cooking, tried a new ramen recipe."), ("ben", "Haha, how did it turn out?"),
            ("ana", "Pretty good actually, the broth took 8 hours."), ("ben", "Wow. Did you use pork bones?"),
            ("ana", "Chicken and pork. Want the recipe?"), ("ben", "Yes please!"),
            ("ana", "Sending it now 🙂"), ("ben", "Thanks! Are you going to the Friday lunch?"),
            ("ana", "Yes, wouldn't miss it."), ("ben", "Cool, see you there."),
        ]
        XCTAssertNil(CallHintRule.check(timed(thread), members: 2))
        for n in 2...thread.count { XCTAssertNil(CallHintRule.check(timed(Array(thread.prefix(n))), members: 2), "after \(n)") }
    }

    func testAFastExchangeThatIsResolvedDoesNotFire() {
        var thread = Array(Self.stagingPort.prefix(6))
        thread += [("ana", "8080 works, thanks!")]
        thread += [("ben", "Great, I'll update the wiki."), ("ana", "👍"), ("ben", "Did the deploy go out?"), ("ana", "Yes, at 10:05.")]
        for n in 7...thread.count { XCTAssertNil(CallHintRule.check(timed(Array(thread.prefix(n))), members: 2), "after \(n)") }
    }

    func testAMonologueDoesNotFire() {
        let thread = (0..<12).map { i in ("ana", i % 3 == 0 ? "Why does the build still fail on step \(i)?" : "Still broken, trying step \(i) again.") }
        XCTAssertNil(CallHintRule.check(timed(thread), members: 2))
    }

    func testTwoPeoplePostingTheirOwnUpdatesDoesNotFire() {
        let thread: [(String, String)] = [
            ("ana", "Deployed the API to staging."), ("ben", "Frontend build is green."),
            ("ana", "Migrations ran in 4 minutes."), ("ben", "Updated the release notes draft."),
            ("ana", "Smoke tests passed on staging."), ("ben", "Screenshots are in the shared folder."),
            ("ana", "Starting the load test now."), ("ben", "Taking lunch, back at 1."),
            ("ana", "Load test done, p99 at 180 ms."), ("ben", "Back. Reviewing the copy changes."),
        ]
        XCTAssertNil(CallHintRule.check(timed(thread), members: 2))
    }

    func testABigGroupDoesNotFire() {
        XCTAssertNil(CallHintRule.check(timed(Self.stagingPort), members: 5))
        XCTAssertNil(CallHintRule.check(timed(Self.stagingPort), members: 12))
        XCTAssertNil(CallHintRule.check(timed(Self.stagingPort), members: 1))
    }

    func testASlowExchangeDoesNotFire() {
        // The same words over a working day: one message an hour is not a call's pace.
        XCTAssertNil(CallHintRule.check(timed(Self.stagingPort, gap: 3600), members: 2))
        // Fast, then a long gap: only the burst after the gap counts.
        let lines = timed(Array(Self.stagingPort.prefix(8))) + [TimedLine(from: "ana", text: "What do you mean by gw2?", time: 1_790_000_000_000 + 86_400_000)]
        XCTAssertNil(CallHintRule.check(lines, members: 2))
    }

    func testQuestionsEachAnsweredAtOnceDoNotFire() {
        // A quick quiz: asks and answers alternate, nothing pushes back.
        let thread: [(String, String)] = [
            ("ana", "What time is the demo?"), ("ben", "3pm."), ("ana", "Which room?"), ("ben", "Orion."),
            ("ana", "Do we need the projector?"), ("ben", "Yes, the big one."), ("ana", "Who brings the adapter?"), ("ben", "I will."),
        ]
        XCTAssertNil(CallHintRule.check(timed(thread), members: 2))
    }

    func testTheNamedQuestionIsShortenedOnAWordWithAnEllipsis() {
        let q = CallHintCues.question("Quick one. Could you tell me which of the three staging gateways we are supposed to use for the partner demo tomorrow? Thanks")
        XCTAssertTrue(q.hasSuffix("…"), q)
        XCTAssertLessThanOrEqual(q.count, CallHintCues.maxQuestion + 1)
        XCTAssertTrue(q.hasPrefix("Could you tell me which"), q)
    }

    /// The sets' threads carry no times: they are given the worst pace (30 s apart, all of one
    /// burst) and read after every message, as a client would. Their group sizes are kept, then
    /// also ignored (as if each thread were a DM). No thread of dev, heldout or fresh is an
    /// unresolved back-and-forth, so none may fire. The blind set is not read here at all.
    func testNoThreadOfTheLabelledSetsFires() throws {
        let data = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Scripts/assistant/data")
        var threads = 0
        var fired: [String] = []
        var firedAnySize: [String] = []
        for set in ["dev", "heldout", "fresh"] {
            let text = try String(contentsOf: data.appendingPathComponent("\(set).jsonl"), encoding: .utf8)
            for row in text.split(separator: "\n") {
                guard let obj = try JSONSerialization.jsonObject(with: Data(row.utf8)) as? [String: Any],
                      let messages = obj["messages"] as? [[String: Any]] else { continue }
                threads += 1
                let lines = timed(messages.map { ($0["from"] as? String ?? "", $0["text"] as? String ?? "") }, gap: 30)
                let members = (obj["participants"] as? [String])?.count ?? 0
                let id = "\(set) \(obj["id"] as? String ?? "?")"
                if (1...lines.count).contains(where: { CallHintRule.check(Array(lines.prefix($0)), members: members) != nil }) { fired.append(id) }
                if (1...lines.count).contains(where: { CallHintRule.check(Array(lines.prefix($0)), members: 2) != nil }) { firedAnySize.append(id) }
            }
        }
        print("call hint over the labelled sets: fires on \(fired.count) of \(threads) threads (\(firedAnySize.count) with group size ignored)")
        XCTAssertGreaterThanOrEqual(threads, 21, "dev 10, heldout 5, fresh 6 at least")
        XCTAssertEqual(fired, [])
        XCTAssertEqual(firedAnySize, [])
    }
}
