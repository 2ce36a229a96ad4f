@testable import MessageAIAssistant
import XCTest

/// Issue 24's /check findings: a thing named a few messages back is known (the flag of "the
/// feature flag", whose first word was taken for the thing); a group's size counts the sender.
final class ClarityIssue24Tests: XCTestCase {
    func testAThingNamedTwoMessagesBeforeIsNotUnclear() {
        let context = [("maya", "Dark mode ships behind a flag."), ("li", "Sounds good."), ("ken", "CI is green.")]
        let j = judge("Please flip the feature flag before the demo.", to: group, context: context)
        XCTAssertFalse(j.clarity.contains { $0.kind == .reference }, "\(j.clarity.map(\.reason))")
    }

    func testGroupSizeCountsTheSender() {
        let j = judge("Can someone restart the Linux build runner by 5pm?", to: ["maya", "li"])
        let reason = j.clarity.first { $0.kind == .owner }?.reason ?? ""
        XCTAssertTrue(reason.contains("in a group of 3"), reason)
    }
}
