import Foundation
import MessageAIProtocol

/// What a person at the REPL sees of conversations other than the current one: a one-line
/// notice per message, an activity list in the prompt (irssi's `[Act: ...]`), a recap when a
/// conversation is opened, and the current conversation kept across restarts.
extension Client {
    /// `Act: team 2, carol 1`: conversations with unread messages, most recent first.
    public func activity() -> String? {
        let active = elsewhereUnread()
        guard !active.isEmpty else { return nil }
        return "Act: " + active.map { "\($0.name) \($0.unread)" }.joined(separator: ", ")
    }

    /// The next conversation with unread messages (the most recently active), not the current one.
    func nextActive() -> StoredConversation? {
        guard let store, let first = elsewhereUnread().first else { return nil }
        return try? store.conversation(first.id)
    }

    /// Muted conversations stay out of the activity list and /next (/unread still lists them).
    private func elsewhereUnread() -> [(id: UInt64, name: String, unread: Int)] {
        guard let store, let all = try? store.unreadCounts() else { return [] }
        let muted = (try? store.mutedConversations()) ?? []
        return all.filter { $0.unread > 0 && $0.id != currentConversation && !muted.contains($0.id) }
    }

    /// Shown when a conversation is opened in the REPL: its last messages (`openHistory`, more
    /// when more are unread, up to 50) with a marker above the first unread one, and which
    /// lines hold an image (by line index). Call before the conversation is marked read.
    func recap(_ cid: UInt64) -> (lines: [String], images: [Int: MessageKey]) {
        guard let store, config.openHistory > 0 else { return ([], [:]) }
        let unread = (try? store.unread(in: cid)) ?? 0
        let readUpTo = (try? store.marker(cid, userID: store.userID))??.read ?? 0
        let messages = (try? store.messages(in: cid, limit: max(config.openHistory, min(unread, 50)))) ?? []
        let name = conversationName(cid, fallback: "")
        let withImages = Set(((try? store.attachments(in: cid, seqs: (messages.first?.seq ?? 0)...(messages.last?.seq ?? 0))) ?? [])
            .filter { $0.attachment.width > 0 }.map(\.seq))
        var lines: [String] = []
        var images: [Int: MessageKey] = [:]
        var marked = false
        for m in messages {
            if !marked && unread > 0 && m.seq > readUpTo && m.senderID != store.userID {
                lines.append("--- \(unread) unread ---")
                marked = true
            }
            lines.append(messageLine(m, conversation: name))
            if withImages.contains(m.seq) { images[lines.count - 1] = MessageKey(conversationID: cid, seq: m.seq) }
        }
        return (lines, images)
    }

    /// What the REPL prints on opening `cid` (at start and on /open): `now in [NAME]`, the
    /// other person's cached profile picture in a direct conversation, the recap with its
    /// thumbnails and the catch-up. Pieces go out through `emit` as drawings need; the lines
    /// after the last drawing go to `finish` (the command's answer). Call before marking read.
    func presentOpening(_ cid: UInt64, name: String, emit: @escaping (String) -> Void, finish: @escaping ([String]) -> Void) {
        let recap = self.recap(cid)
        let body = recap.lines + catchUp(cid)
        let picture = headerPicture(cid)
        images(of: Array(recap.images.values)) { [weak self] held in
            guard let self else { return }
            var head = ["now in [\(name)]"]
            if let picture, previewMode != .none {
                emit(head.removeFirst())
                drawAvatar(picture)
            }
            var drawn: [Int: Attachment] = [:]
            for (i, key) in recap.images { if let a = held[key] { drawn[head.count + i] = a } }
            finish(illustrate(head + body, images: drawn, emit: emit))
        }
    }

    /// A direct conversation's header picture: the other member's, when the cache holds it.
    private func headerPicture(_ cid: UInt64) -> String? {
        guard let c = try? store?.conversation(cid), c.kind == .direct,
              let other = c.members.first(where: { $0.userID != session?.userID }) else { return nil }
        return cachedAvatar(of: other.username)
    }

    // MARK: The current conversation across restarts

    private var currentPath: String? {
        session.map { AccountPaths(dataDir: config.dataDir, username: $0.username).directory + "/current" }
    }

    /// Remembers `currentConversation` for the next start (a small file beside the store).
    func saveCurrent() {
        guard let path = currentPath else { return }
        if let cid = currentConversation {
            try? AtomicFile.write(Data("\(cid)\n".utf8), to: path)
        } else {
            try? FileManager.default.removeItem(atPath: path)
        }
    }

    /// The conversation the last session was in (when it is still known locally); the REPL
    /// opens it again at start. Scripts start with none, as before.
    public func peekCurrent() -> UInt64? {
        guard let path = currentPath, let text = try? String(contentsOfFile: path, encoding: .utf8),
              let cid = UInt64(text.trimmingCharacters(in: .whitespacesAndNewlines)),
              (try? store?.conversation(cid)) != nil else { return nil }
        return cid
    }
}
