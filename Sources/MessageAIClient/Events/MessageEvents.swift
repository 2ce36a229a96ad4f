import Foundation
import MessageAIProtocol

/// A message as one line: `[CONVERSATION] HH:MM SENDER: TEXT`, in the REPL with its reference
/// (`[alice] 10:42 #17 alice: hi`) for /info and /history before; an action (/me) reads
/// `[alice] 10:42 #18 * alice waves`. In colour the sender has the colour of its name, one's
/// own messages are grey, a message that mentions `me` (@name or the name as a word) bold yellow.
public struct MessageLine {
    public let message: StoredMessage
    public let conversation: String
    /// Show `#SEQ` (the REPL).
    public let showsRef: Bool
    /// The user's own name, if logged in.
    public let me: String?
    /// How the sender is named (a display name, see `Client.displayLabel`); nil: the username.
    public var senderName: String? = nil
    /// Replies and reactions (Events/ChangeEvents.swift): the quote line above, the reaction
    /// summary below, and after the text a suffix such as " (read)".
    public var quote: String? = nil
    public var reactions: String? = nil
    public var suffix = ""
    /// How a "message" event's message came: "live" (pushed), "gap" (a SYNC that filled a hole
    /// in the pushes), "sync" (the catch-up after connecting); nil in /history and /find rows.
    public var via: String? = nil

    private var head: String {
        let ref = showsRef && message.seq > 0 ? "#\(message.seq) " : ""
        return "[\(conversation)] \(Output.clock(message.serverTime, trailingSpace: true))\(ref)"
    }

    var who: String { senderName ?? message.sender }
    /// The action of a /me message ("waves"), nil for any other (and for a deleted one).
    var action: String? { message.deleted ? nil : Action.of(message.text).map { message.editedAt != 0 ? $0 + " (edited)" : $0 } }
    /// After the sender's name: ": TEXT", or " waves" for an action.
    var said: String { action.map { " " + $0 } ?? ": " + shownText }
    private var lead: String { action == nil ? "" : "* " }

    public var text: String { aroundText(head + lead + who + said + suffix) }

    public var segments: [Segment] {
        if let me, message.sender == me { return changeSegments([Segment(head + lead + who + said + suffix, .own)]) }
        let mentioned = me.map { Mention.matches(message.text, $0) } ?? false
        return changeSegments([Segment(head + lead), Segment(who, .user(message.sender)), Segment(action == nil ? ": " : " "),
                               Segment(action ?? shownText, mentioned ? .mention : nil), Segment(suffix)])
    }

    /// The keys of a "message" event (and of the rows of /history and /find): `text` as sent;
    /// an action also has `action`, a sender shown by another name `sender_name` (added
    /// after 0.2.0; the other keys are unchanged).
    public var jsonFields: [String: Any] {
        let m = message
        var f: [String: Any] = ["conversation_id": m.conversationID, "conversation": conversation, "seq": m.seq, "sender": m.sender,
                                "text": m.text, "server_time": m.serverTime, "client_id": m.clientID]
        if let action { f["action"] = action }
        if let senderName, senderName != m.sender { f["sender_name"] = senderName }
        if let via { f["via"] = via }
        return changeFields(f)
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

    /// `* [team] carol: first line of the message… (2 unread, /next)`, `* [team] carol waves (…)`
    static func notice(_ line: MessageLine, unread: Int) -> String {
        let body = line.action ?? line.message.text
        let firstLine = body.split(separator: "\n", omittingEmptySubsequences: false).first.map(String.init) ?? ""
        let more = firstLine.count > 40 || firstLine.count < body.count
        let snippet = String(firstLine.prefix(40)) + (more ? "…" : "")
        return "* [\(line.conversation)] \(line.who)\(line.action == nil ? ": " : " ")\(snippet) (\(unread) unread, /next)"
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
            return [Segment("[\(name)] \(Output.clock(e.created, trailingSpace: true))\(Client.ownLine(sender, e.text))", .own),
                    Segment(marked ? " (sending)" : "")]
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
