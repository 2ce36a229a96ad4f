import Foundation
import MessageAIAssistantProvider
import MessageAIProtocol
@testable import MessageAIServer
import XCTest

/// Summaries and checks with the local engine: cached by range and engine; rewrites need a provider.
final class AssistantLocalAnswerTests: AssistantTestCase {
    func testSummaryIsCachedByRangeAndNamesItsEngine() throws {
        for text in ["We need to pick a date for the 2.3 release.", "Decision: we ship 2.3 on Thursday.",
                     "Ben, could you tag the 2.3 hotfix branch by 5pm?", "Who writes the release notes?"] {
            _ = try ann.sendText(text, in: group.conversationID)
        }
        let first: AssistSummaryResult = try ben.request(AssistSummary(conversationID: group.conversationID))
        XCTAssertEqual(first.engine, "local")
        XCTAssertEqual(first.messageCount, 4)
        XCTAssertEqual(first.covered, 4)
        XCTAssertEqual([first.fromSeq, first.toSeq], [1, 4])
        XCTAssertFalse(first.cached)
        XCTAssertTrue(first.decisions.contains { $0.lowercased().contains("thursday") }, "\(first.decisions)")
        XCTAssertEqual(first.fallbackReason, "", "no provider, so nothing fell back")
        let second: AssistSummaryResult = try cat.request(AssistSummary(conversationID: group.conversationID))
        XCTAssertTrue(second.cached)
        XCTAssertEqual(second.summary, first.summary)
        // Another range is another entry.
        let part: AssistSummaryResult = try cat.request(AssistSummary(conversationID: group.conversationID, fromSeq: 2, toSeq: 3))
        XCTAssertEqual([part.fromSeq, part.toSeq, part.messageCount], [2, 3, 2])
        XCTAssertFalse(part.cached)
    }

    func testCheckFlagsADraftAndARewriteNeedsAProvider() throws {
        _ = try ann.sendText("I pushed the cache change and the retry change.", in: group.conversationID)
        let r: AssistCheckResult = try ben.request(AssistCheck(conversationID: group.conversationID, text: "revert that"))
        XCTAssertFalse(r.clarity.isEmpty, "'that' has two candidates")
        XCTAssertEqual(r.engine, "local")
        XCTAssertEqual(try ben.requestError(AssistCheck(conversationID: 0, text: "revert that", rewrite: true)).errorCode,
                       .assistantUnavailable)
        XCTAssertEqual(try ben.requestError(AssistCheck(conversationID: 0, text: "")).errorCode, .invalidArgument)
        let settings: AssistSettings = try ben.request(AssistSettingsGet(conversationID: group.conversationID))
        XCTAssertFalse(settings.providerAvailable)
    }
}

