import Crypto
import Foundation
import MessageAIProtocol

/// The ids a logged-in fuzzing client owns on the server: its conversations, a message it can
/// reply to and change, a file it uploaded. Samples are built from these so that a mutated
/// integer reaches the handler's arithmetic instead of stopping at "not found".
struct FuzzWorld {
    var peer: String
    var thirdUser: String
    var dm: UInt64
    var group: UInt64
    var lastSeq: UInt64
    var fileID: [UInt8]
    var token: [UInt8]
}

/// One well-formed frame for every type a client may send (MessageRegistry's `client` and
/// `both` entries). `ServerFrameFuzzTests` checks this list against the registry, so a new
/// frame type cannot be added without a sample here.
enum FuzzSamples {
    static let clientID: [UInt8] = Array(0x10..<0x20)

    /// Ordered so that the samples that end the session (LOGOUT, SESSION_REVOKE) or cut the
    /// fuzzing user off (GROUP_LEAVE, BLOCK) come last; the harness logs in again after them.
    static func all(_ w: FuzzWorld) -> [any WireMessage] {
        let file = Attachment(fileID: w.fileID, name: "notes.txt", size: 5, mediaType: "text/plain",
                              sha256: Array(SHA256.hash(data: Array("hello".utf8))), caption: "the notes")
        return [
            Hello(capabilities: [.zlib, .assistant, .files, .messageChanges, .avatars], client: "fuzz/1"),
            Ping(), Pong(),
            Register(email: "someone@example.org", username: "fuzzreg", password: "a long password here", displayName: "Fuzz Reg", device: "fuzz box"),
            Login(login: w.thirdUser, password: "not the password", device: "fuzz box"),
            Resume(token: w.token),
            SessionsList(),
            ProfileUpdate(displayName: "Zoë 東京 👩‍💻"),
            PasswordChange(oldPassword: "not the password", newPassword: "another long password"),
            UserSearch(prefix: "pe", limit: 5),
            ContactAdd(username: w.thirdUser), ContactRemove(username: w.thirdUser), ContactsList(),
            ProfileGet(username: w.peer), ContactAccept(username: w.peer), ContactDecline(username: w.thirdUser),
            Unblock(username: w.thirdUser), BlockedList(),
            DMOpen(username: w.peer),
            GroupCreate(name: "fuzz group", usernames: [w.peer, w.thirdUser]),
            GroupAdd(conversationID: w.group, usernames: [w.thirdUser]),
            GroupRename(conversationID: w.group, name: "renamed group"),
            ConversationsList(),
            Send(conversationID: w.dm, clientID: clientID, text: "hello there", replyTo: w.lastSeq),
            Send(conversationID: w.dm, clientID: Array(0x20..<0x30), text: "with a file", attachment: file),
            Mark(conversationID: w.dm, deliveredSeq: w.lastSeq, readSeq: w.lastSeq),
            HistoryRequest(conversationID: w.dm, beforeSeq: w.lastSeq, limit: 10),
            SyncRequest(positions: [SyncPosition(conversationID: w.dm, lastSeq: 1), SyncPosition(conversationID: w.group, lastSeq: 0)]),
            SearchRequest(query: "hello", conversationID: w.dm, offset: 1, limit: 5),
            ReadersRequest(conversationID: w.dm, seq: w.lastSeq),
            ChangeRequest(conversationID: w.dm, clientID: Array(0x30..<0x40), targetSeq: w.lastSeq, action: .react, emoji: "👍🏽"),
            ChangeRequest(conversationID: w.dm, clientID: Array(0x40..<0x50), targetSeq: w.lastSeq, action: .edit, text: "edited text"),
            Typing(conversationID: w.dm),
            AwaySet(away: true, message: "lunch 🍜"),
            AssistItemsList(conversationID: w.dm, filter: .all, kind: .action, limit: 10),
            AssistItemDone(itemID: 1, done: true),
            AssistSync(sinceRev: 1),
            AssistSummary(conversationID: w.dm, fromSeq: 1, toSeq: w.lastSeq, limit: 10),
            AssistCheck(conversationID: w.dm, text: "can you revert that by friday"),
            AssistSettingsSet(conversationID: w.dm, providerOff: true),
            AssistSettingsGet(conversationID: w.dm),
            FileAnnounce(name: "fuzz.bin", size: 64, mediaType: "application/octet-stream", sha256: Array(repeating: 7, count: 32)),
            FileChunk(fileID: w.fileID, offset: 0, data: Array("hello".utf8)),
            FileStatus(fileID: w.fileID),
            FileGet(fileID: w.fileID, offset: 1, length: 3),
            FileGet(fileID: w.fileID, offset: 0, length: 3, thumbnail: true),
            AvatarSet(fileID: w.fileID, conversationID: w.group),
            ChangeRequest(conversationID: w.dm, clientID: Array(0x50..<0x60), targetSeq: 1, action: .delete),
            GroupLeave(conversationID: w.group),
            Block(username: w.thirdUser),
            SessionRevoke(sessionID: 1),
            Logout(),
        ]
    }
}
