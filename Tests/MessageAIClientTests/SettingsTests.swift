import Foundation
import XCTest
@testable import MessageAIClient

/// The config file and /set's table.
final class SettingsTests: XCTestCase {
    private var dir: String!
    override func setUp() { dir = temporaryDirectory("settings") }
    override func tearDown() { try? FileManager.default.removeItem(atPath: dir) }

    func testAHandEditedFileIsReadAndSetKeepsItsCommentsAndOrder() throws {
        let path = dir + "/messageai/config"
        try FileManager.default.createDirectory(atPath: dir + "/messageai", withIntermediateDirectories: true)
        let original = """
            # my settings
            colour = never   
            # how many lines on /open
            recap=25

            timestamps = "HH:mm:ss"
            """
        try original.write(toFile: path, atomically: true, encoding: .utf8)
        var config = ClientConfiguration()
        let file = try SettingsFile(path: path)
        XCTAssertEqual(file.apply(to: &config), [])
        XCTAssertEqual(config.color, .never)
        XCTAssertEqual(config.openHistory, 25)
        XCTAssertEqual(config.timestampFormat, "HH:mm:ss")

        var edited = file
        edited.set("recap", "5")
        edited.set("bell", "off")
        try edited.save()
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        XCTAssertEqual(lines, ["# my settings", "colour = never   ", "# how many lines on /open", "recap = 5", "",
                               "timestamps = \"HH:mm:ss\"", "bell = off", ""])
        var again = ClientConfiguration()
        XCTAssertEqual(try SettingsFile(path: path).apply(to: &again), [])
        XCTAssertEqual(again.openHistory, 5)
        XCTAssertFalse(again.bell)
    }

    func testBadLinesAreReportedAndSkippedWhileTheRestApplies() throws {
        let path = dir + "/config"
        try "verbose = maybe\nfrobnicate = 3\nno equals sign\ncolor = always\nrecap = 9999\n".write(toFile: path, atomically: true, encoding: .utf8)
        var config = ClientConfiguration()
        let problems = try SettingsFile(path: path).apply(to: &config)
        XCTAssertEqual(problems.count, 4, problems.joined(separator: "\n"))
        XCTAssertTrue(problems[0].contains("verbose must be on or off"), problems[0])
        XCTAssertTrue(problems[1].contains("unknown setting 'frobnicate'"), problems[1])
        XCTAssertTrue(problems[0].hasPrefix(path + ":1:"), "each problem names the file and line")
        XCTAssertEqual(config.color, .always, "an alias (color) still applies")
        XCTAssertEqual(config.openHistory, 10, "an out-of-range value keeps the default")
    }

    func testEverySettingRoundTripsItsDefaultAndRefusesNonsense() {
        let defaults = ClientConfiguration()
        for spec in Settings.table {
            let v = spec.read(defaults)
            XCTAssertEqual(spec.normalise(v), v, "\(spec.key)'s default is one of its own values")
            XCTAssertFalse(spec.help.isEmpty)
        }
        XCTAssertNil(Settings.spec("timestamps")!.normalise("\u{1B}[31m"), "no escape sequences in a pattern")
        XCTAssertNil(Settings.spec("timestamps")!.normalise("banana"), "a pattern shows some part of a time")
        XCTAssertEqual(Settings.spec("timestamps")!.normalise("off"), "off")
        XCTAssertEqual(Settings.spec("bell")!.normalise("YES"), "on")
        XCTAssertNil(Settings.spec("recap")!.normalise("-1"))
    }
}

/// /set from a real piped client: the file it writes, what the next start reads, and flags
/// that win over it.
final class SetCommandTests: ServerBackedTestCase {
    override class var directoryName: String { "set" }

    func testSetSavesTheFileTheNextStartReadsAndFlagsWin() throws {
        try clients.register("alice")
        let path = root + "/xdg/messageai/config"
        let r = try clients.run("alice", ["/set colour never", "/set recap 3", "/set notify \"\"", "/set bogus 1", "/set bell maybe", "/set"],
                                json: true, extra: ["--config", path])
        XCTAssertNotEqual(r.status, 0, "two bad lines fail the script")
        let errors = jsonLines(r.out).filter { $0["type"] as? String == "error" }.compactMap { $0["message"] as? String }
        XCTAssertEqual(errors.count, 2, r.out)
        XCTAssertTrue(errors[0].contains("no setting 'bogus'") && errors[0].contains("colour"), errors[0])
        XCTAssertTrue(errors[1].contains("bell must be on or off"), errors[1])
        let listed = try XCTUnwrap(jsonLines(r.out).last { $0["type"] as? String == "settings" })
        let rows = listed["settings"] as? [[String: Any]] ?? []
        XCTAssertEqual(rows.first { $0["key"] as? String == "recap" }?["value"] as? String, "3")
        XCTAssertEqual(rows.first { $0["key"] as? String == "colour" }?["value"] as? String, "never")

        let text = try String(contentsOfFile: path, encoding: .utf8)
        XCTAssertTrue(text.hasPrefix("# messageai settings"), text)
        XCTAssertTrue(text.contains("\ncolour = never\n") && text.contains("\nrecap = 3\n") && text.contains("\nnotify = \"\"\n"), text)

        let again = try clients.run("alice", ["/set recap"], extra: ["--config", path])
        XCTAssertEqual(again.status, 0, again.err)
        XCTAssertTrue(again.out.contains("recap = 3"), again.out)
        let flag = try clients.run("alice", ["/set recap"], extra: ["--config", path, "--open-history", "7"])
        XCTAssertTrue(flag.out.contains("recap = 7"), "a flag on the command line wins: \(flag.out)")

        try "recap = lots\n".write(toFile: path, atomically: true, encoding: .utf8)
        let bad = try clients.run("alice", ["/set recap"], extra: ["--config", path])
        XCTAssertEqual(bad.status, 0)
        XCTAssertTrue(bad.err.contains("config:1: recap must be a whole number"), bad.err)
        XCTAssertTrue(bad.out.contains("recap = 10"), bad.out)

        let help = try clients.run("alice", ["/help set"], extra: ["--config", path])
        for spec in Settings.table { XCTAssertTrue(help.out.contains(spec.key), "/help set explains \(spec.key): \(help.out)") }
    }
}
