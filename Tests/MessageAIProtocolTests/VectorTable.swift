import MessageAIProtocol

/// The spec's examples: one per frame type, plus a few that show a rule (compression, an error
/// with retry guidance). Each is a file `Protocol/vectors/NAME.hex` and a hex block in
/// PROTOCOL.md; `VectorTests` checks all three agree byte for byte.
struct Vector {
    let name: String
    let requestID: UInt32
    let message: any WireMessage
    var compressed = false
}

enum Vectors {
    static let clientID: [UInt8] = [0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff]
    static let token: [UInt8] = (0..<32).map { UInt8($0) }
    static let alice = UserInfo(userID: 1, username: "alice", displayName: "Alice")
    static let bob = UserInfo(userID: 2, username: "bob", displayName: "Bob")
    static let carol = UserInfo(userID: 3, username: "carol", displayName: "Carol")
    static let time: UInt64 = 1_795_000_000_000
    static let hi = ChatMessage(conversationID: 7, seq: 42, clientID: clientID, senderID: 1,
                                senderUsername: "alice", serverTime: time, text: "hi bob")
    static let dm = Conversation(conversationID: 7, kind: .direct, name: "", members: [alice, bob],
                                 lastSeq: 42, lastActivity: time, unread: 0, lastMessage: hi,
                                 deliveredSeq: 42, readSeq: 41)

    static let assistItem = AssistItem(itemID: 5, conversationID: 8, seq: 12, kind: .action, text: "tag the 2.3 hotfix branch",
                                       who: "bob", due: "5pm", from: "alice", done: true, doneBy: "bob", doneAt: time, rev: 17,
                                       engine: "local", engineVersion: "0.1.0")
    /// "Friday 5pm" written in Tokyo on Thursday 26 November 2026: Friday 17:00 JST (08:00 UTC).
    static let dueItem: AssistItem = {
        var i = AssistItem(itemID: 9, conversationID: 8, seq: 14, kind: .action, text: "send the deck", who: "bob", due: "Friday 5pm",
                           from: "alice", rev: 19, engine: "local", engineVersion: "0.5.0")
        i.dueAt = 1_795_766_400_000; i.dueTimeZone = "Asia/Tokyo"
        return i
    }()
    static let fileID: [UInt8] = (0..<16).map { UInt8(0xa0 + $0) }
    static let sha: [UInt8] = (0..<32).map { UInt8($0 * 7 & 0xff) }

