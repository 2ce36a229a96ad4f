import Foundation
import MessageAIProtocol
@testable import MessageAIServer
import XCTest

/// Profile pictures and group avatars between real clients over real sockets.
final class AvatarTests: FileTestCase {
    /// The avatar's pixels, read back with the server's own image reader.
    private func dimensions(_ jpeg: [UInt8]) throws -> (Int, Int, String) {
        let path = server.directory.path + "/probe-\(UUID().uuidString).jpg"
        FileManager.default.createFile(atPath: path, contents: Data(jpeg))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let h = try XCTUnwrap(ImageProcessor.header(path: path))
        return (h.width, h.height, h.format.mediaType)
    }

    private func blobExists(_ sha256: [UInt8]) -> Bool {
        FileManager.default.fileExists(atPath: server.directory.path + "/files/blobs/" + FileVault.hex(sha256))
    }

    func testProfilePictureIsASmallSquareSeenOnlyByThoseWhoMaySeeTheProfile() throws {
        XCTAssertTrue(ann.welcome?.capabilities.contains(.avatars) == false, "not announced by this client, not offered")
        let photo = TestPNG.make(width: 300, height: 200, exif: TestPNG.gpsExif())
        let upload = try ann.upload(photo, name: "me at the beach.png", type: "image/png")
        let usageBefore = try server.store.fileUsage(ownerID: ann.user!.userID)
        let mine: Profile = try ann.request(AvatarSet(fileID: upload.fileID))
        XCTAssertEqual(mine.avatarID.count, 16)
        XCTAssertNotEqual(mine.avatarID, upload.fileID, "the avatar is a file of its own, made by the server")
        let picture = try ann.download(mine.avatarID)
        let (w, h, type) = try dimensions(picture.bytes)
        XCTAssertEqual([w, h], [128, 128], "a square, cut from the middle of the 300 x 200 photo")
        XCTAssertEqual(type, "image/jpeg")
        XCTAssertNil(picture.bytes.firstRange(of: Array("GPS".utf8)), "no EXIF left")
        // The upload it was made from is released: only the small avatar counts now.
        XCTAssertEqual(try ann.requestError(FileGet(fileID: upload.fileID)).errorCode, .notFound)
        let usageAfter = try server.store.fileUsage(ownerID: ann.user!.userID)
        XCTAssertEqual(usageAfter.bytes, UInt64(picture.bytes.count))
        XCTAssertGreaterThan(usageBefore.bytes, usageAfter.bytes)
        let own: Profile = try ann.request(ProfileGet(username: "ann"))
        XCTAssertEqual(own.avatarID, mine.avatarID)

        // ben asked to be ann's contact: he may see her profile, so her picture.
        let _: Profile = try ben.request(ContactAdd(username: "ann"))
        let seen: Profile = try ben.request(ProfileGet(username: "ann"))
        XCTAssertEqual(seen.avatarID, mine.avatarID)
        XCTAssertEqual(try ben.download(seen.avatarID).bytes, picture.bytes)
        // cat has no link to ann and shares no conversation: the id gets what an unknown id gets.
        XCTAssertEqual(try cat.requestError(FileGet(fileID: mine.avatarID)).errorCode, .notFound)
        // A block hides the picture, in the profile and by id.
        let _: OK = try ann.request(Block(username: "ben"))
        XCTAssertTrue((try ben.request(ProfileGet(username: "ann")) as Profile).avatarID.isEmpty)
        XCTAssertEqual(try ben.requestError(FileGet(fileID: mine.avatarID)).errorCode, .notFound)

        // Replacing drops the old picture, from the database and the disk.
        let second = try ann.upload(TestPNG.make(width: 64, height: 256), name: "new.png", type: "image/png")
        let replaced: Profile = try ann.request(AvatarSet(fileID: second.fileID))
        XCTAssertNotEqual(replaced.avatarID, mine.avatarID)
        XCTAssertEqual(try ann.requestError(FileGet(fileID: mine.avatarID)).errorCode, .notFound)
        XCTAssertTrue(waitUntil { !self.blobExists(picture.sha256) }, "the old avatar's blob was deleted")
        // Off: none, and nothing of it stays counted.
        let off: Profile = try ann.request(AvatarSet(fileID: []))
        XCTAssertTrue(off.avatarID.isEmpty)
        XCTAssertEqual(try server.store.fileUsage(ownerID: ann.user!.userID).bytes, 0)
    }

    func testOnlyImagesAndOnlyOwnUploads() throws {
        let notes = try ann.upload(Array("just text, not a picture".utf8), name: "notes.txt", type: "text/plain")
        XCTAssertEqual(try ann.requestError(AvatarSet(fileID: notes.fileID)).errorCode, .notAnImage)
        // Someone else's upload cannot be borrowed.
        let bens = try ben.upload(TestPNG.make(width: 40, height: 40), name: "ben.png", type: "image/png")
        XCTAssertEqual(try ann.requestError(AvatarSet(fileID: bens.fileID)).errorCode, .uploadIncomplete)
        // The connection goes on.
        let me: Profile = try ann.request(ProfileGet(username: "ann"))
        XCTAssertTrue(me.avatarID.isEmpty)
    }

    func testAnyMemberSetsTheGroupAvatarAndOnlyMembersSeeIt() throws {
        let dan = try TestUsers.register(["dan"], port: server.port, capabilities: [.zlib, .files])[0]
        let group: Conversation = try ann.request(GroupCreate(name: "design ✏️", usernames: ["ben", "cat"]))
        _ = try ben.push(Conversation.self)
        _ = try cat.push(Conversation.self)
        let logo = try cat.upload(TestPNG.make(width: 500, height: 500), name: "logo.png", type: "image/png")
        let set: Conversation = try cat.request(AvatarSet(fileID: logo.fileID, conversationID: group.conversationID))
        XCTAssertEqual(set.avatarID.count, 16)
        let pushed = try ann.push(Conversation.self) { $0.conversationID == group.conversationID && !$0.avatarID.isEmpty }
        XCTAssertEqual(pushed.avatarID, set.avatarID)
        let listed: Conversations = try ben.request(ConversationsList())
        XCTAssertEqual(listed.conversations.first { $0.conversationID == group.conversationID }?.avatarID, set.avatarID)
        let bytes = try ben.download(set.avatarID).bytes
        XCTAssertEqual(Array(bytes.prefix(3)), [0xFF, 0xD8, 0xFF])
        // Not a member: nothing; a direct conversation has no avatar of its own.
        XCTAssertEqual(try dan.requestError(FileGet(fileID: set.avatarID)).errorCode, .notFound)
        XCTAssertEqual(try dan.requestError(AvatarSet(fileID: [], conversationID: group.conversationID)).errorCode, .notAMember)
        let dm = try ann.openDM(with: "ben")
        let pic = try ann.upload(TestPNG.make(width: 30, height: 30), name: "x.png", type: "image/png")
        XCTAssertEqual(try ann.requestError(AvatarSet(fileID: pic.fileID, conversationID: dm.conversationID)).errorCode, .invalidArgument)
        // A member who leaves loses it.
        let _: OK = try ben.request(GroupLeave(conversationID: group.conversationID))
        XCTAssertEqual(try ben.requestError(FileGet(fileID: set.avatarID)).errorCode, .notFound)
    }
}
