@testable import MessageAIAssistant
import Foundation
import XCTest

/// Due dates resolved against the message's own time in the sender's zone, east and west of
/// UTC, across summer-time changes. The clock is never read: every case passes its `sentAt`.
final class DueTimeTests: XCTestCase {
    /// Milliseconds of an ISO 8601 time with its offset ("2026-11-26T10:00:00+09:00").
    func ms(_ iso: String) -> UInt64 {
        let f = ISO8601DateFormatter()
        return UInt64(f.date(from: iso)!.timeIntervalSince1970 * 1000)
    }

    func due(_ text: String, _ sent: String, _ zone: String) -> String? {
        DueTimes.resolve(text, sentAt: ms(sent), timeZone: zone).map { DueTimes.iso(at: $0.at, zone: "UTC") }
    }

    func testTokyoSenderThursdayMorning() {
        let sent = "2026-11-26T10:00:00+09:00"  // Thursday
        XCTAssertEqual(due("tomorrow", sent, "Asia/Tokyo"), "2026-11-27T08:00:00Z")
        XCTAssertEqual(due("Friday 5pm", sent, "Asia/Tokyo"), "2026-11-27T08:00:00Z")
        XCTAssertEqual(due("Friday at 5 pm", sent, "Asia/Tokyo"), "2026-11-27T08:00:00Z")
        XCTAssertEqual(due("Friday", sent, "Asia/Tokyo"), "2026-11-27T08:00:00Z")
        XCTAssertEqual(due("Friday EOD", sent, "Asia/Tokyo"), "2026-11-27T08:00:00Z")
        XCTAssertEqual(due("EOD", sent, "Asia/Tokyo"), "2026-11-26T08:00:00Z")
        XCTAssertEqual(due("first thing tomorrow", sent, "Asia/Tokyo"), "2026-11-27T00:00:00Z")
        XCTAssertEqual(due("Monday morning", sent, "Asia/Tokyo"), "2026-11-30T00:00:00Z")
        XCTAssertEqual(due("noon", sent, "Asia/Tokyo"), "2026-11-26T03:00:00Z")
        XCTAssertEqual(due("tonight", sent, "Asia/Tokyo"), "2026-11-26T14:59:00Z")
    }

    func testTheSameWordsMeanAnotherInstantWestOfUTC() {
        // The same instant as above, written in Los Angeles: it is still Wednesday there.
        let sent = "2026-11-25T17:00:00-08:00"
        XCTAssertEqual(ms(sent), ms("2026-11-26T10:00:00+09:00"))
        XCTAssertEqual(due("tomorrow", sent, "America/Los_Angeles"), "2026-11-27T01:00:00Z")
        XCTAssertEqual(due("Friday 5pm", sent, "America/Los_Angeles"), "2026-11-28T01:00:00Z")
        // Sent at 17:00: EOD is the end of that day, not a time already past.
        XCTAssertEqual(due("EOD", sent, "America/Los_Angeles"), "2026-11-26T07:59:00Z")
        XCTAssertEqual(due("5pm", sent, "America/Los_Angeles"), "2026-11-27T01:00:00Z")
    }

    func testSpringForwardInLosAngeles() {
        let sent = "2026-03-07T10:00:00-08:00"  // Saturday, PST; summer time starts Sunday 02:00
        // 17:00 on Sunday's wall is 17:00 PDT (UTC-7), not 24 hours after Saturday 17:00.
        XCTAssertEqual(due("tomorrow", sent, "America/Los_Angeles"), "2026-03-09T00:00:00Z")
        XCTAssertEqual(due("EOD", sent, "America/Los_Angeles"), "2026-03-08T01:00:00Z")
        // 02:30 does not exist that night: it moves forward by the gap.
        XCTAssertEqual(due("tomorrow 2:30am", sent, "America/Los_Angeles"), "2026-03-08T10:30:00Z")
        // Intervals are real time, whatever the wall does.
        XCTAssertEqual(due("in 24 hours", sent, "America/Los_Angeles"), "2026-03-08T18:00:00Z")
    }

    func testFallBackInLosAngelesAndEuropeanChanges() {
        let sent = "2026-10-31T10:00:00-07:00"  // Saturday, PDT; winter time from Sunday 02:00
        XCTAssertEqual(due("tomorrow", sent, "America/Los_Angeles"), "2026-11-02T01:00:00Z")
        XCTAssertEqual(due("tomorrow 1:30am", sent, "America/Los_Angeles"), "2026-11-01T08:30:00Z")  // the first 01:30
        XCTAssertEqual(due("tomorrow 9am", "2026-03-28T12:00:00Z", "Europe/London"), "2026-03-29T08:00:00Z")
        XCTAssertEqual(due("Monday 9am", "2026-10-23T12:00:00+02:00", "Europe/Berlin"), "2026-10-26T08:00:00Z")
    }

