import Foundation
import MessageAIProtocol
import MessageAISQLite

/// An attachment as the local cache holds it, with the message it came on.
public struct StoredAttachment: Equatable {
    public var conversationID: UInt64
    public var seq: UInt64
    public var sender: String
    public var attachment: Attachment
    /// 32 hex digits: what /save and /open take (a unique prefix is enough).
    public var fileIDHex: String { Hex.encode(attachment.fileID) }
}

extension LocalStore {
    static let attachmentsTable = """
        CREATE TABLE IF NOT EXISTS attachments(
            conversation_id INTEGER NOT NULL, seq INTEGER NOT NULL, file_id BLOB NOT NULL, sender TEXT NOT NULL,
            record BLOB NOT NULL, PRIMARY KEY(conversation_id, seq));
        CREATE INDEX IF NOT EXISTS attachments_by_file ON attachments(file_id);
        """

    /// Keeps the whole record (thumbnail included when the push had one).
    func insertAttachment(_ a: Attachment, of m: ChatMessage) throws {
        try db.run("INSERT OR REPLACE INTO attachments(conversation_id, seq, file_id, sender, record) VALUES(?,?,?,?,?)",
                   m.conversationID, m.seq, a.fileID, m.senderUsername, a.bytes)
    }

    /// Replaces the record of the attachment on message `s.seq` (a thumbnail fetched after
    /// a history page or a sync, kept for offline /history).
    func updateAttachment(_ s: StoredAttachment) throws {
        try db.run("UPDATE attachments SET record=? WHERE conversation_id=? AND seq=?", s.attachment.bytes, s.conversationID, s.seq)
    }

    /// The attachments on messages `seqs` of a conversation (a /history page), oldest first.
    public func attachments(in conversationID: UInt64, seqs: ClosedRange<UInt64>) throws -> [StoredAttachment] {
        try db.query("SELECT conversation_id, seq, sender, record FROM attachments WHERE conversation_id=? AND seq BETWEEN ? AND ? ORDER BY seq",
                     conversationID, seqs.lowerBound, seqs.upperBound, row: LocalStore.attachmentRow).compactMap { $0 }
    }

    private static func attachmentRow(_ r: Statement) -> StoredAttachment? {
        guard let a = try? Attachment(from: FieldReader(r.blob(3))) else { return nil }
        return StoredAttachment(conversationID: r.uint64(0), seq: r.uint64(1), sender: r.string(2), attachment: a)
    }

    /// The attachments of a conversation, oldest first.
    public func attachments(in conversationID: UInt64) throws -> [StoredAttachment] {
        try db.query("SELECT conversation_id, seq, sender, record FROM attachments WHERE conversation_id=? ORDER BY seq",
                     conversationID, row: LocalStore.attachmentRow).compactMap { $0 }
    }

    /// The attachments whose file id starts with `prefix` (hex), or the one on message #SEQ of
    /// `conversationID` when the key is "#SEQ".
    public func attachments(matching key: String, conversationID: UInt64?) throws -> [StoredAttachment] {
        if key.hasPrefix("#"), let seq = UInt64(key.dropFirst()), let cid = conversationID {
            return try db.query("SELECT conversation_id, seq, sender, record FROM attachments WHERE conversation_id=? AND seq=?",
                                cid, seq, row: LocalStore.attachmentRow).compactMap { $0 }
        }
        let lower = key.lowercased()
        guard !lower.isEmpty, lower.allSatisfy(\.isHexDigit) else { return [] }
        let all = try db.query("SELECT conversation_id, seq, sender, record FROM attachments ORDER BY seq", row: LocalStore.attachmentRow)
        var byFile: [String: StoredAttachment] = [:]
        for a in all.compactMap({ $0 }) where a.fileIDHex.hasPrefix(lower) { byFile[a.fileIDHex] = byFile[a.fileIDHex] ?? a }
        return Array(byFile.values)
    }
}
