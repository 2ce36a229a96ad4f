import Foundation
import MessageAIProtocol

/// One message the user typed that the server has not acknowledged yet.
public struct OutboxEntry: Codable, Equatable, Sendable {
    /// 16 random bytes as 32 lowercase hex digits: the server dedupes resends by it.
    public var clientID: String
    public var conversationID: UInt64
    public var text: String
    /// Milliseconds since the epoch when the user typed it.
    public var created: UInt64
    /// A reply: the seq of the message it answers.
    public var replyTo: UInt64?
    /// A change instead of a message: "react", "unreact", "edit" or "delete" (`ChangeAction`
    /// names), to the message `target`; `text` is an edit's new text, `emoji` a reaction.
    public var change: String?
    public var target: UInt64?
    public var emoji: String?
    /// A file to upload and send with `text` as its caption (absent in older outboxes).
    public var file: OutboxFile?

    enum CodingKeys: String, CodingKey {
        case clientID = "client_id", conversationID = "conversation_id", text, created
        case replyTo = "reply_to", change, target, emoji, file
    }

    public init(clientID: String, conversationID: UInt64, text: String, created: UInt64, replyTo: UInt64? = nil,
                file: OutboxFile? = nil) {
        self.clientID = clientID; self.conversationID = conversationID; self.text = text; self.created = created
        self.replyTo = replyTo; self.file = file
    }

    public init(clientID: String, conversationID: UInt64, change: ChangeAction, target: UInt64, text: String = "",
                emoji: String? = nil, created: UInt64) {
        self.init(clientID: clientID, conversationID: conversationID, text: text, created: created)
        self.change = change.name; self.target = target; self.emoji = emoji
    }

    public var clientIDBytes: [UInt8] { Hex.decode(clientID) ?? [] }
    public var changeAction: ChangeAction? { change.flatMap { name in ChangeAction.allCases.first { $0.name == name } } }
    var isValid: Bool {
        clientID.count == 32 && Hex.decode(clientID) != nil && conversationID != 0
            && (change == nil || (changeAction != nil && (target ?? 0) > 0))
    }
}

/// A file waiting in the outbox: a private copy (so editing or deleting the original after
/// /send-file changes nothing), its announced name, type and hash, and once announced the
/// server's upload id (the upload resumes from the server's offset after any restart).
public struct OutboxFile: Codable, Equatable, Sendable {
    public var copy: String
    public var name: String
    public var size: UInt64
    public var mediaType: String
    /// 64 hex digits.
    public var sha256: String
    public var fileID: String?
    /// The server holds the whole file: only the SEND is left.
    public var uploaded: Bool?
    enum CodingKeys: String, CodingKey {
        case copy, name, size, mediaType = "media_type", sha256, fileID = "file_id", uploaded
    }
}

/// The durable queue of unacknowledged messages, a JSON file in the account's directory.
///
/// A message is written here (temp file, fsync, rename) before it is shown as sending, and
/// leaves only after SEND_ACK, once the acked message is in the local store. So it survives
/// `kill -9`; a resend after a crash is stored once because the server dedupes by client id.
/// A file that does not parse is moved aside (never deleted) and the outbox starts empty.
public final class Outbox {
    struct FileFormat: Codable {
        var version: Int
        var entries: [OutboxEntry]
    }

    public let path: String
    public private(set) var entries: [OutboxEntry] = []
    /// Set when the file on disk was corrupt: says where it was moved. Shown to the user once.
    public private(set) var recoveryNotice: String?
    private var dirty = false

    public init(path: String) throws {
        self.path = path
        guard let data = FileManager.default.contents(atPath: path) else { return }
        if let file = try? JSONDecoder().decode(FileFormat.self, from: data), file.entries.allSatisfy(\.isValid) {
            entries = file.entries
            return
        }
        let aside = Outbox.corruptPath(for: path)
        guard rename(path, aside) == 0 else {
            throw AtomicFile.WriteError(path: path, step: "rename of the corrupt outbox", errno: errno)
        }
        AtomicFile.syncDirectory(of: path)
        recoveryNotice = "the outbox file \(path) was corrupt; it was moved to \(aside) and the outbox starts empty"
    }

    public var isEmpty: Bool { entries.isEmpty }

    public func entries(in conversationID: UInt64) -> [OutboxEntry] {
        entries.filter { $0.conversationID == conversationID }
    }

    /// Durable before it returns: the caller shows the message as sending only afterwards.
    public func append(_ entry: OutboxEntry) throws {
        try save(entries + [entry])
    }

    /// Replaces an entry (a file's upload id once announced), durably.
    public func update(_ entry: OutboxEntry) throws {
        try save(entries.map { $0.clientID == entry.clientID ? entry : $0 })
    }

    public func remove(clientID: String) throws {
        guard entries.contains(where: { $0.clientID == clientID }) else { return }
        try save(entries.filter { $0.clientID != clientID })
    }

    /// Removes an acknowledged entry in memory only; `flush()` writes it later. Losing that
    /// write in a crash only means a resend, which the server answers as a duplicate, so
    /// acks need not pay a file rewrite and fsync each.
    public func removeDeferred(clientID: String) {
        let before = entries.count
        entries.removeAll { $0.clientID == clientID }
        if entries.count != before { dirty = true }
    }

    /// Writes removals made with `removeDeferred`, if any.
    public func flush() throws {
        guard dirty else { return }
        try save(entries)
    }

    private func save(_ new: [OutboxEntry]) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = try encoder.encode(FileFormat(version: 1, entries: new))
        try AtomicFile.write(data, to: path)
        entries = new
        dirty = false
    }

    /// `outbox.json.corrupt-20261122T052100Z`, with a counter when that name is taken.
    static func corruptPath(for path: String) -> String {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = TimeZone(identifier: "UTC")
        f.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        let base = path + ".corrupt-" + f.string(from: Date())
        var candidate = base
        var n = 1
        while FileManager.default.fileExists(atPath: candidate) {
            n += 1
            candidate = base + "-\(n)"
        }
        return candidate
    }

    /// A fresh client id: random UUID bytes.
    public static func newClientID() -> String {
        let u = UUID().uuid
        return Hex.encode([u.0, u.1, u.2, u.3, u.4, u.5, u.6, u.7, u.8, u.9, u.10, u.11, u.12, u.13, u.14, u.15])
    }
}
