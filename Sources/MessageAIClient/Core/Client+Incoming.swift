import Foundation
import MessageAIProtocol

extension StoredMessage {
    init(_ m: ChatMessage, sentHere: Bool) {
        self.init(conversationID: m.conversationID, seq: m.seq, clientID: Hex.encode(m.clientID), senderID: m.senderID,
                  sender: m.senderUsername, text: LocalStore.shownText(m), serverTime: m.serverTime, sentHere: sentHere)
    }
}

/// Pushes from the server (request id 0), dispatched by frame type through a table.
extension Client {
    private static let pushHandlers: [FrameType: (Client, Frame) throws -> Void] = [
        .message: { c, f in c.handleMessage(try f.decode(ChatMessage.self)) },
        .receipt: { c, f in c.applyReceipt(try f.decode(Receipt.self), announce: true) },
        .conversation: { c, f in c.handleConversation(try f.decode(Conversation.self)) },
        .presence: { c, f in c.handlePresence(try f.decode(Presence.self)) },
        .typingEvent: { c, f in c.handleTyping(try f.decode(TypingEvent.self)) },
        .contactUpdate: { c, f in c.handleContactUpdate(try f.decode(ContactUpdate.self)) },
        .error: { c, f in c.handlePushedError(try f.decode(ErrorFrame.self)) },
    ]

    func handlePush(_ frame: Frame) {
        guard let handler = Client.pushHandlers[frame.type] else { return }
        do { try handler(self, frame) } catch {
            output.error(command: "", ClientError("bad_request", "unreadable \(frame.type) from the server: \(error)"))
        }
    }

    private func handleMessage(_ m: ChatMessage) {
        guard let store, let me = session else { return }
        let sentHere = outbox?.entries.contains { $0.clientID == Hex.encode(m.clientID) } ?? false
        guard let added = try? store.insert([m], sentHere: sentHere ? [Hex.encode(m.clientID)] : []), !added.isEmpty else { return }
        if (try? store.conversation(m.conversationID)) == nil { refreshConversations() }
        let name = conversationName(m.conversationID, fallback: m.senderUsername)
        let stored = StoredMessage(m, sentHere: sentHere)
        var fields = messageFields(stored, conversation: name)
        if let a = m.attachment {
            fields["attachment"] = ["file_id": Hex.encode(a.fileID), "name": a.name, "safe_name": FileNames.safe(a.name),
                                    "size": a.size, "media_type": a.mediaType, "caption": a.caption,
                                    "width": a.width, "height": a.height, "thumbnail_bytes": a.thumbnail.count]
        }
        if m.senderID == me.userID {
            output.emit("message", fields, styled: styledLine(stored, conversation: name))
            return
        }
        if m.conversationID == currentConversation {
            output.emit("message", fields, styled: styledLine(stored, conversation: name))
            markRead(m.conversationID)
        } else {
            let unread = (try? store.unread(in: m.conversationID)) ?? 0
            fields["unread"] = unread
            // In the REPL a message elsewhere is a one-line notice, so it does not read as
            // part of the conversation on screen; scripts keep the full line.
            output.emit("message", fields, plain: config.interactive ? notice(for: stored, conversation: name, unread: unread)
                                                                         : messageLine(stored, conversation: name))
            _ = try? store.raiseMarker(m.conversationID, userID: me.userID, username: me.username, delivered: m.seq, read: 0)
            link.sendNoReply(Mark(conversationID: m.conversationID, deliveredSeq: m.seq))
            let isGroup = (try? store.conversation(m.conversationID))??.kind == .group
            notifier.notify(isGroup ? "\(m.senderUsername) in \(name): \(m.text)" : "\(m.senderUsername): \(m.text)")
        }
        typing[m.conversationID]?[m.senderUsername] = nil
        onChange()
    }

