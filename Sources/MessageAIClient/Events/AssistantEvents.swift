import Foundation
import MessageAIProtocol

/// Pushes from the server's assistant: an item added or changed, a conversation's provider
/// switch set by a member. Command answers (/actions, /summary ...) are `Reply`s built by
/// `AssistantView`, so both read the same.
public enum AssistantEvent: ClientEvent {
    /// An item the cache did not hold, or a newer rev of one it did (`known`). `me` decides
    /// whether a new action is this user's ("for you") and how a done mark reads ("you").
    case item(AssistItem, conversation: String, known: Bool, me: String, zone: String = "UTC")
    /// A newer rev of a cached item whose done mark did not change: its message was edited (new
    /// wording, owner or due) or deleted (empty text: withdrawn). JSON only: the edit or delete
    /// already has its own line.
    case updated(AssistItem, conversation: String, zone: String = "UTC")
    /// A member turned the language model off or on for a conversation.
    case settings(AssistSettings, conversation: String)

    public var type: String {
        switch self {
        case .item, .updated: return "assistant_item"
        case .settings: return "assistant_settings"
        }
    }

    public var jsonFields: [String: Any] {
        switch self {
        case .item(let i, let name, _, _, let zone), .updated(let i, let name, let zone):
            return AssistantView.itemFields(i, conversation: name, zone: zone)
        case .settings(let s, let name): return AssistantView.settingsFields(s, conversation: name)
        }
    }

    public var terminalLine: [Segment]? {
        switch self {
        case .updated: return nil
        case .item(let i, let name, let known, let me, let zone):
            if known {
                let who = i.doneBy.lowercased() == me.lowercased() ? "you" : i.doneBy
                return Segment.line(i.done ? "* [\(name)] \(who) marked #\(i.itemID) done: \(i.text)"
                                           : "* [\(name)] #\(i.itemID) is open again: \(i.text)")
            }
            // Only what asks something of this user is worth a line as it happens.
            guard i.kind == .action, i.who.lowercased() == me.lowercased(), i.from.lowercased() != me.lowercased() else { return nil }
            return Segment.line("* [\(name)] for you from \(i.from): \(i.text)" + AssistantView.dueText(i, zone: zone)
                                + " (/done \(i.itemID) when it is)")
        case .settings(let s, let name):
            let who = s.changedBy.isEmpty ? "a member" : s.changedBy
            return Segment.line("* [\(name)] \(who) turned the language model \(s.providerOff ? "off" : "on") here"
                                + (s.providerOff ? " (the local assistant still works)" : ""))
        }
    }
}
