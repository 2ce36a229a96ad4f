import Foundation
import MessageAIProtocol
@testable import MessageAIServer
import XCTest

/// Files between real clients over real sockets: upload, resume, verify, access, limits, images.
final class FileTests: FileTestCase {
    func testUploadSendDownloadAndOnlyMembersMayRead() throws {
        let welcome = ann.welcome
        XCTAssertEqual(welcome?.maxFileSize, 4 << 20)
        XCTAssertEqual(welcome?.fileChunkSize, 64 * 1024)
        let bytes = Self.randomBytes(300_000, seed: 1)
        let done = try ann.upload(bytes, name: "logs 2026-11-23.tar.gz", type: "application/gzip")
        XCTAssertTrue(done.complete)
        XCTAssertEqual(done.offset, 300_000)

        let dm = try ann.openDM(with: "ben")
        let ack: SendAck = try ann.request(Send(conversationID: dm.conversationID, clientID: TestClient.newClientID(),
                                                text: "the logs 📦", attachment: Attachment(fileID: done.fileID)))
        let pushed = try ben.push(ChatMessage.self)
        XCTAssertEqual(pushed.seq, ack.seq)
        XCTAssertEqual(pushed.text, "[file: logs 2026-11-23.tar.gz (293.0 KiB)] the logs 📦")
        let a = try XCTUnwrap(pushed.attachment)
        XCTAssertEqual([a.name, a.mediaType, a.caption], ["logs 2026-11-23.tar.gz", "application/gzip", "the logs 📦"])
        XCTAssertEqual(a.size, 300_000)
        XCTAssertEqual(a.sha256, Self.sha256(bytes))

        let got = try ben.download(done.fileID)
        XCTAssertEqual(got.bytes, bytes)
        XCTAssertEqual(got.sha256, Self.sha256(bytes))
        // Resumable: from any offset.
        let tail: FileData = try ben.request(FileGet(fileID: done.fileID, offset: 299_990))
        XCTAssertEqual(tail.data, Array(bytes[299_990...]))

        // cat is in no conversation holding it: the id alone gets nothing, like an unknown id.
        XCTAssertEqual(try cat.requestError(FileGet(fileID: done.fileID)).errorCode, .notFound)
        XCTAssertEqual(try cat.requestError(FileGet(fileID: FileServer.randomID())).errorCode, .notFound)
        // cat cannot send ann's upload either.
        let catDM = try cat.openDM(with: "ben")
        XCTAssertEqual(try cat.requestError(Send(conversationID: catDM.conversationID, clientID: TestClient.newClientID(),
                                                 text: "", attachment: Attachment(fileID: done.fileID))).errorCode, .uploadIncomplete)

        // History and search carry the attachment like any message.
        let page: HistoryPage = try ben.request(HistoryRequest(conversationID: dm.conversationID))
        XCTAssertEqual(page.messages.last?.attachment?.name, "logs 2026-11-23.tar.gz")
        let found: SearchResults = try ben.request(SearchRequest(query: "tar"))
        XCTAssertEqual(found.messages.map(\.seq), [ack.seq])
    }

    func testResumeAfterReconnectAndDedupe() throws {
        let bytes = Self.randomBytes(500_000, seed: 2)
        let first = try ann.upload(bytes, name: "video.mp4", type: "video/mp4", stopAfter: 3)
        XCTAssertFalse(first.complete)
        XCTAssertEqual(first.offset, 3 * 64 * 1024)
        ann.close()

        let again = try TestUsers.secondSession(of: ann, port: server.port, capabilities: [.zlib, .files])
        let status: FileUpload = try again.request(FileStatus(fileID: first.fileID))
        XCTAssertEqual(status.offset, 3 * 64 * 1024, "the server kept what it had")
        // A chunk at a wrong offset is not written; the answer says where to go on from.
        let wrong: FileUpload = try again.request(FileChunk(fileID: first.fileID, offset: 0, data: [1, 2, 3]))
        XCTAssertEqual(wrong.offset, 3 * 64 * 1024)
        let done = try again.upload(bytes, name: "video.mp4", type: "video/mp4")
        XCTAssertEqual(done.fileID, first.fileID, "announcing again resumes the same upload")
        XCTAssertTrue(done.complete)

        // ben announces the same content: complete at once, no byte sent, his own id.
        let bens: FileUpload = try ben.request(FileAnnounce(name: "same.mp4", size: 500_000, mediaType: "video/mp4",
                                                            sha256: Self.sha256(bytes)))
        XCTAssertTrue(bens.complete)
        XCTAssertNotEqual(bens.fileID, done.fileID)
        XCTAssertEqual(try ben.download(bens.fileID).bytes, bytes)
    }