    /// A member's markers moved: updates the store and reports own messages whose state changed.
    func applyReceipt(_ r: Receipt, announce: Bool) {
        guard let store else { return }
        let before = (try? store.recipientsReached(r.conversationID)) ?? (delivered: 0, read: 0)
        guard (try? store.raiseMarker(r.conversationID, userID: r.userID, username: r.username,
                                      delivered: r.deliveredSeq, read: r.readSeq)) != nil else { return }
        if r.userID == store.userID { onChange(); return }
        let after = (try? store.recipientsReached(r.conversationID)) ?? (delivered: 0, read: 0)
        if announce {
            output.emit("receipt", ["conversation_id": r.conversationID, "user": r.username,
                                    "delivered_seq": r.deliveredSeq, "read_seq": r.readSeq], plain: nil)
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
            output.emit("notice", ["conversation_id": c.conversationID, "text": "you are in the group \(name)"],
                        plain: "* you are in the group \(name) (\(c.members.map(\.username).joined(separator: ", ")))")
        }
        if let before, c.kind == .group {
            for text in Client.groupChanges(from: before, to: c) {
                output.emit("notice", ["conversation_id": c.conversationID, "text": text], plain: "* " + text)
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
        var fields: [String: Any] = ["user": p.user.username, "online": p.online]
        if p.lastSeen > 0 { fields["last_seen"] = p.lastSeen }
        output.emit("presence", fields, plain: "* \(p.user.username) is \(p.online ? "online" : "offline")")
    }

    private func handleTyping(_ t: TypingEvent) {
        typing[t.conversationID, default: [:]][t.user.username] = .now() + Double(max(t.ttl, 1000)) / 1000
        output.emit("typing", ["conversation_id": t.conversationID, "user": t.user.username], plain: nil)
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

    func messageFields(_ m: StoredMessage, conversation: String) -> [String: Any] {
        ["conversation_id": m.conversationID, "conversation": conversation, "seq": m.seq, "sender": m.sender,
         "text": m.text, "server_time": m.serverTime, "client_id": m.clientID]
    }

    /// `messageLine` in parts for `Output.emit(styled:)`: the sender in its colour, one's own
    /// messages grey, a message that mentions this user (@name or the name) bold yellow.
    func styledLine(_ m: StoredMessage, conversation: String) -> [(String, String?)] {
        let ref = config.interactive && m.seq > 0 ? "#\(m.seq) " : ""
        let head = "[\(conversation)] \(Output.clock(m.serverTime)) \(ref)"
        if let me = username, m.sender == me { return [(head + m.sender + ": " + m.text, Palette.own)] }
        let mentioned = username.map { me in
            m.text.lowercased().split(whereSeparator: { !$0.isLetter && !$0.isNumber && $0 != "_" }).contains { $0 == me.lowercased() }
        } ?? false
        return [(head, nil), (m.sender, Palette.user(m.sender)), (": ", nil), (m.text, mentioned ? Palette.mention : nil)]
    }

    /// `[CONVERSATION] HH:MM SENDER: TEXT`; in the REPL with the message's reference
    /// (`[alice] 10:42 #17 alice: hi`) for /info and /history before.
    func messageLine(_ m: StoredMessage, conversation: String) -> String {
        let ref = config.interactive && m.seq > 0 ? "#\(m.seq) " : ""
        return "[\(conversation)] \(Output.clock(m.serverTime)) \(ref)\(m.sender): \(m.text)"
    }

    func reportState(_ m: StoredMessage, _ state: MessageState) {
        let name = conversationName(m.conversationID, fallback: "")
        let snippet = m.text.count > 40 ? String(m.text.prefix(40)) + "..." : m.text
        output.emit("state", ["conversation_id": m.conversationID, "client_id": m.clientID, "seq": m.seq, "state": state.rawValue],
                    plain: showsTransitions ? "[\(name)] \(state.rawValue): \(snippet)" : nil)
        if !showsTransitions { onChange() }
    }
}
