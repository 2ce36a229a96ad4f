import MessageAIProtocol

// Records into frames (and the few wire values a request hands to the store). The handlers
// build their answers and pushes with these; the store never sees a wire type.

extension UserRecord {
    public var info: UserInfo { UserInfo(userID: id, username: username, displayName: displayName) }
}

extension UserInfo {
    init(_ r: MemberRecord) { self.init(userID: r.userID, username: r.username, displayName: r.displayName) }
}

extension Attachment {
    init(_ r: AttachmentRecord) {
        self.init(fileID: r.fileID, name: r.name, size: r.size, mediaType: r.mediaType, sha256: r.sha256,
                  width: r.width, height: r.height, thumbnail: r.thumbnail, caption: r.caption)
    }
}

extension AttachmentRecord {
    init(_ a: Attachment) {
        self.init(fileID: a.fileID, name: a.name, size: a.size, mediaType: a.mediaType, sha256: a.sha256,
                  width: a.width, height: a.height, thumbnail: a.thumbnail, caption: a.caption)
    }

    /// What a client without `files` reads instead (PROTOCOL.md, "Files").
    var fallbackText: String { Attachment(self).fallbackText }
}

extension ChatMessage {
    init(_ r: StoredMessage) {
        self.init(conversationID: r.conversationID, seq: r.seq, clientID: r.clientID, senderID: r.senderID,
                  senderUsername: r.senderUsername, serverTime: r.serverTime, text: r.text, kind: r.kind, replyTo: r.replyTo,
                  editedAt: r.editedAt, deleted: r.deleted,
                  reactions: r.reactions.map { Reaction(emoji: $0.emoji, userID: $0.userID, username: $0.username) },
                  attachment: r.attachment.map(Attachment.init))
    }
}

extension MessageChange {
    init(_ r: ChangeRecord) {
        self.init(conversationID: r.conversationID, seq: r.seq, clientID: r.clientID, actorID: r.actorID,
                  actorUsername: r.actorUsername, serverTime: r.serverTime, targetSeq: r.targetSeq,
                  action: .react, emoji: r.emoji, text: r.text)
        action = r.action   // kept as stored, like the wire's own field
    }
}

extension Conversation {
    init(_ r: ConversationEntry) {
        self.init(conversationID: r.conversationID, kind: r.kind, name: r.name, members: r.members.map(UserInfo.init),
                  lastSeq: r.lastSeq, lastActivity: r.lastActivity, unread: r.unread,
                  lastMessage: r.lastMessage.map(ChatMessage.init), deliveredSeq: r.deliveredSeq, readSeq: r.readSeq,
                  request: r.request, avatarID: r.avatarID)
    }
}

extension AssistItem {
    init(_ r: AssistItemRecord) {
        self.init(itemID: r.itemID, conversationID: r.conversationID, seq: r.seq, kind: r.kind, text: r.text, who: r.who,
                  due: r.due, from: r.from, done: r.done, doneBy: r.doneBy, doneAt: r.doneAt, rev: r.rev,
                  engine: r.engine, engineVersion: r.engineVersion)
        dueAt = r.dueAt; dueTimeZone = r.dueTimeZone
    }
}