    func testSouthernSummerEndsInSydney() {
        // Saturday 4 April 2026, AEDT (UTC+11); standard time (UTC+10) from Sunday 03:00.
        XCTAssertEqual(due("tomorrow", "2026-04-04T12:00:00+11:00", "Australia/Sydney"), "2026-04-05T07:00:00Z")
        XCTAssertEqual(due("EOD", "2026-04-04T12:00:00+11:00", "Australia/Sydney"), "2026-04-04T06:00:00Z")
    }

    func testWeekdays() {
        let friday = "2026-11-27T10:00:00+01:00"
        XCTAssertEqual(due("Friday", friday, "Europe/Paris"), "2026-11-27T16:00:00Z", "that day while it is still ahead")
        XCTAssertEqual(due("Friday", "2026-11-27T18:00:00+01:00", "Europe/Paris"), "2026-12-04T16:00:00Z", "a week later once past")
        XCTAssertEqual(due("next Friday", "2026-11-23T10:00:00+01:00", "Europe/Paris"), "2026-12-04T16:00:00Z", "Monday: next week's")
        XCTAssertEqual(due("next Friday", "2026-11-28T10:00:00+01:00", "Europe/Paris"), "2026-12-04T16:00:00Z", "Saturday: the coming one")
        XCTAssertEqual(due("EOW", "2026-11-25T10:00:00+01:00", "Europe/Paris"), "2026-11-27T16:00:00Z")
        XCTAssertEqual(due("end of the week", "2026-11-28T10:00:00+01:00", "Europe/Paris"), "2026-12-04T16:00:00Z")
    }

    func testDatesAndIntervals() {
        let sent = "2026-11-26T10:00:00+05:30"
        XCTAssertEqual(due("the 28th", sent, "Asia/Kolkata"), "2026-11-28T11:30:00Z")
        XCTAssertEqual(due("the 25th", sent, "Asia/Kolkata"), "2026-12-25T11:30:00Z")
        XCTAssertEqual(due("Nov 28", sent, "Asia/Kolkata"), "2026-11-28T11:30:00Z")
        XCTAssertEqual(due("28 November", sent, "Asia/Kolkata"), "2026-11-28T11:30:00Z")
        XCTAssertEqual(due("the 3rd of December", sent, "Asia/Kolkata"), "2026-12-03T11:30:00Z")
        XCTAssertEqual(due("Nov 20", sent, "Asia/Kolkata"), "2027-11-20T11:30:00Z", "a date already past is next year's")
        XCTAssertEqual(due("2026-12-01", sent, "Asia/Kolkata"), "2026-12-01T11:30:00Z")
        XCTAssertEqual(due("25/12", sent, "Asia/Kolkata"), "2026-12-25T11:30:00Z")
        XCTAssertEqual(due("end of the month", sent, "Asia/Kolkata"), "2026-11-30T11:30:00Z")
        XCTAssertEqual(due("in 2 hours", sent, "Asia/Kolkata"), "2026-11-26T06:30:00Z")
        XCTAssertEqual(due("eta 5 min", sent, "Asia/Kolkata"), "2026-11-26T04:35:00Z")
        XCTAssertEqual(due("in 3 days", sent, "Asia/Kolkata"), "2026-11-29T11:30:00Z")
        XCTAssertNil(due("Feb 30", sent, "Asia/Kolkata"))
    }

    func testAZoneInTheTextWinsForTheClock() {
        let sent = "2026-11-26T10:00:00+09:00"
        let r = DueTimes.resolve("tomorrow 09:00 UTC", sentAt: ms(sent), timeZone: "Asia/Tokyo")
        XCTAssertEqual(r.map { DueTimes.iso(at: $0.at, zone: "UTC") }, "2026-11-27T09:00:00Z")
        XCTAssertEqual(r?.timeZone, "UTC")
        XCTAssertEqual(due("5pm PT", sent, "Asia/Tokyo"), "2026-11-27T01:00:00Z")
    }

    func testUnknownZoneIsUTCAndVagueTextStaysText() {
        let sent = "2026-11-26T10:00:00Z"
        XCTAssertEqual(DueTimes.resolve("tomorrow", sentAt: ms(sent), timeZone: "")?.timeZone, "UTC")
        XCTAssertEqual(due("tomorrow", sent, ""), "2026-11-27T17:00:00Z")
        XCTAssertEqual(due("tomorrow", sent, "Mars/Olympus"), "2026-11-27T17:00:00Z")
        for vague in ["soon", "next sprint", "after standup", "before the demo", "next week", "3/11", "the weekend", "this quarter",
                      "tomorrow's standup", "after lunch", "Friday's demo"] {
            XCTAssertNil(due(vague, sent, "Asia/Tokyo"), vague)
        }
    }

