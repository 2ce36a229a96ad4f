@testable import MessageAIAssistant
import XCTest

/// Work reported done leaves a thread's open actions; a report about something else does not.
final class OpenActionsDoneTests: XCTestCase {
    func open(_ lines: [(String, String)]) -> [ActionItem] {
        engine.summarize(ThreadToSummarize(participants: ["maya", "priya", "jonas"], messages: lines.map { ChatLine(from: $0.0, text: $0.1) })).actions
    }

    func testAPlaceReportsOnlyTheThingPutThere() {
        let items = open([("maya", "Priya, can you own the hiring loop?"), ("priya", "Yes, I'll own it."),
                          ("priya", "The job description draft is in the hiring folder, please comment.")])
        XCTAssertTrue(items.contains { $0.who == "priya" && $0.what.hasPrefix("own") }, "\(items)")
        let posted = open([("maya", "Priya, can you upload the job description?"), ("priya", "Sure, today."),
                           ("priya", "The job description is in the hiring folder.")])
        XCTAssertFalse(posted.contains { $0.what.contains("job description") }, "\(posted)")
    }

    func testAShortReportOfOtherWorkDoesNotCloseTheOwnersItem() {
        let items = open([("maya", "Priya, can you own the hiring loop?"), ("priya", "Yes, I'll own it."),
                          ("maya", "Priya, add the salary range to the posting."), ("priya", "Added it.")])
        XCTAssertTrue(items.contains { $0.what.hasPrefix("own") }, "\(items)")
        XCTAssertFalse(items.contains { $0.what.hasPrefix("add") }, "\(items)")
        let done = open([("maya", "Jonas, please write the live coding exercise by Wednesday."), ("jonas", "Done.")])
        XCTAssertTrue(done.isEmpty, "\(done)")
    }
}
