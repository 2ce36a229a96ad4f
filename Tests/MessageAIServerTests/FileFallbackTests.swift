import Foundation
import MessageAIProtocol
@testable import MessageAIServer
import XCTest

/// Issue 23: a client that did not announce `files` never sees an attachment field, in a
/// MESSAGE push, a HISTORY page, a SYNC batch, a search result or a conversation preview; it
/// reads the text form, in which the file name cannot forge the rest.
final class FileFallbackTests: FileTestCase {
    func testClientWithoutFilesGetsOnlyTheEscapedTextForm() throws {
        let old = try TestUsers.register(["dan"], port: server.port)[0] // zlib only
        let done = try ann.upload([1, 2, 3], name: "x (9 GiB)] forged\nline", type: "text/plain")
        let dm = try ann.openDM(with: "dan")
        let _: SendAck = try ann.request(Send(conversationID: dm.conversationID, clientID: TestClient.newClientID(),
                                              text: "real caption", attachment: Attachment(fileID: done.fileID)))
        let expected = #"[file: x \(9 GiB\)\] forged\u{A}line (3 B)] real caption"#

        let pushed = try old.push(ChatMessage.self)
        XCTAssertNil(pushed.attachment, "no tag 24 in the push")
        XCTAssertEqual(pushed.text, expected)
        let page: HistoryPage = try old.request(HistoryRequest(conversationID: dm.conversationID))
        XCTAssertEqual(page.messages.map(\.text), [expected])
        XCTAssertEqual(page.messages.map { $0.attachment == nil }, [true], "no tag 24 in HISTORY")
        let synced = try old.sync().batches
        XCTAssertTrue(synced.flatMap(\.messages).allSatisfy { $0.attachment == nil }, "no tag 24 in SYNC")
        XCTAssertTrue(synced.flatMap(\.conversations).allSatisfy { $0.lastMessage?.attachment == nil }, "nor in a preview")
        var found: [ChatMessage] = []
        XCTAssertTrue(try waitUntil(timeout: 10) {
            found = try old.request(SearchRequest(query: "caption"), expecting: SearchResults.self).messages
            return !found.isEmpty
        }, "indexed after its commit")
        XCTAssertEqual(found.map { $0.attachment == nil }, [true], "no tag 24 in SEARCH_RESULT")

        // A client with `files` still gets the record, and the same text.
        let page2: HistoryPage = try ann.request(HistoryRequest(conversationID: dm.conversationID))
        XCTAssertEqual(page2.messages.first?.attachment?.name, "x (9 GiB)] forged\nline")
        XCTAssertEqual(page2.messages.first?.text, expected)
    }

    /// The limits the spec now states for FILE_ANNOUNCE: names 1 to 1,000 characters without
    /// NUL, media types 255 bytes.
    func testFileNameAndMediaTypeLimits() throws {
        let sha = Self.sha256([1])
        let long = try ann.requestError(FileAnnounce(name: String(repeating: "n", count: 1_001), size: 1, mediaType: "", sha256: sha))
        XCTAssertEqual(long.errorCode, .tooLong)
        XCTAssertEqual(long.limit, 1_000)
        XCTAssertEqual(long.field, "name")
        let _: FileUpload = try ann.request(FileAnnounce(name: String(repeating: "n", count: 1_000), size: 1, mediaType: "", sha256: sha))
        let type = try ann.requestError(FileAnnounce(name: "a", size: 1, mediaType: String(repeating: "t", count: 256), sha256: sha))
        XCTAssertEqual(type.errorCode, .tooLong)
        XCTAssertEqual(type.limit, 255)
        XCTAssertEqual(try ann.requestError(FileAnnounce(name: "a\0b", size: 1, mediaType: "", sha256: sha)).errorCode, .invalidArgument)
    }
}
