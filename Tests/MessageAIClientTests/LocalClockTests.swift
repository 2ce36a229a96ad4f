import XCTest
#if canImport(Glibc)
import Glibc
#endif
@testable import MessageAIClient

/// Printed times follow TZ exactly as `date` does, POSIX rules included (`TZ=UTC-9` is nine
/// hours ahead of UTC, as in Tokyo).
final class LocalClockTests: XCTestCase {
    private func withTZ(_ zone: String, _ body: () throws -> Void) rethrows {
        let saved = getenv("TZ").map { String(cString: $0) }
        setenv("TZ", zone, 1)
        tzset()
        defer {
            if let saved { setenv("TZ", saved, 1) } else { unsetenv("TZ") }
            tzset()
        }
        try body()
    }

    /// What `date` prints for `ms` in `zone`.
    private func date(_ zone: String, _ ms: UInt64, _ format: String) throws -> String {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/date")
        p.arguments = ["-d", "@\(ms / 1000)", "+" + format]
        p.environment = ["TZ": zone]
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .newlines)
    }

    func testPOSIXZonesAreFollowed() {
        let midnightUTC: UInt64 = 1_700_000_000_000 - 1_700_000_000_000 % 86_400_000  // 2023-11-14 00:00 UTC
        withTZ("UTC-9") {
            XCTAssertEqual(Output.clock(midnightUTC), "09:00")
            XCTAssertEqual(Output.day(midnightUTC - 3_600_000), "2023-11-14", "23:00 UTC is already tomorrow in UTC-9")
        }
        withTZ("UTC+5") { XCTAssertEqual(Output.clock(midnightUTC), "19:00") }
        withTZ("UTC") { XCTAssertEqual(Output.day(midnightUTC - 1), "2023-11-13") }
    }

    func testTimesMatchDateForEveryKindOfTZ() throws {
        let instants: [UInt64] = [0, 1_700_000_000_000, 1_719_835_200_000, 1_711_846_800_000]  // winter, summer, a DST change
        for zone in ["UTC-9", "JST-9", "<+0530>-5:30", "EST5EDT", "Asia/Tokyo", ":Europe/Paris", "America/St_Johns", "UTC"] {
            for ms in instants {
                let expected = (try date(zone, ms, "%H:%M"), try date(zone, ms, "%Y-%m-%d"))
                withTZ(zone) {
                    XCTAssertEqual(Output.clock(ms), expected.0, "TZ=\(zone) at \(ms)")
                    XCTAssertEqual(Output.day(ms), expected.1, "TZ=\(zone) at \(ms)")
                }
            }
        }
    }
}
