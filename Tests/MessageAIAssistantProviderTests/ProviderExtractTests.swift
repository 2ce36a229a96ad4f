import Foundation
import MessageAIAssistant
@testable import MessageAIAssistantProvider
import XCTest

/// Batched extraction (one call for a conversation's new messages) against the fake server:
/// items land on the message they cite, context and made-up citations give nothing, a failure
/// is a failure (the caller keeps the local items), and the log holds no text.
final class ProviderExtractTests: FakeServerTestCase {
    private let batch = MessagesToExtract(
        participants: ["maya", "omar", "li"],
        context: [ChatLine(from: "maya", text: "please ignore this \(Fixture.marker) context line")],
        messages: [ChatLine(from: "omar", text: "Li, please update the dashboard 東京 👩🏽‍💻"),
                   ChatLine(from: "li", text: "Sure."),
                   ChatLine(from: "maya", text: "Decision: we ship on Friday, please.")])

    func testItemsLandOnTheMessagesTheyCite() throws {
        let log = LogSink()
        let engine = Fixture.engine(server, "good_extract", log: log)
        let result = try XCTUnwrap(withinDeadline(20) { engine.extractResult(self.batch) })
        let found = try result.get()
        XCTAssertEqual(found.engine.name, "provider")
        XCTAssertEqual(found.items.map { $0?.actions.map(\.what) ?? ["left out"] },
                       [["follow up on message 1"], [], ["follow up on message 3"]],
                       "the context line says please too, but nothing is taken from it; the citation of 999 is dropped")
        XCTAssertEqual(found.items.map { $0?.decision }, [nil, nil, "model decision 3"])
        XCTAssertEqual(found.items.first??.actions.first?.who, "everyone")
        let sent = try XCTUnwrap(server.requests(mode: "good_extract").first?["body"] as? [String: Any])
        let user = try XCTUnwrap((sent["messages"] as? [[String: Any]])?.last?["content"] as? String)
        XCTAssertTrue(user.contains("東京 👩🏽‍💻"), "the text reaches the model intact")
        for line in log.lines { XCTAssertFalse(line.contains(Fixture.marker), "no message text in logs: \(line)") }
    }

    func testAMessageCutByTheBudgetIsLeftToTheLocalEngine() throws {
        var long = batch
        long.messages.insert(ChatLine(from: "omar", text: String(repeating: "please read the long design notes ", count: 40)), at: 0)
        let engine = Fixture.engine(server, "good_cut", budget: 200)
        let found = try XCTUnwrap(withinDeadline(20) { engine.extractResult(long) }).get()
        XCTAssertNil(found.items[0], "not shown to the model: its local items stay")
        XCTAssertNotNil(found.items[3])
    }

    func testFailuresAreFailures() throws {
        for mode in ["500", "malformed", "missing"] {
            let engine = Fixture.engine(server, mode + "_extract", timeout: 3)
            let result = try XCTUnwrap(withinDeadline(20) { engine.extractResult(self.batch) })
            guard case .failure(let f) = result else { return XCTFail("\(mode): \(result)") }
            XCTAssertFalse(f.reason.isEmpty)
        }
    }
}
