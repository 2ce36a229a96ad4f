import Foundation
import XCTest
@testable import MessageAIClient

/// README's command table and /help list the same commands.
final class ReadmeCommandsTests: XCTestCase {
    func testEveryCommandIsInTheReadmeTableAndEveryTableCommandExists() throws {
        let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("README.md")
        let text = try String(contentsOf: readme, encoding: .utf8)
        // The table's rows: "| `/cmd ARGS`, `/other` | what |"; the first cell names commands.
        var named = Set<String>()
        for line in text.split(separator: "\n") where line.hasPrefix("| `/") {
            // The first cell ends at "` |" (a "|" inside a usage is written "\|").
            guard let end = line.range(of: "` |") else { continue }
            let cell = line[line.index(line.startIndex, offsetBy: 2)...end.lowerBound]
            for usage in cell.split(separator: "`").enumerated().filter({ $0.offset % 2 == 0 }).map(\.element) {
                let words = usage.split(separator: " ")
                guard let first = words.first else { continue }
                let two = words.count > 1 ? "\(first) \(words[1])" : ""
                named.insert(CommandTable.spec(two) != nil ? two : String(first))
            }
        }
        let commands = Set(CommandTable.all.map(\.name))
        XCTAssertEqual(commands.subtracting(named), [], "commands /help lists that README's table does not")
        XCTAssertEqual(named.subtracting(commands), [], "README's table names commands that do not exist")
    }
}
