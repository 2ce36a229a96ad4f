@testable import MessageAIAssistant
import Foundation
import XCTest

/// Issue 28: no line of any summary ends in a clipped fragment ("share final specs with
/// secondary button and the"), over every thread of every labelled set in Scripts/assistant/data,
/// the blind ones included. A failure names the set, the thread's id and the field, never the
/// text: the held-out and blind sets are read only as counts.
final class ClippedFragmentTests: XCTestCase {
    static let data = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Scripts/assistant/data")

    /// A line is clipped when it ends on a word no phrase ends on, or on a comma or a colon.
    static func clipped(_ line: String) -> Bool {
        var text = line.trimmingCharacters(in: .whitespaces)
        // A due date or a note in brackets closes the line: judge what comes before it.
        if text.hasSuffix(")"), let open = text.lastIndex(of: "(") { text = String(text[..<open]).trimmingCharacters(in: .whitespaces) }
        if text.hasSuffix(",") || text.hasSuffix(":") || text.hasSuffix(";") { return true }
        // "Redis wins 3 to; Redis for ...": each part a ";" joins must end whole too.
        let parts = text.components(separatedBy: "; ")
        if parts.count > 1 { return parts.contains(where: clipped) }
        let last = text.split(separator: " ").last.map { $0.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: ".!?\"'")) } ?? ""
        return ActionRules.dangling.contains(last)
    }

    func testTheCheckSeesAClippedLineAndPassesAWholeOne() {
        XCTAssertTrue(Self.clipped("maya: share final specs with secondary button and the (Friday)"))
        XCTAssertTrue(Self.clipped("Decision: move the export to"))
        XCTAssertTrue(Self.clipped("Decision: Redis wins 3 to; Redis for the session cache"))
        XCTAssertFalse(Self.clipped("Decision: Redis wins 3 to 1; Redis for the session cache"))
        XCTAssertFalse(Self.clipped("maya: share the final specs (Friday)"))
        XCTAssertFalse(Self.clipped("Open: Who owns the rollback plan?"))
        XCTAssertFalse(Self.clipped("Decision: Thursday it is (Thursday works for QA)"))
        XCTAssertFalse(Self.clipped("no production deploys between 08:00 and 12:00 UTC from now on"))
    }

    func testNoSummaryOfAnySetEndsInAClippedFragment() throws {
        var threads = 0
        var found: [String] = []
        for set in ["dev", "dev2", "dev3", "dev4", "dev5", "dev6", "heldout", "fresh", "blind", "blind2", "blind5", "blind6"] {
            let url = Self.data.appendingPathComponent("\(set).jsonl")
            guard let text = try? String(contentsOf: url, encoding: .utf8) else { continue }
            for row in text.split(separator: "\n") {
                guard let obj = try JSONSerialization.jsonObject(with: Data(row.utf8)) as? [String: Any],
                      let messages = obj["messages"] as? [[String: Any]] else { continue }
                threads += 1
                let thread = ThreadToSummarize(participants: obj["participants"] as? [String] ?? [],
                                               messages: messages.map { ChatLine(from: $0["from"] as? String ?? "", text: $0["text"] as? String ?? "") })
                let s = engine.summarize(thread)
                let fields: [(String, [String])] = [("key point", s.keyPoints), ("decision", s.decisions), ("action", s.actions.map(\.what)),
                                                    ("open question", s.openQuestions)]
                for (field, lines) in fields where lines.contains(where: Self.clipped) {
                    found.append("\(set) \(obj["id"] as? String ?? "?"): a \(field)")
                }
            }
        }
        XCTAssertGreaterThanOrEqual(threads, 21, "the dev, heldout and fresh threads at least")
        XCTAssertEqual(found, [], "clipped lines")
    }
}
