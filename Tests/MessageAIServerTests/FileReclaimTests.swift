import Foundation
import MessageAIProtocol
@testable import MessageAIServer
import XCTest

/// Deleting a message gives its file's bytes back: the owner's quota, and the disk once no
/// one else's upload holds the same content.
final class FileReclaimTests: FileTestCase {
    private func blobPath(_ sha256: [UInt8]) -> String { server.directory.path + "/files/blobs/" + FileVault.hex(sha256) }

    private func send(_ c: TestClient, _ cid: UInt64, _ fileID: [UInt8], _ text: String) throws -> SendAck {
        try c.request(Send(conversationID: cid, clientID: TestClient.newClientID(), text: text, attachment: Attachment(fileID: fileID)))
    }

    func testDeletingTheMessageReturnsTheQuotaAndTheBlobButNotAnotherUsersCopy() throws {
        // The quota is 6 MiB: two 3 MiB files fill it.
        let a = Self.randomBytes(3 << 20, seed: 21), b = Self.randomBytes(3 << 20, seed: 22), c = Self.randomBytes(1 << 20, seed: 23)
        let dm = try ann.openDM(with: "ben")
        let upA = try ann.upload(a, name: "a.bin"), upB = try ann.upload(b, name: "b.bin")
        let sentA = try send(ann, dm.conversationID, upA.fileID, "first"), sentB = try send(ann, dm.conversationID, upB.fileID, "second")
        XCTAssertEqual(try ann.requestError(FileAnnounce(name: "c.bin", size: UInt64(c.count), mediaType: "",
                                                         sha256: Self.sha256(c))).errorCode, .quotaExceeded)
        // ben has uploaded the same content as a.bin (deduplicated: one blob for both).
        let bensA = try ben.upload(a, name: "mine too.bin")
        XCTAssertTrue(bensA.complete)

        let deleter = try TestUsers.secondSession(of: ann, port: server.port, capabilities: [.zlib, .files, .messageChanges])
        let _: SendAck = try deleter.request(ChangeRequest(conversationID: dm.conversationID, clientID: TestClient.newClientID(),
                                                           targetSeq: sentA.seq, action: .delete))
        // The quota came back: c.bin fits now.
        XCTAssertTrue(try ann.upload(c, name: "c.bin").complete)
        // a.bin's blob stays for ben, who still gets his copy; ann's id for it is gone for all.
        XCTAssertTrue(FileManager.default.fileExists(atPath: blobPath(Self.sha256(a))))
        XCTAssertEqual(try ben.download(bensA.fileID).bytes, a)
        XCTAssertEqual(try ben.requestError(FileGet(fileID: upA.fileID)).errorCode, .notFound)
        XCTAssertEqual(try ann.requestError(FileGet(fileID: upA.fileID)).errorCode, .notFound)

        // b.bin is held by no one else: its blob leaves the disk.
        let _: SendAck = try deleter.request(ChangeRequest(conversationID: dm.conversationID, clientID: TestClient.newClientID(),
                                                           targetSeq: sentB.seq, action: .delete))
        XCTAssertTrue(waitUntil { !FileManager.default.fileExists(atPath: self.blobPath(Self.sha256(b))) }, "b.bin's blob was deleted")
        XCTAssertEqual(try ben.requestError(FileGet(fileID: upB.fileID)).errorCode, .notFound)
        // And an upload of the same bytes afterwards is stored and served again, whole.
        let again = try ben.upload(b, name: "b again.bin")
        XCTAssertTrue(again.complete)
        XCTAssertEqual(try ben.download(again.fileID).bytes, b)
    }

    func testAFileSentTwiceStaysUntilBothMessagesAreDeleted() throws {
        let bytes = Self.randomBytes(200_000, seed: 24)
        let dm = try ann.openDM(with: "ben")
        let up = try ann.upload(bytes, name: "twice.bin")
        let first = try send(ann, dm.conversationID, up.fileID, "one"), second = try send(ann, dm.conversationID, up.fileID, "two")
        let deleter = try TestUsers.secondSession(of: ann, port: server.port, capabilities: [.zlib, .files, .messageChanges])
        let _: SendAck = try deleter.request(ChangeRequest(conversationID: dm.conversationID, clientID: TestClient.newClientID(),
                                                           targetSeq: first.seq, action: .delete))
        XCTAssertEqual(try ben.download(up.fileID).bytes, bytes, "the second message still carries it")
        let _: SendAck = try deleter.request(ChangeRequest(conversationID: dm.conversationID, clientID: TestClient.newClientID(),
                                                           targetSeq: second.seq, action: .delete))
        XCTAssertEqual(try ben.requestError(FileGet(fileID: up.fileID)).errorCode, .notFound)
        XCTAssertTrue(waitUntil { !FileManager.default.fileExists(atPath: self.blobPath(Self.sha256(bytes))) })
    }

    func testTheSweepRemovesBlobsNoRowServes() throws {
        // A crash between deleting a row and its blob leaves an orphan: the sweep that runs at
        // start and every hour removes it, and nothing that is served.
        let orphan = Self.randomBytes(1000, seed: 25)
        let path = blobPath(Self.sha256(orphan))
        FileManager.default.createFile(atPath: path, contents: Data(orphan))
        let keptBytes = Self.randomBytes(1000, seed: 26)
        let kept = try ann.upload(keptBytes, name: "kept.bin")
        server.server.queue.async { self.server.server.sweepBlobs() }
        XCTAssertTrue(waitUntil { !FileManager.default.fileExists(atPath: path) }, "the orphan blob was swept")
        XCTAssertEqual(try ann.download(kept.fileID).bytes, keptBytes)
    }
}