    func testHashMismatchKeepsNothing() throws {
        let bytes = Self.randomBytes(100_000, seed: 3)
        var wrongHash = Self.sha256(bytes)
        wrongHash[0] ^= 1
        let start: FileUpload = try ann.request(FileAnnounce(name: "a.bin", size: 100_000, mediaType: "", sha256: wrongHash))
        let _: FileUpload = try ann.request(FileChunk(fileID: start.fileID, offset: 0, data: Array(bytes[0..<65_536])))
        let error = try ann.requestError(FileChunk(fileID: start.fileID, offset: 65_536, data: Array(bytes[65_536...])))
        XCTAssertEqual(error.errorCode, .hashMismatch)
        XCTAssertEqual(try ann.requestError(FileStatus(fileID: start.fileID)).errorCode, .notFound)
        let partials = try server.server.queue.sync { try server.store.partialFiles() }
        XCTAssertEqual(partials, [])
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: server.directory.path + "/files/partial"), [])
    }

    func testLimitsAreNamed() throws {
        let tooBig = try ann.requestError(FileAnnounce(name: "big.iso", size: (4 << 20) + 1, mediaType: "", sha256: Self.sha256([1])))
        XCTAssertEqual(tooBig.errorCode, .fileTooLarge)
        XCTAssertEqual(tooBig.limit, 4 << 20)
        XCTAssertTrue(tooBig.message.contains("4.0 MiB"), tooBig.message)
        // Two unfinished uploads allowed, the third refused.
        for i in 0..<2 {
            let _: FileUpload = try ann.request(FileAnnounce(name: "p\(i)", size: 10, mediaType: "", sha256: Self.sha256([UInt8(i)])))
        }
        let third = try ann.requestError(FileAnnounce(name: "p2", size: 10, mediaType: "", sha256: Self.sha256([9])))
        XCTAssertEqual(third.errorCode, .tooManyUploads)
        XCTAssertEqual(third.limit, 2)
        // Quota (6 MiB): two 3 MiB files fit, a third byte does not.
        let three = Self.randomBytes(3 << 20, seed: 4)
        try ben.upload(three, name: "one")
        try ben.upload(Array(three.reversed()), name: "two")
        let over = try ben.requestError(FileAnnounce(name: "three", size: 1, mediaType: "", sha256: Self.sha256([7])))
        XCTAssertEqual(over.errorCode, .quotaExceeded)
        XCTAssertEqual(over.limit, 6 << 20)
    }

    func testImageLosesGPSKeepsOrientationAndGetsAThumbnail() throws {
        // 640 x 400 with orientation 6 (rotate 90° clockwise to view): served 400 x 640.
        let png = TestPNG.make(width: 640, height: 400, exif: TestPNG.gpsExif(orientation: 6))
        XCTAssertTrue(png.contains(Array("eXIf".utf8)))
        let done = try ann.upload(png, name: "IMG_0001.png", type: "image/png")
        XCTAssertTrue(done.complete)
        let dm = try ann.openDM(with: "ben")
        let _: SendAck = try ann.request(Send(conversationID: dm.conversationID, clientID: TestClient.newClientID(),
                                              text: "", attachment: Attachment(fileID: done.fileID)))
        let a = try XCTUnwrap(try ben.push(ChatMessage.self).attachment)
        XCTAssertEqual(a.mediaType, "image/png")
        XCTAssertEqual([a.width, a.height], [400, 640], "the orientation was applied to the pixels")
        XCTAssertEqual(Array(a.thumbnail.prefix(3)), [0xFF, 0xD8, 0xFF], "a JPEG thumbnail rides on the push")
        let served = try ben.download(done.fileID)
        XCTAssertEqual(Self.sha256(served.bytes), a.sha256)
        XCTAssertEqual(served.bytes.count, Int(a.size))
        XCTAssertFalse(served.bytes.contains(Array("eXIf".utf8)), "no EXIF left")
        XCTAssertFalse(served.bytes.contains([0x88, 0x25]), "no GPS pointer left")
        XCTAssertFalse(served.bytes.contains(Array("MM\0*".utf8)))
        let thumb = try ben.download(done.fileID, thumbnail: true)
        XCTAssertEqual(thumb.bytes, a.thumbnail)
        XCTAssertFalse(thumb.bytes.contains(Array("Exif".utf8)))
    }

    func testDecompressionBombRefusedFromItsHeader() throws {
        let header = TestPNG.bombHeader(width: 30_000, height: 30_000)
        // The announced size is what a real 30,000 x 30,000 PNG of one colour takes (~870 KB);
        // the first chunk holds the header, and the server refuses there.
        let start: FileUpload = try ann.request(FileAnnounce(name: "bomb.png", size: 900_000, mediaType: "image/png",
                                                             sha256: Self.sha256(header)))
        let began = Date()
        let error = try ann.requestError(FileChunk(fileID: start.fileID, offset: 0, data: header))
        XCTAssertEqual(error.errorCode, .imageTooLarge)
        XCTAssertEqual(error.limit, 10_000_000)
        print("bomb refused after \(Int(Date().timeIntervalSince(began) * 1000)) ms")
        XCTAssertEqual(try ann.requestError(FileStatus(fileID: start.fileID)).errorCode, .notFound)
        // The server keeps serving.
        let _: Pong = try ann.request(Ping())
    }

    func testOldClientSeesTheFallbackText() throws {
        let old = try TestUsers.register(["dan"], port: server.port)[0] // no files capability
        XCTAssertEqual(old.welcome?.maxFileSize, 0, "no file limits for a client without the capability")
        XCTAssertFalse(old.welcome?.capabilities.contains(.files) ?? true)
        XCTAssertEqual(try old.requestError(FileAnnounce(name: "x", size: 1, mediaType: "", sha256: Self.sha256([1]))).errorCode,
                       .unknownFrameType)
        let done = try ann.upload([1, 2, 3], name: "tiny.txt", type: "text/plain")
        let dm = try ann.openDM(with: "dan")
        let _: SendAck = try ann.request(Send(conversationID: dm.conversationID, clientID: TestClient.newClientID(),
                                              text: "", attachment: Attachment(fileID: done.fileID)))
        XCTAssertEqual(try old.push(ChatMessage.self).text, "[file: tiny.txt (3 B)]")
    }
}

