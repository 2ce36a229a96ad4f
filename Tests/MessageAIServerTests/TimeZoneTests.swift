import Foundation
import MessageAIAssistant
import MessageAIProtocol
@testable import MessageAIServer
import XCTest

/// A user's time zone on the profile, and due dates placed on the sender's calendar at
/// extraction (issue 28), over real sockets.
final class TimeZoneTests: AssistantTestCase {
    func testTheZoneIsSetCheckedAndShownToConversationPartners() throws {
        let before: Profile = try ann.request(ProfileGet(username: "ann"))
        XCTAssertEqual(before.timeZone, "", "none until a client sets it")
        let set: Profile = try ann.request(ProfileUpdate(timeZone: "Asia/Tokyo"))
        XCTAssertEqual(set.timeZone, "Asia/Tokyo")
        XCTAssertEqual(set.user.displayName, before.user.displayName, "a zone alone leaves the name as it was")
        let seen: Profile = try ben.request(ProfileGet(username: "ann"))
        XCTAssertEqual(seen.timeZone, "Asia/Tokyo", "ben shares a group with ann")
        let offset: Profile = try ann.request(ProfileUpdate(timeZone: "+05:30"))
        XCTAssertEqual(offset.timeZone, "+05:30")

        // A bad zone changes nothing, not even a good name sent with it.
        for bad in ["PST", "Mars/Olympus", "+15:00", "UTC-9", "Asia/Tokyo\u{0}", String(repeating: "x/", count: 40)] {
            let e = try ann.requestError(ProfileUpdate(displayName: "Ann A.", timeZone: bad))
            XCTAssertEqual(e.errorCode, .invalidArgument, bad)
            XCTAssertEqual(e.field, "time_zone", bad)
            XCTAssertFalse(e.message.contains(bad), "the value is not echoed")
        }
        let own: Profile = try ann.request(ProfileGet(username: "ann"))
        XCTAssertEqual(own.timeZone, "+05:30")
        XCTAssertEqual(own.user.displayName, before.user.displayName)

        // Neither field: the old rule, display_name is missing.
        let neither = try ann.requestError(ProfileUpdate(displayName: nil, timeZone: nil))
        XCTAssertEqual(neither.field, "display_name")
        let cleared: Profile = try ann.request(ProfileUpdate(timeZone: ""))
        XCTAssertEqual(cleared.timeZone, "")
    }

    func testADueDateIsPlacedOnTheSendersCalendarAndKept() throws {
        let _: Profile = try ann.request(ProfileUpdate(timeZone: "Asia/Tokyo"))
        let _: Profile = try ben.request(ProfileUpdate(timeZone: "America/Los_Angeles"))
        let ack = try ann.sendText("Ben, please send the deck by tomorrow", in: group.conversationID)
        let item = try XCTUnwrap(try itemsPush(ben, seq: ack.seq).first)
        XCTAssertEqual(item.due, "tomorrow", "the words as written stay")
        let expected = try XCTUnwrap(DueTimes.resolve("tomorrow", sentAt: ack.serverTime, timeZone: "Asia/Tokyo"))
        XCTAssertEqual(item.dueAt, expected.at)
        XCTAssertEqual(item.dueTimeZone, "Asia/Tokyo")
        XCTAssertNotEqual(item.dueAt, DueTimes.resolve("tomorrow", sentAt: ack.serverTime, timeZone: "America/Los_Angeles")?.at,
                          "ben's zone is not the one that counts")
        // 17:00 on Tokyo's wall.
        var tokyo = Calendar(identifier: .gregorian)
        tokyo.timeZone = TimeZone(identifier: "Asia/Tokyo")!
        let wall = tokyo.dateComponents([.hour, .minute], from: Date(timeIntervalSince1970: Double(item.dueAt) / 1000))
        XCTAssertEqual([wall.hour, wall.minute], [17, 0])

        // Listed and synced the same; a user without a zone gets UTC; vague words get no instant.
        let listed: AssistItems = try cat.request(AssistItemsList(conversationID: group.conversationID, filter: .all))
        XCTAssertEqual(listed.items.first { $0.itemID == item.itemID }?.dueAt, item.dueAt)
        let catAck = try cat.sendText("Ann, could you check the contract by Friday?", in: group.conversationID)
        let catItem = try XCTUnwrap(try itemsPush(ann, seq: catAck.seq).first)
        XCTAssertEqual(catItem.dueTimeZone, "UTC")
        XCTAssertEqual(catItem.dueAt, DueTimes.resolve("Friday", sentAt: catAck.serverTime, timeZone: "")?.at)
        let vague = try ben.sendText("Ann, please fix the flaky test after standup", in: group.conversationID)
        let vagueItem = try XCTUnwrap(try itemsPush(ann, seq: vague.seq).first)
        XCTAssertEqual(vagueItem.due, "after standup")
        XCTAssertEqual(vagueItem.dueAt, 0)
        XCTAssertEqual(vagueItem.dueTimeZone, "")
    }
}