/// A provider that is down (nothing listens on its port): every answer comes from the local
/// engine with a notice, the budget counts, the switch keeps text away, and messages flow.
final class AssistantProviderDownTests: AssistantTestCase {
    static let closedPort: Int = {
        // A port that was free a moment ago: connecting to it is refused.
        let s = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var a = sockaddr_in(); a.sin_family = sa_family_t(AF_INET); a.sin_addr.s_addr = inet_addr("127.0.0.1")
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafePointer(to: &a) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(s, $0, len) } }
        _ = withUnsafeMutablePointer(to: &a) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(s, $0, &len) } }
        close(s)
        return Int(UInt16(bigEndian: a.sin_port))
    }()

    override func configure(_ c: inout ServerConfiguration) {
        c.assistant.provider = ProviderConfiguration(baseURL: URL(string: "http://127.0.0.1:\(Self.closedPort)")!, model: "fake", timeout: 2)
        c.assistant.providerRequestsPerDay = 2
    }

    func testSummaryFallsBackWithANoticeAndIsNotCachedAsTheProvider() throws {
        _ = try ann.sendText("Ben, could you tag the 2.3 hotfix branch by 5pm?", in: group.conversationID)
        let r: AssistSummaryResult = try ben.request(AssistSummary(conversationID: group.conversationID))
        XCTAssertEqual(r.engine, "local")
        XCTAssertTrue(r.fallbackReason.contains("could not be reached"), r.fallbackReason)
        XCTAssertFalse(r.summary.isEmpty)
        // The budget was spent on that try: one left, then none.
        let s: AssistSettings = try ben.request(AssistSettingsGet(conversationID: group.conversationID))
        XCTAssertEqual(s.budgetLeft, 1)
        XCTAssertTrue(s.providerAvailable)
        _ = try ben.request(AssistSummary(conversationID: group.conversationID), expecting: AssistSummaryResult.self)
        let spent: AssistSummaryResult = try ben.request(AssistSummary(conversationID: group.conversationID))
        XCTAssertTrue(spent.fallbackReason.contains("used up"), spent.fallbackReason)
        XCTAssertEqual(try ben.requestError(AssistCheck(conversationID: 0, text: "fix it", rewrite: true)).errorCode,
                       .assistantBudgetExhausted)
        // Another user's budget is their own.
        let c: AssistSettings = try cat.request(AssistSettingsGet(conversationID: group.conversationID))
        XCTAssertEqual(c.budgetLeft, 2)
    }

    func testTheSwitchKeepsTextAwayAndIsPushedToMembers() throws {
        let set: AssistSettings = try cat.request(AssistSettingsSet(conversationID: group.conversationID, providerOff: true))
        XCTAssertTrue(set.providerOff)
        XCTAssertEqual(set.changedBy, "cat")
        let pushed = try ann.push(AssistSettings.self) { $0.conversationID == self.group.conversationID }
        XCTAssertTrue(pushed.providerOff)
        _ = try ann.sendText("Ben, could you tag the branch by 5pm?", in: group.conversationID)
        let r: AssistSummaryResult = try ben.request(AssistSummary(conversationID: group.conversationID))
        XCTAssertEqual(r.engine, "local")
        XCTAssertTrue(r.fallbackReason.contains("away from the language model"), r.fallbackReason)
        XCTAssertEqual(try ben.requestError(AssistCheck(conversationID: group.conversationID, text: "fix it", rewrite: true)).errorCode,
                       .providerOffHere)
        let s: AssistSettings = try ben.request(AssistSettingsGet(conversationID: group.conversationID))
        XCTAssertEqual(s.budgetLeft, 2, "nothing went to the provider, so nothing was spent")
        let on: AssistSettings = try ben.request(AssistSettingsSet(conversationID: group.conversationID, providerOff: false))
        XCTAssertFalse(on.providerOff)
    }

}

/// A provider that accepts the connection and never answers: the summary waits for its
/// timeout off the hub while the same connection's SEND is acknowledged and delivered.
final class AssistantProviderStallTests: AssistantTestCase {
    static let silent: (fd: Int32, port: Int) = {
        let s = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var a = sockaddr_in(); a.sin_family = sa_family_t(AF_INET); a.sin_addr.s_addr = inet_addr("127.0.0.1")
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafePointer(to: &a) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(s, $0, len) } }
        listen(s, 64)  // never accepted: the kernel completes the handshake, nobody reads
        _ = withUnsafeMutablePointer(to: &a) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(s, $0, &len) } }
        return (s, Int(UInt16(bigEndian: a.sin_port)))
    }()

    override func configure(_ c: inout ServerConfiguration) {
        c.assistant.provider = ProviderConfiguration(baseURL: URL(string: "http://127.0.0.1:\(Self.silent.port)")!, model: "fake", timeout: 3)
    }

    func testMessagesFlowWhileAProviderCallHangs() throws {
        _ = try ann.sendText("First message.", in: group.conversationID)
        let summaryID = ben.send(AssistSummary(conversationID: group.conversationID))
        let ack = try ben.sendText("Sending while the summary is being made.", in: group.conversationID)
        XCTAssertEqual(ack.seq, 2)
        _ = try ann.push(ChatMessage.self) { $0.seq == 2 }
        XCTAssertFalse(ben.inbox.contains { $0.requestID == summaryID }, "the SEND behind the summary was answered first")
        let r: AssistSummaryResult = try ben.answer(summaryID)
        XCTAssertEqual(r.engine, "local")
        XCTAssertTrue(r.fallbackReason.contains("did not answer"), r.fallbackReason)
    }
}