enum FileServer {
    static func randomID() -> [UInt8] { ChatServer.newFileID() }
}

/// Partial uploads left alone past the expiry are deleted, row and bytes; fresh ones stay.
final class FileExpiryTests: FileTestCase {
    func testStalePartialUploadsAreDeleted() throws {
        let stale = try ann.upload(Self.randomBytes(200_000, seed: 8), name: "stale.bin", stopAfter: 1)
        let fresh = try ann.upload(Self.randomBytes(200_000, seed: 9), name: "fresh.bin", stopAfter: 1)
        let vault = try XCTUnwrap(server.server.fileVault)
        // Two days old, as far as the file system can tell.
        let old = Date(timeIntervalSinceNow: -2 * 24 * 3600)
        try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: vault.partialPath(stale.fileID))
        XCTAssertTrue(FileManager.default.createFile(atPath: vault.partialDirectory + "/orphan", contents: Data([1])))
        server.server.queue.sync { server.server.onHub { [server] in await server.server.expirePartialUploads() } }  // SQLite: ends inline
        XCTAssertEqual(try ann.requestError(FileStatus(fileID: stale.fileID)).errorCode, .notFound)
        XCTAssertFalse(FileManager.default.fileExists(atPath: vault.partialPath(stale.fileID)))
        XCTAssertFalse(FileManager.default.fileExists(atPath: vault.partialDirectory + "/orphan"))
        let status: FileUpload = try ann.request(FileStatus(fileID: fresh.fileID))
        XCTAssertEqual(status.offset, 64 * 1024, "a recent partial keeps its bytes")
    }
}
