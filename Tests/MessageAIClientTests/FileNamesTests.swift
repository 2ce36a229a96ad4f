import Foundation
@testable import MessageAIClient
import MessageAIProtocol
import XCTest

/// Names of files sent by others, as /save writes and /files shows them.
final class FileNamesTests: XCTestCase {
    func testDirectoriesControlsAndOverridesAreRemoved() {
        XCTAssertEqual(FileNames.safe("../../etc/passwd"), "_.._etc_passwd")
        XCTAssertEqual(FileNames.safe("..\\..\\boot.ini"), "_.._boot.ini")
        XCTAssertEqual(FileNames.safe("\u{1B}[31mred\u{07}.txt"), "[31mred.txt")
        // A right-to-left override would show "invoice_cod.exe" as "invoice_exe.doc".
        XCTAssertEqual(FileNames.safe("invoice_\u{202E}cod.exe"), "invoice_cod.exe")
        XCTAssertEqual(FileNames.safe(".bashrc"), "bashrc")
        XCTAssertEqual(FileNames.safe("..."), "file")
        XCTAssertEqual(FileNames.safe("  \n "), "file")
        XCTAssertEqual(FileNames.safe("línea\nnueva.txt"), "líneanueva.txt")
    }

    func testPeoplesNamesSurvive() {
        for name in ["Résumé 2026.pdf", "会議メモ.txt", "👩🏽‍💻 notes.md", "תמונה.png", "a b  c.tar.gz"] {
            XCTAssertEqual(FileNames.safe(name), name)
        }
    }

    func testLongNamesKeepTheirExtension() {
        let long = String(repeating: "n", count: 300) + ".jpeg"
        let safe = FileNames.safe(long)
        XCTAssertEqual(safe.count, FileNames.maxLength)
        XCTAssertTrue(safe.hasSuffix(".jpeg"))
    }

    func testSaveNeverOverwrites() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("names-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        XCTAssertEqual(FileNames.unused("a.txt", in: dir), dir + "/a.txt")
        FileManager.default.createFile(atPath: dir + "/a.txt", contents: Data())
        XCTAssertEqual(FileNames.unused("a.txt", in: dir), dir + "/a (2).txt")
    }

    func testAttachmentsAreCachedWithTheirMessage() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("att-\(UUID().uuidString).sqlite").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let store = try LocalStore(path: path, userID: 1)
        let a = Attachment(fileID: Array(repeating: 0xAB, count: 16), name: "plan.pdf", size: 2048, mediaType: "application/pdf",
                           sha256: Array(repeating: 1, count: 32), caption: "the plan")
        let m = ChatMessage(conversationID: 5, seq: 3, clientID: Array(repeating: 7, count: 16), senderID: 2,
                            senderUsername: "bob", serverTime: 1, text: a.fallbackText, attachment: a)
        try store.insert([m])
        XCTAssertEqual(try store.attachments(in: 5).map(\.attachment), [a])
        XCTAssertEqual(try store.attachments(matching: "abab", conversationID: nil).count, 1)
        XCTAssertEqual(try store.attachments(matching: "#3", conversationID: 5).first?.sender, "bob")
        XCTAssertEqual(try store.attachments(matching: "ffff", conversationID: 5), [])
        XCTAssertEqual(try store.messages(in: 5, limit: 10).first?.text, "[file: plan.pdf (2.0 KiB)] the plan")
    }
}
