import Foundation
import MessageAIPostgres
import MessageAIStore
import MessageAIVocabulary
import XCTest

/// File metadata and the quota as a conditional update: two nodes accepting uploads from one
/// user at once never let the user's files pass the quota.
final class FilesTests: PostgresTestCase {
    private func newFile(owner: UInt64, size: UInt64, name: String = "photo 日本.jpg") -> FileRecord {
        FileRecord(id: newClientID(), ownerID: owner, name: name, mediaType: "image/jpeg", uploadSize: size,
                           uploadSHA256: Array(newClientID() + newClientID()), createdAt: now())
    }

    func testQuotaHoldsWhenTwoNodesAcceptUploadsAtOnce() async throws {
        let database = try newDatabase()
        let first = try await openStore(database: database)
        let second = try await openStore(database: database)
        let (_, users) = try await makeGroup(first, users: 1)
        let owner = users[0]
        let outcomes = try await withThrowingTaskGroup(of: PostgresStore.FileCreation.self) { tasks in
            for i in 0..<24 {
                let store = i.isMultiple(of: 2) ? first : second
                let file = newFile(owner: owner, size: 100)
                tasks.addTask { try await store.createFile(file, quota: 1_000, maximumPartials: 100) }
            }
            var all: [PostgresStore.FileCreation] = []
            for try await outcome in tasks { all.append(outcome) }
            return all
        }
        XCTAssertEqual(outcomes.filter { $0 == .created }.count, 10, "exactly what fits: \(outcomes)")
        XCTAssertEqual(outcomes.filter { if case .quotaExceeded = $0 { true } else { false } }.count, 14)
        let usage = try await second.fileUsage(ownerID: owner)
        XCTAssertTrue(usage == (1_000, 10), "\(usage)")
    }

    func testUnfinishedUploadsCompletionAndRelease() async throws {
        let store = try await openStore()
        let (group, users) = try await makeGroup(store, users: 2)
        let owner = users[0]
        let a = newFile(owner: owner, size: 500), b = newFile(owner: owner, size: 300), c = newFile(owner: owner, size: 10)
        let createdA = try await store.createFile(a, quota: 1_000, maximumPartials: 2)
        let createdB = try await store.createFile(b, quota: 1_000, maximumPartials: 2)
        let third = try await store.createFile(c, quota: 1_000, maximumPartials: 2)
        XCTAssertEqual([createdA, createdB, third], [.created, .created, .tooManyUploads])
        // An image loses its metadata: stored smaller than announced, and charged as stored.
        try await store.completeFile(id: a.id, StoredContent(size: 420, sha256: Array(repeating: 7, count: 32), mediaType: "image/jpeg",
                                                             width: 640, height: 480))
        let afterCompletion = try await store.fileUsage(ownerID: owner)
        XCTAssertTrue(afterCompletion == (720, 1), "\(afterCompletion)")
        await assertThrows(.notFound) {
            try await store.completeFile(id: a.id, StoredContent(size: 1, sha256: [1], mediaType: "x"))
        }
        let stored = try await store.file(id: a.id)
        XCTAssertEqual(stored?.complete, true)
        XCTAssertEqual(stored?.name, "photo 日本.jpg")
        XCTAssertEqual(stored?.width, 640)

        // Attached to a message: readable by members, not by others, kept while referred to.
        let sent = try await store.append(.init(conversationID: group, senderID: owner, clientID: newClientID(), text: "pic",
                                                serverTime: now(), attachment: AttachmentRecord(fileID: a.id, caption: "the view")))
        // Read back as SQLite gives it: the file's fields, the sender's caption, no thumbnail.
        let withFile = try await store.message(conversationID: group, seq: sent.seq)
        XCTAssertEqual(withFile?.attachment, AttachmentRecord(fileID: a.id, name: "photo 日本.jpg", size: 420, mediaType: "image/jpeg",
                                                               sha256: Array(repeating: 7, count: 32), width: 640, height: 480,
                                                               caption: "the view"))
        let memberReads = try await store.canRead(fileID: a.id, userID: users[1])
        XCTAssertTrue(memberReads)
        let (_, strangers) = try await makeGroup(store, users: 1)
        let strangerReads = try await store.canRead(fileID: a.id, userID: strangers[0])
        XCTAssertFalse(strangerReads)
        let released = try await store.releaseFile(id: a.id)
        XCTAssertFalse(released, "a message still refers to it")
        // Deleting the message releases the file and gives its bytes back.
        _ = try await store.apply(.init(conversationID: group, actorID: owner, clientID: newClientID(), targetSeq: sent.seq,
                                        action: .delete, serverTime: now()))
        let gone = try await store.file(id: a.id)
        XCTAssertNil(gone)
        try await store.deleteFile(id: b.id)
        let usage = try await store.fileUsage(ownerID: owner)
        XCTAssertTrue(usage == (0, 0), "\(usage)")
    }

    /// Resuming an upload, deduplicating content, expiring partials, and whether a blob is
    /// still served: what the server's upload and cleanup paths ask.
    func testLookupsForResumeDedupeExpiryAndCollection() async throws {
        let store = try await openStore()
        let (_, users) = try await makeGroup(store, users: 2)
        let (ann, ben) = (users[0], users[1])
        let upload = newFile(owner: ann, size: 500)
        _ = try await store.createFile(upload, quota: 10_000, maximumPartials: 5)
        let resumed = try await store.file(ownerID: ann, uploadSHA256: upload.uploadSHA256, name: upload.name)
        XCTAssertEqual(resumed?.id, upload.id, "the owner's announce again finds the partial upload")
        let otherName = try await store.file(ownerID: ann, uploadSHA256: upload.uploadSHA256, name: "other.jpg")
        let otherOwner = try await store.file(ownerID: ben, uploadSHA256: upload.uploadSHA256, name: upload.name)
        XCTAssertNil(otherName)
        XCTAssertNil(otherOwner)
        let partials = try await store.partialFiles().map(\.id)
        XCTAssertEqual(partials, [upload.id])
        let notYet = try await store.completeFile(uploadSHA256: upload.uploadSHA256, uploadSize: 500)
        XCTAssertNil(notYet, "a partial upload is no copy to share")
        let content = Array(repeating: UInt8(9), count: 32)
        let unserved = try await store.isServed(sha256: content)
        XCTAssertFalse(unserved)
        try await store.completeFile(id: upload.id, StoredContent(size: 480, sha256: content, mediaType: "image/jpeg"))
        let dedupe = try await store.completeFile(uploadSHA256: upload.uploadSHA256, uploadSize: 500)
        XCTAssertEqual(dedupe?.id, upload.id, "the same announced content, complete: shared")
        let wrongSize = try await store.completeFile(uploadSHA256: upload.uploadSHA256, uploadSize: 501)
        XCTAssertNil(wrongSize)
        let served = try await store.isServed(sha256: content), noPartials = try await store.partialFiles()
        XCTAssertTrue(served)
        XCTAssertEqual(noPartials, [])
        try await store.deleteFile(id: upload.id)
        let collected = try await store.isServed(sha256: content)
        XCTAssertFalse(collected, "no row serves it: the blob may go")
    }
}
