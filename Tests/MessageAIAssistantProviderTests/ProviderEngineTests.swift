import Foundation
import MessageAIAssistant
@testable import MessageAIAssistantProvider
import XCTest

/// The provider engine against a real HTTP server on loopback, one behaviour per mode: every
/// call ends in a parsed answer or a clear fallback to the local engine, never a hang.
final class ProviderEngineTests: FakeServerTestCase {
    private func judge(_ mode: String, timeout: TimeInterval = 5, log: LogSink? = nil) -> Judgement? {
        let engine = Fixture.engine(server, mode, timeout: timeout, log: log)
        return withinDeadline(timeout * 2 + 10) { engine.judge(Fixture.message) }
    }

    private func assertFellBack(_ j: Judgement?, _ reasonPart: String, file: StaticString = #filePath, line: UInt = #line) {
        guard let j else { return }
        XCTAssertEqual(j.engine.name, "local", file: file, line: line)
        let reason = j.engine.fallbackReason ?? ""
        XCTAssertTrue(reason.contains(reasonPart), "reason: \(reason)", file: file, line: line)
        XCTAssertTrue(reason.contains("fake-model"), file: file, line: line)
        XCTAssertFalse(reason.contains(Fixture.secret), file: file, line: line)
        // The local engine still did the work: the user gets its action items.
        XCTAssertEqual(j.actions, LocalEngine().judge(Fixture.message).actions, file: file, line: line)
    }

    func testGoodAnswerIsParsedAndTheKeyGoesOnlyInTheAuthorizationHeader() throws {
        let log = LogSink()
        let j = try XCTUnwrap(judge("good_key", log: log))
        XCTAssertEqual(j.engine.name, "provider")
        XCTAssertNil(j.engine.fallbackReason)
        XCTAssertEqual(j.actions, [ActionItem(what: "tag the 2.3 hotfix branch", who: "maya", due: "5pm"),
                                   ActionItem(what: "post the release notes", who: "maya", due: "5pm")],
                       "names as the local engine gives them: the recipient of a direct message by name")
        XCTAssertFalse(j.clarityFlag)
        XCTAssertFalse(j.toneFlag)
        XCTAssertNil(j.decision)

        let sent = try XCTUnwrap(server.requests(mode: "good_key").first)
        XCTAssertEqual(sent["authorization"] as? String, "Bearer \(Fixture.secret)")
        let body = try XCTUnwrap(sent["body"] as? [String: Any])
        XCTAssertEqual(body["model"] as? String, "fake-model")
        XCTAssertEqual((body["response_format"] as? [String: Any])?["type"] as? String, "json_object")
        let user = try XCTUnwrap((body["messages"] as? [[String: Any]])?.last?["content"] as? String)
        XCTAssertTrue(user.contains("café 東京 👍🏽 👩‍👩‍👧"), "the text reaches the model intact")

        XCTAssertFalse(log.lines.isEmpty)
        for line in log.lines + ["\(j)"] {
            XCTAssertFalse(line.contains(Fixture.secret), line)
            XCTAssertFalse(line.contains(Fixture.marker), "no message text in logs: \(line)")
        }
    }

    func testFencedAnswerWithTextAroundIsParsed() throws {
        let j = try XCTUnwrap(judge("fenced"))
        XCTAssertEqual(j.engine.name, "provider")
        XCTAssertEqual(j.actions.count, 2)
        let s = try XCTUnwrap(withinDeadline(20) { Fixture.engine(self.server, "fenced").summarize(Fixture.thread) })
        XCTAssertEqual(s.engine.name, "provider")
        XCTAssertEqual(s.decisions, ["ship on Friday"])
        XCTAssertEqual(s.actions, [ActionItem(what: "update the dashboard", who: "li", due: "Monday")])
    }

    func testMissingFieldsTakeTheNothingFoundValues() throws {
        let j = try XCTUnwrap(judge("missing"))
        XCTAssertEqual(j.engine.name, "provider")
        XCTAssertEqual(j.actions, [ActionItem(what: "post the release notes", who: "maya", due: nil)])
        XCTAssertFalse(j.clarityFlag)
        let s = try XCTUnwrap(withinDeadline(20) { Fixture.engine(self.server, "missing").summarize(Fixture.thread) })
        XCTAssertEqual(s.engine.name, "provider")
        XCTAssertEqual(s.summary, "- ship on Friday")
        XCTAssertEqual(s.coveredMessages, 4)
    }

