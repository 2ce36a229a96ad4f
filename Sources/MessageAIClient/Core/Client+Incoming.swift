import Foundation
import MessageAIProtocol

extension StoredMessage {
    init(_ m: ChatMessage, sentHere: Bool) {
        self.init(conversationID: m.conversationID, seq: m.seq, clientID: Hex.encode(m.clientID), senderID: m.senderID,
                  sender: m.senderUsername, text: m.deleted ? "" : LocalStore.shownText(m), serverTime: m.serverTime, sentHere: sentHere,
                  replyTo: m.replyTo, editedAt: m.editedAt, deleted: m.deleted)
    }
}

/// Pushes from the server (request id 0), dispatched by frame type through a table.
extension Client {
    private static let pushHandlers: [FrameType: (Client, Frame) throws -> Void] = [
        .message: { c, f in c.receiveMessage(try f.decode(ChatMessage.self)) },
        .messageChange: { c, f in c.receiveChange(try f.decode(MessageChange.self)) },
        .receipt: { c, f in c.applyReceipt(try f.decode(Receipt.self), announce: true) },
        .conversation: { c, f in c.handleConversation(try f.decode(Conversation.self)) },
        .presence: { c, f in c.handlePresence(try f.decode(Presence.self)) },
        .typingEvent: { c, f in c.handleTyping(try f.decode(TypingEvent.self)) },
        .contactUpdate: { c, f in c.handleContactUpdate(try f.decode(ContactUpdate.self)) },
        .profile: { c, f in c.handleProfilePush(try f.decode(Profile.self)) },
        .error: { c, f in c.handlePushedError(try f.decode(ErrorFrame.self)) },
        .assistItems: { c, f in c.handleAssistItems(try f.decode(AssistItems.self)) },
        .assistSettings: { c, f in c.handleAssistSettings(try f.decode(AssistSettings.self)) },
    ]

    func handlePush(_ frame: Frame) {
        guard let handler = Client.pushHandlers[frame.type] else { return }
        do { try handler(self, frame) } catch {
            output.error(command: "", ClientError("bad_request", "unreadable \(frame.type) from the server: \(error)"))
        }
    }

    /// A message not held yet is stored and shown once. `via`: "live" (pushed) or "gap" (a
    /// SYNC that filled a hole), in the JSON event, so a history can be checked.
    func handleMessage(_ m: ChatMessage, via: String) {
        guard let store, let me = session else { return }
        let sentHere = outbox?.entries.contains { $0.clientID == Hex.encode(m.clientID) } ?? false
        guard let added = try? store.insert([m], sentHere: sentHere ? [Hex.encode(m.clientID)] : []), !added.isEmpty else { return }
        if (try? store.conversation(m.conversationID)) == nil { refreshConversations() }
        // Still in this outbox (a fill found it before its SEND_ACK came): the ack reports it.
        if sentHere { return }
        let name = conversationName(m.conversationID, fallback: m.senderUsername)
        var line = self.line(StoredMessage(m, sentHere: sentHere), conversation: name)
        line.via = via
        if m.senderID == me.userID {
            output.emit(MessageEvent.shown(line))
            checkWaiters()
            if let a = m.attachment { output.emit(FileEvent.arrived(m, a)); showThumbnail(a) }
            return
        }
        if m.conversationID == currentConversation {
            output.emit(MessageEvent.shown(line))
            if let a = m.attachment { output.emit(FileEvent.arrived(m, a)); showThumbnail(a) }
            markRead(m.conversationID)
        } else {
            let unread = (try? store.unread(in: m.conversationID)) ?? 0
            output.emit(MessageEvent.elsewhere(line, unread: unread, notice: config.interactive))
            _ = try? store.raiseMarker(m.conversationID, userID: me.userID, username: me.username, delivered: m.seq, read: 0)
            link.sendNoReply(Mark(conversationID: m.conversationID, deliveredSeq: m.seq))
            let isGroup = (try? store.conversation(m.conversationID))??.kind == .group
            // A muted conversation rings only for a mention of the user (Slack's rule).
            if !((try? store.isMuted(m.conversationID)) ?? false) || Mention.matches(m.text, me.username) {
                let said = Action.of(m.text).map { "\(m.senderUsername) \($0)" } ?? "\(m.senderUsername): \(m.text)"
                notifier.notify(isGroup ? "\(said) (in \(name))" : said)
            }
        }
        typing[m.conversationID]?[m.senderUsername] = nil
        considerCallHint(m.conversationID)
        onChange()
    }

    /// A member's markers moved: updates the store and reports own messages whose state changed.
    func applyReceipt(_ r: Receipt, announce: Bool) {
        guard let store else { return }
        let before = (try? store.recipientsReached(r.conversationID)) ?? (delivered: 0, read: 0)
        guard (try? store.raiseMarker(r.conversationID, userID: r.userID, username: r.username,
                                      delivered: r.deliveredSeq, read: r.readSeq)) != nil else { return }
        if r.userID == store.userID { onChange(); return }
        // The prompt's "read by N of M" counts every member's marker, not only the slowest's:
        // a receipt that moves one member alone changes it too (it stayed "✓✓ delivered").
        defer { onChange() }
        let after = (try? store.recipientsReached(r.conversationID)) ?? (delivered: 0, read: 0)
        if announce {
            output.emit(ReceiptEvent(receipt: r))
        }
        guard after.delivered > before.delivered || after.read > before.read,
              let own = try? store.ownMessages(in: r.conversationID, after: min(before.delivered, before.read), upTo: after.delivered)
        else { return }
        for m in own {
            let wasRead = m.seq <= before.read, wasDelivered = m.seq <= before.delivered
            if m.seq <= after.read && !wasRead {
                reportState(m, .read)
            } else if m.seq <= after.delivered && !wasDelivered {
                reportState(m, .delivered)
            }
        }
    }

