import Foundation
import MessageAIProtocol

/// A message as one line: `[CONVERSATION] HH:MM SENDER: TEXT`, in the REPL with its reference
/// (`[alice] 10:42 #17 alice: hi`) for /info and /history before. In colour the sender has the
/// colour of its name, one's own messages are grey, a message that mentions `me` (@name or
/// the name as a word) bold yellow.
public struct MessageLine {
    public let message: StoredMessage
    public let conversation: String
    /// Show `#SEQ` (the REPL).
    public let showsRef: Bool
    /// The user's own name, if logged in.
    public let me: String?

    private var head: String {
        let ref = showsRef && message.seq > 0 ? "#\(message.seq) " : ""
        return "[\(conversation)] \(Output.clock(message.serverTime)) \(ref)"
    }

    public var text: String { head + message.sender + ": " + message.text }

    public var segments: [Segment] {
        if let me, message.sender == me { return [Segment(text, .own)] }
        let mentioned = me.map { me in
            message.text.lowercased().split(whereSeparator: { !$0.isLetter && !$0.isNumber && $0 != "_" }).contains { $0 == me.lowercased() }
        } ?? false
        return [Segment(head), Segment(message.sender, .user(message.sender)), Segment(": "), Segment(message.text, mentioned ? .mention : nil)]
    }

    /// The keys of a "message" event (and of the rows of /history and /find).
    public var jsonFields: [String: Any] {
        let m = message
        return ["conversation_id": m.conversationID, "conversation": conversation, "seq": m.seq, "sender": m.sender,
                "text": m.text, "server_time": m.serverTime, "client_id": m.clientID]
    }
}

/// A message arrived (pushed, or caught up by a sync): "message" events.
public enum MessageEvent: ClientEvent {
    /// In the conversation on screen, or one's own: the full line.
    case shown(MessageLine)
    /// Part of a catch-up too long to print (a summary notice follows): JSON only.
    case summarised(MessageLine)
    /// In another conversation, which now has `unread` unread messages. `notice`: the REPL's
    /// one-line notice, so it does not read as part of the conversation on screen; otherwise
    /// (scripts) the full line.
    case elsewhere(MessageLine, unread: Int, notice: Bool)

    public var type: String { "message" }

    public var jsonFields: [String: Any] {
        switch self {
        case .shown(let line), .summarised(let line): return line.jsonFields
        case .elsewhere(let line, let unread, _):
            var f = line.jsonFields
            f["unread"] = unread
            return f
        }
    }

    public var terminalLine: [Segment]? {
        switch self {
        case .shown(let line): return line.segments
        case .summarised: return nil
        case .elsewhere(let line, let unread, let notice):
            return Segment.line(notice ? MessageEvent.notice(line, unread: unread) : line.text)
        }
    }

    /// `* [team] carol: first line of the message… (2 unread, /next)`
    static func notice(_ line: MessageLine, unread: Int) -> String {
        let m = line.message
        let firstLine = m.text.split(separator: "\n", omittingEmptySubsequences: false).first.map(String.init) ?? ""
        let more = firstLine.count > 40 || firstLine.count < m.text.count
        let snippet = String(firstLine.prefix(40)) + (more ? "…" : "")
        return "* [\(line.conversation)] \(m.sender): \(snippet) (\(unread) unread, /next)"
    }
}

/// One's own message changed state: "state" events.
public enum MessageStateEvent: ClientEvent {
    /// Written to the outbox: the message's line, grey, with "(sending)" when `marked`.
    case queued(OutboxEntry, conversation: String, sender: String, marked: Bool)
    /// Sent, delivered or read; a line only when every transition is shown (verbose, scripts).
    case changed(StoredMessage, MessageState, conversation: String, shown: Bool)
    /// Refused by the server for good (an error line says why).
    case failed(OutboxEntry)

    public var type: String { "state" }

    public var jsonFields: [String: Any] {
        switch self {
        case .queued(let e, _, _, _):
            return ["conversation_id": e.conversationID, "client_id": e.clientID, "seq": 0, "state": "sending", "text": e.text]
        case .changed(let m, let state, _, _):
            return ["conversation_id": m.conversationID, "client_id": m.clientID, "seq": m.seq, "state": state.rawValue]
        case .failed(let e):
            return ["conversation_id": e.conversationID, "client_id": e.clientID, "seq": 0, "state": "failed"]
        }
    }

    public var terminalLine: [Segment]? {
        switch self {
        case .queued(let e, let name, let sender, let marked):
            return [Segment("[\(name)] \(Output.clock(e.created)) \(sender): \(e.text)", .own), Segment(marked ? " (sending)" : "")]
        case .changed(let m, let state, let name, let shown):
            guard shown else { return nil }
            let snippet = m.text.count > 40 ? String(m.text.prefix(40)) + "..." : m.text
            return Segment.line("[\(name)] \(state.rawValue): \(snippet)")
        case .failed:
            return nil
        }
    }
}

/// A member's delivered/read markers moved (JSON only: the terminal shows marks instead).
public struct ReceiptEvent: ClientEvent {
    public let receipt: Receipt

    public var type: String { "receipt" }
    public var jsonFields: [String: Any] {
        ["conversation_id": receipt.conversationID, "user": receipt.username,
         "delivered_seq": receipt.deliveredSeq, "read_seq": receipt.readSeq]
    }
    public var terminalLine: [Segment]? { nil }
}