    func testItemsCitingUnshownMessagesOrStrangersAreDropped() throws {
        let j = try XCTUnwrap(judge("unknown"))
        XCTAssertEqual(j.engine.name, "provider")
        XCTAssertEqual(j.actions.map(\.what), ["post the release notes"])
        let s = try XCTUnwrap(withinDeadline(20) { Fixture.engine(self.server, "unknown").summarize(Fixture.thread) })
        XCTAssertEqual(s.actions.map(\.what), ["update the dashboard"])
        XCTAssertEqual(s.actions.first?.who, "li")
        XCTAssertEqual(s.decisions, ["ship on Friday"])
        XCTAssertEqual(s.openQuestions, [])
    }

    func testWrongTypesAreReadLeniently() throws {
        let j = try XCTUnwrap(judge("wrongtypes"))
        XCTAssertEqual(j.engine.name, "provider")
        XCTAssertEqual(j.actions, [ActionItem(what: "post the release notes", who: "maya", due: "5")])
        XCTAssertEqual(j.clarity.map(\.kind), [.pronoun])
        XCTAssertFalse(j.toneFlag, "\"false\" as a string is false")
        XCTAssertNil(j.decision, "false is no decision")
        let s = try XCTUnwrap(withinDeadline(20) { Fixture.engine(self.server, "wrongtypes").summarize(Fixture.thread) })
        XCTAssertEqual(s.summary, "- ship on Friday\n- Li updates the dashboard")
        XCTAssertEqual(s.decisions, ["ship on Friday"])
        XCTAssertEqual(s.actions, [])
    }

    func testSlowAnswerBeyondTheTimeoutFallsBack() {
        assertFellBack(judge("slow_4", timeout: 1), "did not answer within 1 s")
    }

    func testHeadersThenStallFallsBack() {
        assertFellBack(judge("stall", timeout: 1), "did not answer within 1 s")
    }

    func testTricklingBodyStillEndsAtTheDeadline() {
        assertFellBack(judge("trickle", timeout: 1), "did not answer within 1 s")
    }

    func testConnectionClosedMidBodyFallsBackAfterOneRetry() {
        assertFellBack(judge("closed_c"), "could not be reached")
        XCTAssertEqual(server.requests(mode: "closed_c").count, 2)
    }

    func testRateLimitAndServerErrorFallBackAfterOneRetry() {
        assertFellBack(judge("429_r"), "rate limited (HTTP 429)")
        XCTAssertEqual(server.requests(mode: "429_r").count, 2)
        assertFellBack(judge("500_r"), "answered HTTP 500")
        XCTAssertEqual(server.requests(mode: "500_r").count, 2)
    }

    func testRefusedKeyIsNotRetried() {
        assertFellBack(judge("401_r"), "refused the API key")
        XCTAssertEqual(server.requests(mode: "401_r").count, 1)
    }

    func testMalformedAnswersFallBack() {
        assertFellBack(judge("malformed_m"), "did not answer in the JSON asked for")
        XCTAssertEqual(server.requests(mode: "malformed_m").count, 2)
        assertFellBack(judge("notjson_m"), "did not answer in the JSON asked for")
    }

    func testNothingListeningFallsBack() {
        let engine = ProviderEngine(ProviderConfiguration(baseURL: URL(string: "http://127.0.0.1:1")!, model: "fake-model", timeout: 5))
        assertFellBack(withinDeadline(20) { engine.judge(Fixture.message) }, "could not be reached")
    }

    func testOneFailureIsRetried() throws {
        let j = try XCTUnwrap(judge("flaky_f"))
        XCTAssertEqual(j.engine.name, "provider")
        XCTAssertEqual(server.requests(mode: "flaky_f").count, 2)
    }

    func testEndpointRefusingResponseFormatIsAskedWithoutIt() throws {
        let engine = Fixture.engine(server, "noformat_n")
        let first = try XCTUnwrap(withinDeadline(20) { engine.judge(Fixture.message) })
        XCTAssertEqual(first.engine.name, "provider")
        let second = try XCTUnwrap(withinDeadline(20) { engine.judge(Fixture.message) })
        XCTAssertEqual(second.engine.name, "provider")
        let formats = server.requests(mode: "noformat_n").map { ($0["body"] as? [String: Any])?["response_format"] != nil }
        XCTAssertEqual(formats, [true, false, false], "asked once with it, then never again")
    }
}
