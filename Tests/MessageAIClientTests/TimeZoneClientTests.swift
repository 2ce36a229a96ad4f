import XCTest
import MessageAIProtocol
@testable import MessageAIClient

/// How the client finds its zone (TZ, the /etc/localtime link, /etc/timezone, UTC) and how a
/// due date reads to a reader in another zone, as a line and in --json.
final class TimeZoneClientTests: XCTestCase {
    func testTheZoneComesFromTZThenTheSystemThenUTC() {
        func detect(_ env: [String: String], _ link: String? = nil, _ file: String? = nil) -> SystemTimeZone {
            SystemTimeZone.detect(environment: env, localtimeLink: link, timezoneFile: file)
        }
        XCTAssertEqual(detect(["TZ": "Asia/Tokyo"], "/usr/share/zoneinfo/Europe/Paris"), SystemTimeZone(name: "Asia/Tokyo", source: "TZ"))
        XCTAssertEqual(detect(["TZ": ":America/Los_Angeles"]).name, "America/Los_Angeles")
        XCTAssertEqual(detect(["TZ": "UTC-9"]).name, "+09:00", "POSIX counts hours west of UTC")
        XCTAssertEqual(detect(["TZ": ""]).name, "UTC")
        let bad = detect(["TZ": "Mars/Olympus"], "/usr/share/zoneinfo/Europe/Paris")
        XCTAssertEqual(bad.name, "UTC", "as the C library does with a TZ it cannot read")
        XCTAssertNotNil(bad.problem)
        XCTAssertEqual(detect([:], "/usr/share/zoneinfo/Europe/Paris"), SystemTimeZone(name: "Europe/Paris", source: "/etc/localtime"))
        XCTAssertEqual(detect([:], "../usr/share/zoneinfo/America/Argentina/Buenos_Aires").name, "America/Argentina/Buenos_Aires")
        XCTAssertEqual(detect([:], "/etc/zoneinfo-missing", "Asia/Kolkata\n"), SystemTimeZone(name: "Asia/Kolkata", source: "/etc/timezone"))
        XCTAssertEqual(detect([:]), SystemTimeZone(name: "UTC", source: "default"))
    }

    func testADueDateReadsInTheReadersClock() throws {
        var item = AssistItem(itemID: 12, conversationID: 7, seq: 3, kind: .action, text: "send the deck", who: "ann",
                              due: "Friday 5pm", from: "ben", rev: 4, engine: "local", engineVersion: "0.5.0")
        item.dueAt = 1_795_766_400_000  // Friday 27 November 2026, 17:00 in Tokyo
        item.dueTimeZone = "Asia/Tokyo"
        let line = try XCTUnwrap(TerminalRenderer(colour: false).render(
            AssistantEvent.item(item, conversation: "launch", known: false, me: "ann", zone: "Europe/Berlin")))
        XCTAssertTrue(line.contains("(due Fri 27 Nov 17:00 (Tokyo) = Fri 09:00 here) (/done 12 when it is)"), line)
        XCTAssertEqual(AssistantView.itemLine(item, conversation: nil, zone: "Asia/Tokyo"), "#12 ann: send the deck (due Fri 27 Nov 17:00)")
        let fields = AssistantView.itemFields(item, conversation: "launch", zone: "America/Los_Angeles")
        XCTAssertEqual(fields["due"] as? String, "Friday 5pm", "--json keeps the words as written")
        XCTAssertEqual(fields["due_at"] as? UInt64, 1_795_766_400_000)
        XCTAssertEqual(fields["due_time_zone"] as? String, "Asia/Tokyo")
        XCTAssertEqual(fields["due_local"] as? String, "2026-11-27T00:00:00-08:00")

        item.dueAt = 0; item.dueTimeZone = ""; item.due = "after standup"
        XCTAssertEqual(AssistantView.itemLine(item, conversation: nil, zone: "Asia/Tokyo"), "#12 ann: send the deck (due after standup)")
        XCTAssertTrue(AssistantView.itemFields(item, conversation: "launch", zone: "UTC")["due_at"] is NSNull)
    }
}