    static let all: [Vector] = [
        Vector(name: "hello", requestID: 1, message: Hello(maxVersion: 2, minVersion: 2, capabilities: .zlib, client: "messageai/0.2.0")),
        Vector(name: "welcome", requestID: 1, message: Welcome(version: 2, capabilities: .zlib, maxFrameLength: 1 << 20,
                                                               pingInterval: 15_000, idleTimeout: 45_000, maxMessageLength: 10_000, server: "messageai-server/0.1.0",
                                                               maxInflatedLength: 4 << 20, maxGroupMembers: 256, maxNameLength: 64, maxQueryLength: 256)),
        Vector(name: "ping", requestID: 9, message: Ping()),
        Vector(name: "pong", requestID: 9, message: Pong()),
        Vector(name: "error", requestID: 5, message: ErrorFrame(.usernameTaken, "username is taken", field: "username")),
        Vector(name: "error-rate-limited", requestID: 12, message: ErrorFrame(.rateLimited, "rate limit: 100 messages a minute", retryAfter: 1_500)),
        Vector(name: "error-database-unavailable", requestID: 13, message: ErrorFrame(.databaseUnavailable, "database unavailable", retryAfter: 1_000)),
        Vector(name: "error-closes", requestID: 0, message: ErrorFrame(.frameTooLarge, "frame length 16777216 exceeds the maximum of 1048576 bytes", limit: 1 << 20)),
        Vector(name: "ok", requestID: 6, message: OK()),
        Vector(name: "register", requestID: 2, message: Register(email: "alice@example.com", username: "alice", password: "correct horse", displayName: "Alice", device: "laptop")),
        Vector(name: "login", requestID: 2, message: Login(login: "alice", password: "correct horse", device: "laptop")),
        Vector(name: "resume", requestID: 2, message: Resume(token: token)),
        Vector(name: "session", requestID: 2, message: SessionGranted(token: token, sessionID: 3, user: alice)),
        Vector(name: "logout", requestID: 20, message: Logout()),
        Vector(name: "sessions-list", requestID: 21, message: SessionsList()),
        Vector(name: "sessions", requestID: 21, message: Sessions(sessions: [
            SessionInfo(sessionID: 3, device: "laptop", created: time, lastUsed: time + 1000, current: true)])),
        Vector(name: "session-revoke", requestID: 22, message: SessionRevoke(sessionID: 4)),
        Vector(name: "profile-update", requestID: 23, message: ProfileUpdate(displayName: "Alice A.")),
        Vector(name: "profile-update-time-zone", requestID: 23, message: ProfileUpdate(timeZone: "Asia/Tokyo")),
        Vector(name: "password-change", requestID: 24, message: PasswordChange(oldPassword: "correct horse", newPassword: "battery staple")),
        Vector(name: "user-search", requestID: 3, message: UserSearch(prefix: "bo", limit: 10)),
        Vector(name: "users", requestID: 3, message: Users(users: [bob])),
        Vector(name: "contact-add", requestID: 4, message: ContactAdd(username: "bob")),
        Vector(name: "contact-remove", requestID: 4, message: ContactRemove(username: "bob")),
        Vector(name: "contacts-list", requestID: 5, message: ContactsList()),
        Vector(name: "contacts", requestID: 5, message: Contacts(contacts: [Profile(user: bob, online: true, lastSeen: 0, contactState: .accepted)])),
        Vector(name: "profile-get", requestID: 6, message: ProfileGet(username: "bob")),
        Vector(name: "profile", requestID: 6, message: Profile(user: bob, online: false, lastSeen: time, contactState: .accepted)),
        Vector(name: "profile-time-zone", requestID: 6, message: Profile(user: bob, online: false, lastSeen: time, contactState: .accepted,
                                                                          timeZone: "America/Los_Angeles")),
        Vector(name: "profile-requested", requestID: 4, message: Profile(user: bob, online: false, lastSeen: 0, contactState: .requested)),
        Vector(name: "contact-accept", requestID: 9, message: ContactAccept(username: "bob")),
        Vector(name: "contact-decline", requestID: 9, message: ContactDecline(username: "bob")),
        Vector(name: "contact-update", requestID: 0, message: ContactUpdate(profile: Profile(user: alice, online: false, lastSeen: 0, contactState: .incoming))),
        Vector(name: "block", requestID: 10, message: Block(username: "bob")),
        Vector(name: "unblock", requestID: 10, message: Unblock(username: "bob")),
        Vector(name: "blocked-list", requestID: 11, message: BlockedList()),
        Vector(name: "dm-open", requestID: 7, message: DMOpen(username: "bob")),
        Vector(name: "conversation", requestID: 7, message: dm),
        Vector(name: "conversation-request", requestID: 0, message: Conversation(
            conversationID: 9, kind: .direct, name: "", members: [alice, bob], lastSeq: 1, lastActivity: time,
            unread: 1, request: true)),
        Vector(name: "group-create", requestID: 8, message: GroupCreate(name: "design", usernames: ["bob", "carol"])),
        Vector(name: "group-add", requestID: 8, message: GroupAdd(conversationID: 8, usernames: ["dave"])),
        Vector(name: "group-rename", requestID: 8, message: GroupRename(conversationID: 8, name: "design review")),
        Vector(name: "group-leave", requestID: 8, message: GroupLeave(conversationID: 8)),
        Vector(name: "conversations-list", requestID: 10, message: ConversationsList()),
        Vector(name: "conversations", requestID: 10, message: Conversations(conversations: [
            Conversation(conversationID: 8, kind: .group, name: "design", members: [alice, bob, carol], lastActivity: time)])),
        Vector(name: "send", requestID: 11, message: Send(conversationID: 7, clientID: clientID, text: "hi bob")),
        Vector(name: "send-ack", requestID: 11, message: SendAck(conversationID: 7, clientID: clientID, seq: 42, serverTime: time)),
        Vector(name: "message", requestID: 0, message: hi),
        Vector(name: "mark", requestID: 0, message: Mark(conversationID: 7, deliveredSeq: 42, readSeq: 42)),
        Vector(name: "receipt", requestID: 0, message: Receipt(conversationID: 7, userID: 2, username: "bob", deliveredSeq: 42, readSeq: 42)),
        Vector(name: "history", requestID: 13, message: HistoryRequest(conversationID: 7, beforeSeq: 43, limit: 50)),
        Vector(name: "history-page", requestID: 13, message: HistoryPage(conversationID: 7, messages: [hi], hasMore: true)),
        Vector(name: "sync", requestID: 14, message: SyncRequest(positions: [SyncPosition(conversationID: 7, lastSeq: 41)])),
        Vector(name: "sync-batch", requestID: 14, message: SyncBatch(conversations: [dm], messages: [hi],
                                                                     receipts: [Receipt(conversationID: 7, userID: 2, username: "bob", deliveredSeq: 41, readSeq: 40)])),
        Vector(name: "sync-batch-compressed", requestID: 14, message: SyncBatch(conversations: [], messages: (1...8).map { i in
            ChatMessage(conversationID: 7, seq: UInt64(i), clientID: clientID.map { $0 ^ UInt8(i) }, senderID: 1,
                        senderUsername: "alice", serverTime: time + UInt64(i), text: "message number \(i) of the morning stand-up notes")
        }, receipts: []), compressed: true),
        Vector(name: "sync-done", requestID: 14, message: SyncDone(messageCount: 1, conversationCount: 1)),
        Vector(name: "search", requestID: 15, message: SearchRequest(query: "hi bob", limit: 20)),
        Vector(name: "search-results", requestID: 15, message: SearchResults(messages: [hi], hasMore: false)),
        Vector(name: "readers", requestID: 16, message: ReadersRequest(conversationID: 8, seq: 3)),
        Vector(name: "readers-result", requestID: 16, message: ReadersResult(conversationID: 8, seq: 3, recipientCount: 2, deliveredTo: [bob, carol], readBy: [bob])),
        Vector(name: "presence", requestID: 0, message: Presence(user: bob, online: false, lastSeen: time)),
        Vector(name: "presence-away", requestID: 0, message: Presence(user: bob, online: true, lastSeen: 0, away: true, awayMessage: "lunch")),
        Vector(name: "away", requestID: 30, message: AwaySet(away: true, message: "lunch")),
        Vector(name: "typing", requestID: 0, message: Typing(conversationID: 7)),
        Vector(name: "typing-event", requestID: 0, message: TypingEvent(conversationID: 7, user: bob, ttl: 5_000)),
        // The assistant (capability `assistant`).
        Vector(name: "assist-items-list", requestID: 30, message: AssistItemsList(conversationID: 8, filter: .mine, kind: .action)),
        Vector(name: "assist-items", requestID: 30, message: AssistItems(items: [assistItem], cursor: 17)),
        Vector(name: "assist-items-push", requestID: 0, message: AssistItems(items: [AssistItem(
            itemID: 6, conversationID: 8, seq: 13, kind: .decision, text: "ship 2.3 on Thursday", from: "carol", rev: 18,
            engine: "local", engineVersion: "0.1.0")], cursor: 18)),
        Vector(name: "assist-items-due", requestID: 0, message: AssistItems(items: [dueItem], cursor: 19)),
        Vector(name: "assist-item-done", requestID: 31, message: AssistItemDone(itemID: 5, done: true)),
        Vector(name: "assist-sync", requestID: 32, message: AssistSync(sinceRev: 16)),
        Vector(name: "assist-summary", requestID: 33, message: AssistSummary(conversationID: 8, limit: 30)),
        Vector(name: "assist-summary-result", requestID: 33, message: AssistSummaryResult(
            conversationID: 8, fromSeq: 1, toSeq: 30, messageCount: 30, covered: 24, summary: "Ship 2.3 on Thursday; bob tags it.",
            decisions: ["ship 2.3 on Thursday"], actions: [AssistAction(what: "tag the 2.3 hotfix branch", who: "bob", due: "5pm")],
            openQuestions: ["who writes the notes?"], engine: "local", engineVersion: "0.1.0",
            fallbackReason: "the language model (gemma) timed out; answered by the local rules")),
        Vector(name: "assist-check", requestID: 34, message: AssistCheck(conversationID: 8, text: "revert that", rewrite: true)),
        Vector(name: "assist-check-result", requestID: 34, message: AssistCheckResult(
            clarity: [AssistFlag(kind: "pronoun", reason: "'that' has nothing it refers to")],
            rewrite: "Please revert the cache change.", engine: "provider", engineVersion: "0.1.0 gemma")),
        Vector(name: "assist-settings-set", requestID: 35, message: AssistSettingsSet(conversationID: 8, providerOff: true)),
        Vector(name: "assist-settings", requestID: 35, message: AssistSettings(
            conversationID: 8, providerOff: true, changedBy: "alice", providerAvailable: true, budgetLeft: 99)),
        Vector(name: "assist-settings-get", requestID: 36, message: AssistSettingsGet(conversationID: 8)),
        Vector(name: "file-announce", requestID: 30, message: FileAnnounce(name: "mockup.png", size: 300_000, mediaType: "image/png", sha256: sha)),
        Vector(name: "file-upload", requestID: 30, message: FileUpload(fileID: fileID, chunkSize: 262_144, offset: 262_144, complete: false)),
        Vector(name: "file-chunk", requestID: 31, message: FileChunk(fileID: fileID, offset: 262_144, data: [0x89, 0x50, 0x4e, 0x47])),
        Vector(name: "file-upload-complete", requestID: 31, message: FileUpload(fileID: fileID, chunkSize: 262_144, offset: 300_000, complete: true)),
        Vector(name: "file-status", requestID: 32, message: FileStatus(fileID: fileID)),
        Vector(name: "file-get", requestID: 33, message: FileGet(fileID: fileID, offset: 0, length: 0, thumbnail: true)),
        Vector(name: "file-data", requestID: 33, message: FileData(fileID: fileID, offset: 0, data: [0xff, 0xd8, 0xff], size: 3, sha256: sha)),
        Vector(name: "send-file", requestID: 34, message: Send(conversationID: 7, clientID: clientID, text: "v2",
                                                              attachment: Attachment(fileID: fileID))),
        Vector(name: "message-file", requestID: 0, message: ChatMessage(
            conversationID: 7, seq: 43, clientID: clientID, senderID: 1, senderUsername: "alice", serverTime: time,
            text: "[file: mockup.png (293.0 KiB)] v2",
            attachment: Attachment(fileID: fileID, name: "mockup.png", size: 300_000, mediaType: "image/png", sha256: sha,
                                   width: 1280, height: 800, thumbnail: [0xff, 0xd8, 0xff], caption: "v2"))),
        // The same kind of message to a client without `files`: text only, the name escaped.
        Vector(name: "message-file-text-form", requestID: 0, message: ChatMessage(
            conversationID: 7, seq: 44, clientID: clientID, senderID: 1, senderUsername: "alice", serverTime: time,
            text: #"[file: x \(1 B\)\] y (3 B)] v3"#)),
        Vector(name: "error-file-too-large", requestID: 30, message: ErrorFrame(
            .fileTooLarge, "files are at most 100 MiB (this one has 120 MiB)", limit: 104_857_600, field: "size")),
        Vector(name: "avatar-set", requestID: 40, message: AvatarSet(fileID: fileID)),
        Vector(name: "avatar-set-group-off", requestID: 41, message: AvatarSet(fileID: [], conversationID: 8)),
        Vector(name: "profile-avatar", requestID: 40, message: Profile(
            user: UserInfo(userID: 1, username: "alice", displayName: "Alice"), online: true, lastSeen: 0,
            avatarID: Array(0xb0...0xbf))),
        Vector(name: "profile-avatar-push", requestID: 0, message: Profile(
            user: UserInfo(userID: 1, username: "alice", displayName: "Alice"), online: true, lastSeen: 0,
            contactState: .accepted, avatarID: Array(0xb0...0xbf))),
    ] + changes

    /// Replies, reactions, edits and deletes (capability messageChanges).
    static let thumbs = "\u{1F44D}\u{1F3FD}" // thumbs up, medium skin tone: one grapheme, two scalars
    static let changes: [Vector] = [
        Vector(name: "welcome-changes", requestID: 1, message: {
            var w = Welcome(version: 2, capabilities: [.zlib, .messageChanges], maxFrameLength: 1 << 20, pingInterval: 15_000,
                            idleTimeout: 45_000, maxMessageLength: 10_000, server: "messageai-server/0.2.0")
            w.editWindow = 86_400_000
            return w
        }()),
        Vector(name: "welcome-assistant", requestID: 1, message: {
            var w = Welcome(version: 2, capabilities: [.zlib, .assistant], maxFrameLength: 1 << 20, pingInterval: 15_000,
                            idleTimeout: 45_000, maxMessageLength: 10_000, server: "messageai-server/0.4.1")
            w.assistantAnswerTimeout = 65_000
            return w
        }()),
        Vector(name: "send-reply", requestID: 17, message: Send(conversationID: 7, clientID: clientID, text: "yes, at 3", replyTo: 42)),
        Vector(name: "change-react", requestID: 18, message: ChangeRequest(conversationID: 7, clientID: clientID, targetSeq: 42, action: .react, emoji: thumbs)),
        Vector(name: "change-edit", requestID: 19, message: ChangeRequest(conversationID: 7, clientID: clientID, targetSeq: 42, action: .edit, text: "hi Bob")),
        Vector(name: "change-delete", requestID: 20, message: ChangeRequest(conversationID: 7, clientID: clientID, targetSeq: 42, action: .delete)),
        Vector(name: "message-change", requestID: 0, message: MessageChange(
            conversationID: 7, seq: 44, clientID: clientID, actorID: 2, actorUsername: "bob", serverTime: time + 5_000,
            targetSeq: 42, action: .react, emoji: thumbs)),
        Vector(name: "message-edited", requestID: 0, message: ChatMessage(
            conversationID: 7, seq: 43, clientID: clientID, senderID: 1, senderUsername: "alice", serverTime: time,
            text: "yes, at 3", replyTo: 42, editedAt: time + 9_000, reactions: [Reaction(emoji: thumbs, userID: 2, username: "bob")])),
        Vector(name: "sync-batch-changes", requestID: 14, message: SyncBatch(conversations: [], messages: [], receipts: [], changes: [
            MessageChange(conversationID: 7, seq: 45, clientID: clientID, actorID: 1, actorUsername: "alice", serverTime: time + 9_000,
                          targetSeq: 42, action: .delete)])),
    ]
}
