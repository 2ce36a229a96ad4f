import Foundation

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

    private func elsewhereUnread() -> [(id: UInt64, name: String, unread: Int)] {
        guard let store, let all = try? store.unreadCounts() else { return [] }
        return all.filter { $0.unread > 0 && $0.id != currentConversation }
    }

    /// Shown when a conversation is opened in the REPL: its last messages (`openHistory`, more
    /// when more are unread, up to 50) with a marker above the first unread one. Call before
    /// the conversation is marked read.
    func recap(_ cid: UInt64) -> [String] {
        guard let store, config.openHistory > 0 else { return [] }
        let unread = (try? store.unread(in: cid)) ?? 0
        let readUpTo = (try? store.marker(cid, userID: store.userID))??.read ?? 0
        let messages = (try? store.messages(in: cid, limit: max(config.openHistory, min(unread, 50)))) ?? []
        let name = conversationName(cid, fallback: "")
        var lines: [String] = []
        var marked = false
        for m in messages {
            if !marked && unread > 0 && m.seq > readUpTo && m.senderID != store.userID {
                lines.append("--- \(unread) unread ---")
                marked = true
            }
            lines.append(messageLine(m, conversation: name))
        }
        return lines
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
