import XCTest
@testable import MessageAIClient

final class OutboxTests: XCTestCase {
    var dir: String!

    override func setUpWithError() throws {
        dir = NSTemporaryDirectory() + "outbox-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: dir) }

    private func entry(_ text: String, _ cid: UInt64 = 7) -> OutboxEntry {
        OutboxEntry(clientID: Outbox.newClientID(), conversationID: cid, text: text, created: 1_700_000_000_000)
    }

    func testEntriesSurviveReopenInOrder() throws {
        let path = dir + "/outbox.json"
        let box = try Outbox(path: path)
        let a = entry("first"), b = entry("second ünïcødé \"quoted\"\n"), c = entry("third", 9)
        try box.append(a); try box.append(b); try box.append(c)
        try box.remove(clientID: b.clientID)
        let reopened = try Outbox(path: path)
        XCTAssertEqual(reopened.entries, [a, c])
        XCTAssertNil(reopened.recoveryNotice)
        XCTAssertEqual(reopened.entries(in: 9), [c])
    }

    /// An acknowledged entry leaves memory at once and the file at the next flush; a crash in
    /// between leaves it on disk, to be resent (the server dedupes), never lost.
    func testDeferredRemovalReachesTheFileOnFlush() throws {
        let path = dir + "/outbox.json"
        let box = try Outbox(path: path)
        let a = entry("acked"), b = entry("pending")
        try box.append(a); try box.append(b)
        box.removeDeferred(clientID: a.clientID)
        XCTAssertEqual(box.entries, [b])
        XCTAssertEqual(try Outbox(path: path).entries, [a, b], "as after a crash before the flush")
        try box.flush()
        XCTAssertEqual(try Outbox(path: path).entries, [b])
    }

    func testWriteIsAtomicOwnerOnlyAndLeavesNoTempFiles() throws {
        let path = dir + "/outbox.json"
        let box = try Outbox(path: path)
        for i in 0..<20 { try box.append(entry("m\(i)")) }
        var st = stat()
        XCTAssertEqual(stat(path, &st), 0)
        XCTAssertEqual(st.st_mode & 0o777, 0o600)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir), ["outbox.json"])
        let data = try XCTUnwrap(FileManager.default.contents(atPath: path))
        XCTAssertEqual(try JSONDecoder().decode(Outbox.FileFormat.self, from: data).entries.count, 20)
    }

    func testClientIDsAre16RandomBytes() {
        let ids = (0..<1000).map { _ in Outbox.newClientID() }
        XCTAssertEqual(Set(ids).count, 1000)
        XCTAssertTrue(ids.allSatisfy { Hex.decode($0)?.count == 16 })
    }

    /// A file that does not parse is moved aside byte for byte, with a notice, and the
    /// outbox starts empty and usable.
    private func assertRecovered(from bytes: [UInt8], file: StaticString = #filePath, line: UInt = #line) throws {
        let path = dir + "/outbox.json"
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
        let box = try Outbox(path: path)
        XCTAssertTrue(box.entries.isEmpty, file: file, line: line)
        let notice = try XCTUnwrap(box.recoveryNotice, file: file, line: line)
        XCTAssertTrue(notice.contains("corrupt"), file: file, line: line)
        let aside = try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasPrefix("outbox.json.corrupt-") }
        XCTAssertEqual(aside.count, 1, file: file, line: line)
        XCTAssertTrue(notice.contains(aside[0]), file: file, line: line)
        XCTAssertEqual(FileManager.default.contents(atPath: dir + "/" + aside[0]), Data(bytes), file: file, line: line)
        try box.append(entry("after recovery"))
        XCTAssertEqual(try Outbox(path: path).entries.map(\.text), ["after recovery"], file: file, line: line)
        try FileManager.default.removeItem(atPath: dir + "/" + aside[0])
        try FileManager.default.removeItem(atPath: path)
    }

    func testTruncatedGarbageAndInvalidFilesAreMovedAside() throws {
        let path = dir + "/outbox.json"
        let box = try Outbox(path: path)
        try box.append(entry("hello"))
        let good = Array(try XCTUnwrap(FileManager.default.contents(atPath: path)))
        try FileManager.default.removeItem(atPath: path)
        try assertRecovered(from: Array(good.prefix(good.count / 2)))
        try assertRecovered(from: [])
        try assertRecovered(from: Array("not json at all".utf8))
        try assertRecovered(from: Array(#"{"version":1,"entries":[{"client_id":"zz","conversation_id":1,"text":"x","created":1}]}"#.utf8))
        try assertRecovered(from: [0xFF, 0xFE, 0x00, 0x7B])
    }

    /// Many random corruptions of a valid file: the outbox never throws, never loses the
    /// bytes, and either reads valid entries or starts empty with a notice.
    func testRandomCorruptionsNeverCrashOrLoseTheFile() throws {
        var rng = SystemRandomNumberGenerator()
        let path = dir + "/outbox.json"
        let box = try Outbox(path: path)
        for i in 0..<5 { try box.append(entry("message \(i)")) }
        let good = Array(try XCTUnwrap(FileManager.default.contents(atPath: path)))
        var recovered = 0
        for _ in 0..<300 {
            var bytes = good
            switch Int.random(in: 0..<3, using: &rng) {
            case 0: bytes = Array(bytes.prefix(Int.random(in: 0..<bytes.count, using: &rng)))
            case 1: for _ in 0..<Int.random(in: 1...4, using: &rng) { bytes[Int.random(in: 0..<bytes.count, using: &rng)] = UInt8.random(in: 0...255, using: &rng) }
            default: bytes.insert(contentsOf: (0..<8).map { _ in UInt8.random(in: 0...255, using: &rng) }, at: Int.random(in: 0..<bytes.count, using: &rng))
            }
            XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
            let b = try Outbox(path: path)
            if let notice = b.recoveryNotice {
                recovered += 1
                XCTAssertTrue(b.entries.isEmpty)
                let aside = try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasPrefix("outbox.json.corrupt-") }
                XCTAssertEqual(aside.count, 1)
                XCTAssertTrue(notice.contains(aside[0]))
                XCTAssertEqual(FileManager.default.contents(atPath: dir + "/" + aside[0]), Data(bytes))
                try FileManager.default.removeItem(atPath: dir + "/" + aside[0])
            } else {
                XCTAssertTrue(b.entries.allSatisfy { $0.isValid })
                XCTAssertEqual(FileManager.default.contents(atPath: path), Data(bytes), "a readable file is left as it is")
            }
        }
        XCTAssertGreaterThan(recovered, 100)
    }
}
