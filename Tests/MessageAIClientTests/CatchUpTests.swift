@testable import MessageAIClient
import XCTest

/// `/summary since TIME` and the catch-up shown on coming back: pure parts, with the clock given.
final class CatchUpTests: XCTestCase {
    var utc: Calendar { var c = Calendar(identifier: .gregorian); c.timeZone = TimeZone(identifier: "UTC")!; return c }
    /// 2026-11-23 10:30:00 UTC.
    let now = Date(timeIntervalSince1970: 1_795_429_800)

    func ms(_ y: Int, _ mo: Int, _ d: Int, _ h: Int = 0, _ mi: Int = 0) -> UInt64 {
        UInt64(utc.date(from: DateComponents(year: y, month: mo, day: d, hour: h, minute: mi))!.timeIntervalSince1970 * 1000)
    }

    func testSinceTimeForms() {
        XCTAssertEqual(SinceTime.parse("09:00", now: now, calendar: utc), ms(2026, 11, 23, 9))
        XCTAssertEqual(SinceTime.parse("11:15", now: now, calendar: utc), ms(2026, 11, 22, 11, 15), "a clock time still ahead is yesterday's")
        XCTAssertEqual(SinceTime.parse("yesterday", now: now, calendar: utc), ms(2026, 11, 22))
        XCTAssertEqual(SinceTime.parse("today", now: now, calendar: utc), ms(2026, 11, 23))
        XCTAssertEqual(SinceTime.parse("2h", now: now, calendar: utc), ms(2026, 11, 23, 8, 30))
        XCTAssertEqual(SinceTime.parse("90m", now: now, calendar: utc), ms(2026, 11, 23, 9))
        XCTAssertEqual(SinceTime.parse("3d", now: now, calendar: utc), ms(2026, 11, 20, 10, 30))
        XCTAssertEqual(SinceTime.parse("2026-11-20", now: now, calendar: utc), ms(2026, 11, 20))
        XCTAssertEqual(SinceTime.parse("2026-11-20T09:00", now: now, calendar: utc), ms(2026, 11, 20, 9))
        XCTAssertEqual(SinceTime.parse("2026-11-20T09:00:00Z", now: now, calendar: utc), ms(2026, 11, 20, 9))
        for bad in ["", "soon", "25:00", "9:5", "-2h", "0h", "2x", "2026-13-40"] {
            XCTAssertNil(SinceTime.parse(bad, now: now, calendar: utc), bad)
        }
    }

    func message(_ seq: UInt64, _ sender: String, _ text: String, at: UInt64) -> StoredMessage {
        StoredMessage(conversationID: 1, seq: seq, clientID: "c\(seq)", senderID: sender == "me" ? 1 : 2, sender: sender, text: text,
                      serverTime: at, sentHere: sender == "me")
    }

    /// My last message at 01:00, then `unread` messages from 02:00 on.
    func thread(unread: Int, startingAt start: UInt64) -> [StoredMessage] {
        var out = [message(1, "me", "Night all, the 2.4 branch is cut.", at: ms(2026, 11, 23, 1))]
        let texts = ["Decision: we'll go with Thursday for the 2.4 release.", "Li, can you run the load test on staging by Tuesday?",
                     "Who is doing the App Store submission this time?", "The login fix is merged and WEB-882 is closed."]
        for k in 0..<unread {
            out.append(message(UInt64(k + 2), k % 2 == 0 ? "maya" : "li", texts[k % texts.count] + (k >= texts.count ? " (\(k))" : ""),
                               at: start + UInt64(k) * 60_000))
        }
        return out
    }

    func testAfterSixHoursWithFifteenUnreadACatchUpLeadsWithDecisionsWorkAndQuestions() throws {
        let lines = try XCTUnwrap(CatchUp.lines(thread(unread: 16, startingAt: ms(2026, 11, 23, 2)), readUpTo: 1, me: 1,
                                                members: ["me", "maya", "li"], now: UInt64(now.timeIntervalSince1970 * 1000)))
        XCTAssertTrue(lines[0].hasPrefix("catch-up: 16 unread since"), lines[0])
        XCTAssertTrue(lines[0].contains("01:00"), "away since my last message: \(lines[0])")
        XCTAssertLessThanOrEqual(lines.count, 1 + CatchUp.maxLines)
        XCTAssertTrue(lines[1].contains("Decision:") && lines[1].contains("Thursday"), lines.joined(separator: "\n"))
        XCTAssertTrue(lines.contains { $0.contains("li: run the load test on staging (due Tuesday)") }, lines.joined(separator: "\n"))
    }

    func testNoCatchUpWhenBackSoonOrWithFewUnread() {
        let nowMs = UInt64(now.timeIntervalSince1970 * 1000)
        XCTAssertNil(CatchUp.lines(thread(unread: 14, startingAt: ms(2026, 11, 23, 2)), readUpTo: 1, me: 1, members: [], now: nowMs),
                     "14 unread: the recap is enough")
        let recent = thread(unread: 20, startingAt: ms(2026, 11, 23, 2)).map { m -> StoredMessage in
            var m = m; if m.sender == "me" { m.serverTime = ms(2026, 11, 23, 5) }; return m
        }
        XCTAssertNil(CatchUp.lines(recent, readUpTo: 1, me: 1, members: [], now: nowMs), "away 5.5 hours: no catch-up")
    }
}