    private func handleConversation(_ c: Conversation) {
        guard let store else { return }
        let before = (try? store.conversation(c.conversationID)) ?? nil
        try? store.upsert(c)
        let name = conversationName(c.conversationID, fallback: c.name)
        if before == nil && c.kind == .group {
            output.emit(Notice("you are in the group \(name)", conversation: c.conversationID,
                               line: "* you are in the group \(name) (\(c.members.map(\.username).joined(separator: ", ")))"))
        }
        if let before, c.kind == .group {
            for text in Client.groupChanges(from: before, to: c) {
                output.emit(Notice.happened(text, conversation: c.conversationID))
            }
        }
        if before == nil && c.request { announceMessageRequest(c) }
        onChange()
    }

    /// What changed in a group, as members should hear of it: renames, who joined, who left.
    static func groupChanges(from old: StoredConversation, to new: Conversation) -> [String] {
        var changes: [String] = []
        if !new.name.isEmpty && new.name != old.name { changes.append("[\(old.name)] is now called [\(new.name)]") }
        let was = Set(old.members.map(\.username)), now = Set(new.members.map(\.username))
        let label = new.name.isEmpty ? old.name : new.name
        changes += now.subtracting(was).sorted().map { "[\(label)] \($0) joined" }
        changes += was.subtracting(now).sorted().map { "[\(label)] \($0) left" }
        return changes
    }

    private func handlePresence(_ p: Presence) {
        let before = presence(of: p.user.username)
        learn(p)
        // The user's own away mark, set from another device: the prompt shows it, no line.
        guard p.user.userID != session?.userID else { return }
        output.emit(PresenceEvent(presence: p, before: before))
    }

    private func handleTyping(_ t: TypingEvent) {
        typing[t.conversationID, default: [:]][t.user.username] = .now() + Double(max(t.ttl, 1000)) / 1000
        output.emit(PeopleEvent.typing(conversationID: t.conversationID, user: t.user.username))
        onChange()
        DispatchQueue.main.asyncAfter(deadline: .now() + Double(max(t.ttl, 1000)) / 1000 + 0.05) { [weak self] in self?.onChange() }
    }

    private func handlePushedError(_ e: ErrorFrame) {
        // An error that closes the connection is followed by a reconnect; the lost-connection
        // line already says so.
        guard !e.closes else { return }
        output.error(command: "", ClientError(e))
    }

    /// Who is typing in a conversation now (expired entries dropped).
    public func typingUsers(in cid: UInt64) -> [String] {
        let now = DispatchTime.now()
        return (typing[cid] ?? [:]).filter { $0.value > now }.keys.sorted()
    }

    /// Fetches every conversation's metadata (for a message in one not seen yet).
    func refreshConversations() {
        link.request(ConversationsList()) { [weak self] result in
            if case .success(let f) = result, f.type == .conversations, let list = try? f.decode(Conversations.self) {
                for c in list.conversations { try? self?.store?.upsert(c) }
                self?.onChange()
            }
            return true
        }
    }

    // MARK: Formatting

    /// A message as a line of this client: with its reference in the REPL, coloured for this
    /// user, the sender by display name where it says more than the username.
    func line(_ m: StoredMessage, conversation: String) -> MessageLine {
        decorate(MessageLine(message: m, conversation: conversation, showsRef: config.interactive, me: username, senderName: senderLabel(m)))
    }

    func messageFields(_ m: StoredMessage, conversation: String) -> [String: Any] {
        line(m, conversation: conversation).jsonFields
    }

    /// `[CONVERSATION] HH:MM SENDER: TEXT` (see `MessageLine`).
    func messageLine(_ m: StoredMessage, conversation: String, suffix: String = "") -> String {
        var l = line(m, conversation: conversation)
        l.suffix = suffix
        return l.text
    }

    /// The sender as message lines name them: the display name where it says more than the
    /// username, with the username where it could be taken for someone else (`displayLabel`).
    func senderLabel(_ m: StoredMessage) -> String {
        guard let c = try? store?.conversation(m.conversationID), let user = c.members.first(where: { $0.userID == m.senderID }) else {
            return m.sender
        }
        return displayLabel(user, among: c.members)
    }

    /// Emits one state event. The caller runs `onChange()` once it has reported every message
    /// a receipt or ack moved: checking waiters here let `/wait read` answer between the first
    /// and the second message of one receipt, before their state lines were printed.
    func reportState(_ m: StoredMessage, _ state: MessageState) {
        let name = conversationName(m.conversationID, fallback: "")
        output.emit(MessageStateEvent.changed(m, state, conversation: name, shown: showsTransitions))
    }
}
