import Foundation
import MessageAIProtocol
@testable import MessageAIServer
import XCTest

/// A new profile picture reaches those who show it without asking (issue 24): PROFILE pushed
/// to the user's other connections and to accepted contacts, never across a block, never to a
/// non-contact, never to a connection that did not announce `avatars`. Real sockets.
final class AvatarPushTests: FileTestCase {
    private let withAvatars: Capabilities = [.zlib, .files, .avatars]

    /// True when `client` got no PROFILE push so far: its own round trip is answered after
    /// every frame the server queued for it before, so a push, if any, is in the inbox by then.
    private func noProfilePush(_ client: TestClient) throws -> Bool {
        let _: Profile = try client.request(ProfileGet(username: client.username))
        return !client.inbox.contains { $0.type == .profile && $0.requestID == 0 }
    }

    private func contacts(_ a: TestClient, _ b: TestClient) throws {
        let _: Profile = try a.request(ContactAdd(username: b.username))
        let _: Profile = try b.request(ContactAccept(username: a.username))
    }

    func testANewPictureIsPushedToContactsAndOwnSessionsOnly() throws {
        // zoe sets the picture; yan is a contact with a client that shows avatars, old a
        // contact whose client does not announce them, xia a contact zoe blocks, wes only
        // shares a conversation with zoe.
        let users = try TestUsers.register(["zoe", "yan", "xia", "wes"], port: server.port, capabilities: withAvatars)
        let (zoe, yan, xia, wes) = (users[0], users[1], users[2], users[3])
        let old = try TestUsers.register(["old"], port: server.port, capabilities: [.zlib, .files])[0]
        XCTAssertEqual(yan.welcome?.capabilities.contains(.avatars), true)
        for other in [yan, old, xia] { try contacts(zoe, other) }
        let _: OK = try zoe.request(Block(username: "xia"))
        let dm = try wes.openDM(with: "zoe")
        try wes.sendText("hi 👋🏽", in: dm.conversationID)
        let zoeElsewhere = try TestUsers.secondSession(of: zoe, port: server.port, capabilities: withAvatars)
        let zoeOld = try TestUsers.secondSession(of: zoe, port: server.port, capabilities: [.zlib, .files])

        let photo = try zoe.upload(TestPNG.make(width: 90, height: 60), name: "Zoë – 夏.png", type: "image/png")
        let set: Profile = try zoe.request(AvatarSet(fileID: photo.fileID))
        XCTAssertEqual(set.avatarID.count, 16)

        let seen = try yan.push(Profile.self) { $0.user.username == "zoe" }
        XCTAssertEqual(seen.avatarID, set.avatarID, "the contact's client gets the new picture's id")
        XCTAssertEqual(seen.contactState, .accepted)
        XCTAssertEqual(seen.online, true, "seen as the contact's PROFILE_GET shows it: with presence")
        XCTAssertEqual(try yan.download(seen.avatarID).bytes.prefix(3), [0xFF, 0xD8, 0xFF])
        let mine = try zoeElsewhere.push(Profile.self) { $0.user.username == "zoe" }
        XCTAssertEqual(mine.avatarID, set.avatarID, "the user's other device shows it too")
        XCTAssertTrue(try noProfilePush(zoe), "the setter gets the answer, not a push besides")
        XCTAssertTrue(try noProfilePush(old), "a client without avatars gets nothing new")
        XCTAssertTrue(try noProfilePush(zoeOld), "nor the user's own older client")
        XCTAssertTrue(try noProfilePush(xia), "nothing across a block")
        XCTAssertTrue(try noProfilePush(wes), "nothing to a non-contact (they see it at their next PROFILE_GET)")
        XCTAssertEqual((try wes.request(ProfileGet(username: "zoe")) as Profile).avatarID, set.avatarID)

        // Removing it is pushed the same way, as a profile without a picture.
        let off: Profile = try zoe.request(AvatarSet(fileID: []))
        XCTAssertTrue(off.avatarID.isEmpty)
        let removed = try yan.push(Profile.self) { $0.user.username == "zoe" && $0.avatarID.isEmpty }
        XCTAssertEqual(removed.contactState, .accepted)
        _ = try zoeElsewhere.push(Profile.self) { $0.avatarID.isEmpty }
    }
}
