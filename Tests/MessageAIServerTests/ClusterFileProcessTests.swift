import Foundation
import MessageAIProtocol
@testable import MessageAIServer
import XCTest

/// Files with two `messageai-server` processes on one PostgreSQL database and one files
/// directory (issue 26 stage C): an upload cut short by SIGKILL of its node goes on through the
/// other from the right offset, and any node serves the file.
final class ClusterFileProcessTests: ClusterTestCase {
    func testAnUploadCutByKillResumesThroughTheOtherNodeAndEveryNodeServesIt() throws {
        let cluster = try XCTUnwrap(Self.cluster)
        let db = "files_\(UUID().uuidString.prefix(8).lowercased())"
        try cluster.createDatabase(db)
        let shared = try ServerTestDirectory()
        let dirs = [try ServerTestDirectory(), try ServerTestDirectory()]
        let arguments = ["--database", cluster.url(database: db), "--rate-limit", "1000000",
                         "--files-directory", shared.path + "/files"]
        let first = try ChildServer(dataDir: dirs[0].path, arguments: arguments)
        defer { first.kill9() }
        let second = try ChildServer(dataDir: dirs[1].path, arguments: arguments)
        defer { _ = second.terminate() }
        let caps: Capabilities = [.zlib, .files]
        let ann = try TestUsers.register(["ann"], port: first.port, capabilities: caps)[0]
        let bytes = FileTestCase.randomBytes(3 << 20 | 123, seed: 26)

        let cut = try ann.upload(bytes, name: "report.bin", stopAfter: 6)
        XCTAssertFalse(cut.complete)
        XCTAssertEqual(cut.offset, 6 * cut.chunkSize)
        first.kill9()

        // The client comes back through node 2: it is told where node 1 stopped, and goes on.
        let annAgain = try TestUsers.secondSession(of: ann, port: second.port, capabilities: caps)
        let status: FileUpload = try annAgain.request(FileStatus(fileID: cut.fileID))
        XCTAssertEqual([status.offset], [cut.offset], "the offset node 1 reached")
        XCTAssertFalse(status.complete)
        // A chunk from a wrong offset (the one already written) is not written twice.
        let stale: FileUpload = try annAgain.request(FileChunk(fileID: cut.fileID, offset: cut.offset - cut.chunkSize,
                                                               data: Array(bytes[0..<Int(cut.chunkSize)])))
        XCTAssertEqual(stale.offset, cut.offset)
        let done = try annAgain.upload(bytes, name: "report.bin")
        XCTAssertTrue(done.complete)
        XCTAssertEqual(done.fileID, cut.fileID, "the same upload, resumed")

        // Node 2 and node 1's replacement both serve it, byte for byte.
        let replacement = try ChildServer(dataDir: dirs[0].path, arguments: arguments)
        defer { _ = replacement.terminate() }
        let onReplacement = try TestUsers.secondSession(of: ann, port: replacement.port, capabilities: caps)
        for (client, node) in [(annAgain, "node 2"), (onReplacement, "node 1's replacement")] {
            let got = try client.download(cut.fileID)
            XCTAssertEqual(got.bytes.count, bytes.count, node)
            XCTAssertTrue(got.bytes == bytes, "\(node) serves the very bytes uploaded")
            XCTAssertEqual(got.sha256, FileTestCase.sha256(bytes), node)
        }
    }
}

/// Deleting a blob in a directory other nodes share: by the rows and by its age, since another
/// node's upload about to be recorded with it is not in this process's memory.
final class SharedBlobTests: XCTestCase {
    func testAYoungBlobStaysAnOldOneGoesAndAClaimAfterTheDecisionMakesItAgain() throws {
        let dir = try ServerTestDirectory()
        let vault = try FileVault(root: dir.path + "/files", shared: true)
        let bytes = Array("a blob another node just recorded".utf8)
        let sha = try vault.storeBlob(bytes, tag: "t")
        vault.inFlight.remove(sha)   // recorded: from now on only the rows and the age decide
        XCTAssertFalse(vault.deleteBlob(sha), "made within the grace: another node may be recording it")
        XCTAssertEqual(try vault.read(sha, offset: 0, length: 100), bytes, "put back under its name")

        var old = [timespec(tv_sec: time(nil) - Int(FileVault.sharedGrace) - 60, tv_nsec: 0),
                   timespec(tv_sec: time(nil) - Int(FileVault.sharedGrace) - 60, tv_nsec: 0)]
        XCTAssertEqual(utimensat(AT_FDCWD, vault.blobPath(sha), &old, 0), 0)
        XCTAssertTrue(vault.deleteBlob(sha), "an old blob no row serves goes")
        XCTAssertEqual(access(vault.blobPath(sha), F_OK), -1)

        // A node that then records the same content claims it: the blob is made again from its upload.
        let upload = dir.path + "/upload"
        FileManager.default.createFile(atPath: upload, contents: Data(bytes))
        try vault.claimBlob(sha, from: upload)
        XCTAssertEqual(try vault.read(sha, offset: 0, length: 100), bytes)
        XCTAssertFalse(vault.deleteBlob(sha), "claimed just now")
    }
}
