import Foundation
import MessageAIAssistant

/// "This would be quicker as a call" (`CallHintRule`): one dim line, once per conversation and
/// episode. Scripts get it as `call_hint`.
public struct CallHintEvent: ClientEvent {
    public let conversationID: UInt64
    /// The group's name, or nil in a direct conversation.
    public let group: String?
    /// The other speakers of the exchange.
    public let with: [String]
    public let hint: CallHint

    public var type: String { "call_hint" }
    public var jsonFields: [String: Any] {
        var f: [String: Any] = ["conversation_id": conversationID, "with": with, "question": hint.question,
                                "turns": hint.turns, "minutes": hint.minutes]
        if let group { f["conversation"] = group }
        return f
    }

    public var terminalLine: [Segment]? {
        let pace = hint.minutes < 1 ? "in under a minute" : "in \(hint.minutes) min"
        let place = group.map { " in [\($0)]" } ?? ""
        return [Segment("· this would be quicker as a call: \(hint.turns) back-and-forths with \(with.joined(separator: ", "))\(place) \(pace) on \"\(hint.question)\" (/set callhint off to stop these)", .note)]
    }
}