    func testZoneNames() {
        XCTAssertEqual(TimeZoneName.fromTZ("UTC-9"), "+09:00")
        XCTAssertEqual(TimeZoneName.fromTZ("JST-9"), "+09:00")
        XCTAssertEqual(TimeZoneName.fromTZ("<+0530>-5:30"), "+05:30")
        XCTAssertEqual(TimeZoneName.fromTZ("UTC+5"), "-05:00")
        XCTAssertEqual(TimeZoneName.fromTZ(":Asia/Tokyo"), "Asia/Tokyo")
        XCTAssertEqual(TimeZoneName.fromTZ("/usr/share/zoneinfo/America/Los_Angeles"), "America/Los_Angeles")
        XCTAssertEqual(TimeZoneName.fromTZ("UTC"), "UTC")
        XCTAssertNil(TimeZoneName.fromTZ("Mars/Olympus"))
        XCTAssertNil(TimeZoneName.fromTZ("PST8PDT,M3.2.0,M11.1.0x"))
        XCTAssertTrue(TimeZoneName.isValid("America/Argentina/Buenos_Aires"))
        XCTAssertTrue(TimeZoneName.isValid("+14:00"))
        XCTAssertTrue(TimeZoneName.isValid("-12:00"))
        for bad in ["PST", "CET", "+15:00", "+9:00", "09:00", "Asia/Tōkyō", "Asia/Tokyo\n", "", String(repeating: "a/", count: 40), "東京"] {
            XCTAssertFalse(TimeZoneName.isValid(bad), bad)
        }
        XCTAssertEqual(TimeZoneName.label("America/Los_Angeles"), "Los Angeles")
        XCTAssertEqual(TimeZoneName.label("+09:00"), "UTC+09:00")
        XCTAssertEqual(TimeZoneName.label("Etc/GMT-9"), "UTC+09:00")
        XCTAssertEqual(TimeZoneName.label(""), "UTC")
    }

    func testEachReaderSeesTheInstantInTheirZone() {
        let at = ms("2026-11-27T17:00:00+09:00")
        XCTAssertEqual(DueTimes.describe(at: at, timeZone: "Asia/Tokyo", readerZone: "Asia/Tokyo"), "Fri 27 Nov 17:00")
        XCTAssertEqual(DueTimes.describe(at: at, timeZone: "Asia/Tokyo", readerZone: "Europe/Berlin"), "Fri 27 Nov 17:00 (Tokyo) = Fri 09:00 here")
        XCTAssertEqual(DueTimes.describe(at: at, timeZone: "Asia/Tokyo", readerZone: "America/Los_Angeles"), "Fri 27 Nov 17:00 (Tokyo) = Fri 00:00 here")
        XCTAssertEqual(DueTimes.describe(at: at, timeZone: "Asia/Tokyo", readerZone: "Pacific/Honolulu"),
                       "Fri 27 Nov 17:00 (Tokyo) = Thu 26 Nov 22:00 here")
        XCTAssertEqual(DueTimes.describe(at: at, timeZone: "", readerZone: "Asia/Tokyo"), "Fri 27 Nov 08:00 (UTC) = Fri 17:00 here")
        XCTAssertEqual(DueTimes.describe(at: at, timeZone: "+09:00", readerZone: "Asia/Tokyo"), "Fri 27 Nov 17:00")
        XCTAssertEqual(DueTimes.iso(at: at, zone: "America/Los_Angeles"), "2026-11-27T00:00:00-08:00")
    }
}

/// ASSISTANT.md's evaluation lines keep `due` as written; the instant is an extra field, given
/// only when the line says when the message was sent.
final class DueTimeEvaluationTests: XCTestCase {
    func testTheResolvedTimeIsAnExtraField() throws {
        let sent = UInt64(ISO8601DateFormatter().date(from: "2026-11-26T10:00:00+09:00")!.timeIntervalSince1970 * 1000)
        let line = #"{"id": "t1", "from": "omar", "to": ["maya"], "text": "Maya, could you tag it by Friday 5pm?", "sent_at": \#(sent), "time_zone": "Asia/Tokyo"}"#
        let action = try XCTUnwrap((try EvaluationFormat.predict(line, engine: LocalEngine())["actions"] as? [[String: Any]])?.first)
        XCTAssertEqual(action["due"] as? String, "Friday 5pm")
        XCTAssertEqual(action["due_at"] as? UInt64, DueTimes.resolve("Friday 5pm", sentAt: sent, timeZone: "Asia/Tokyo")?.at)
        XCTAssertEqual(action["due_time_zone"] as? String, "Asia/Tokyo")
        let plain = #"{"id": "t2", "from": "omar", "to": ["maya"], "text": "Maya, could you tag it by Friday 5pm?"}"#
        let without = try XCTUnwrap((try EvaluationFormat.predict(plain, engine: LocalEngine())["actions"] as? [[String: Any]])?.first)
        XCTAssertEqual(without["due"] as? String, "Friday 5pm")
        XCTAssertNil(without["due_at"])
    }
}
