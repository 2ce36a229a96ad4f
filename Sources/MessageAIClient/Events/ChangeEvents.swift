import Foundation
import MessageAIProtocol

/// How replies, edits, deletes and reactions read on a message line:
///
/// ```
///   ↪ alice: the deploy moved to…
/// [deploys] 10:42 #7 bob: thanks (edited)
///   👍 3  🎉 1
/// ```
extension MessageLine {
    /// "message deleted", or the text with "(edited)".
    var shownText: String {
        if message.deleted { return "message deleted" }
        return message.editedAt != 0 ? message.text + " (edited)" : message.text
    }

    func aroundText(_ line: String) -> String {
        [quote, line, reactions.map { "  " + $0 }].compactMap { $0 }.joined(separator: "\n")
    }

    func changeSegments(_ line: [Segment]) -> [Segment] {
        (quote.map { [Segment($0 + "\n")] } ?? []) + line + (reactions.map { [Segment("\n  " + $0)] } ?? [])
    }

    func changeFields(_ fields: [String: Any]) -> [String: Any] {
        var f = fields
        let m = message
        if m.replyTo != 0 { f["reply_to"] = m.replyTo }
        if m.editedAt != 0 { f["edited_at"] = m.editedAt }
        if m.deleted { f["deleted"] = true }
        if let reactions { f["reactions"] = reactions }
        return f
    }

    /// "  ↪ alice: the deploy moved to…" for a reply to `original` (nil: not held here).
    static func quote(of original: StoredMessage?, seq: UInt64) -> String {
        guard let original else { return "  ↪ #\(seq)" }
        if original.deleted { return "  ↪ \(original.sender): deleted message" }
        let flat = original.text.replacingOccurrences(of: "\n", with: " ")
        return "  ↪ \(original.sender): " + (flat.count > 40 ? String(flat.prefix(40)) + "…" : flat)
    }
}

/// A reaction, edit or delete arrived or was acknowledged: one "change" event each. Live ones
/// print a line; those a sync caught up on are JSON only (the messages show their state).
public struct ChangeEvent: ClientEvent {
    public let change: MessageChange
    public let conversation: String
    /// The target's reaction summary after the change ("👍 3  🎉 1").
    public let reactions: String
    public let live: Bool

    public var type: String { "change" }

    public var jsonFields: [String: Any] {
        let c = change
        var f: [String: Any] = ["conversation_id": c.conversationID, "conversation": conversation, "seq": c.seq,
                                "target_seq": c.targetSeq, "action": c.changeAction?.name ?? "unknown", "user": c.actorUsername,
                                "server_time": c.serverTime]
        switch c.changeAction {
        case .react?, .unreact?:
            f["emoji"] = c.emoji
            f["reactions"] = reactions
        case .edit?:
            f["text"] = c.text
        default:
            break
        }
        return f
    }

    public var terminalLine: [Segment]? {
        guard live else { return nil }
        let c = change
        let head = "[\(conversation)] "
        switch c.changeAction {
        case .react?, .unreact?:
            let verb = c.changeAction == .react ? "reacted \(c.emoji) to" : "removed \(c.emoji) from"
            return [Segment(head), Segment(c.actorUsername, .user(c.actorUsername)),
                    Segment(" \(verb) #\(c.targetSeq)" + (reactions.isEmpty ? "" : "  \(reactions)"))]
        case .edit?:
            return [Segment(head), Segment(c.actorUsername, .user(c.actorUsername)), Segment(" edited #\(c.targetSeq): \(c.text) (edited)")]
        case .delete?:
            return [Segment(head + "#\(c.targetSeq) from "), Segment(c.actorUsername, .user(c.actorUsername)), Segment(": message deleted")]
        case nil:
            return nil
        }
    }
}
