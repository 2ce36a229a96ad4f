import Dispatch
import MessageAIAssistant
import MessageAIAssistantProvider
import MessageAIProtocol

/// The server's assistant: the engines, the queues they run on, and the hub-side bookkeeping.
///
/// Threading: the counters and `recent` belong to the hub queue (like all of ChatServer's
/// state). Engines run on `extractQueue` (one thread at nice 10: one message after another, in
/// commit order, so a busy assistant costs one core at most, and the hub wins the CPU) and `answerQueue` (summaries, checks, rewrites:
/// concurrent, bounded by `answersInFlight`). Their results hop back to the hub, which alone
/// touches the store and the connections.
// @unchecked Sendable: the counters and `recent` are touched on the hub queue only (above);
// the engines and queues it carries to `extractQueue`/`answerQueue` are lets.
final class Assistant: @unchecked Sendable {
    let config: AssistantConfiguration
    let local = LocalEngine()
    let provider: ProviderEngine?
    let extractQueue = ExtractionThread()
    let answerQueue = DispatchQueue(label: "messageai.assistant.answers", qos: .userInitiated, attributes: .concurrent)

    /// Messages committed and not yet handed to `extractQueue` (hub): they go together,
    /// `extractionLinger` after the first of them.
    var unextracted: [ChatMessage] = []
    var extractionScheduled = false
    static let extractionLinger: DispatchTimeInterval = .milliseconds(2)
    /// Messages handed to `extractQueue` and not yet stored (hub).
    var pendingExtractions = 0
    /// Messages not extracted because the queue was full (hub; logged).
    var skippedExtractions = 0
    /// A drain of the database's extraction jobs is running, and one was asked for meanwhile
    /// (hub; ChatServer+ExtractionJobs.swift).
    var drainingJobs = false
    var jobsWanted = false
    /// Summaries, checks and rewrites running on `answerQueue` (hub).
    var answersInFlight = 0
    var providerCallsInFlight = 0
    /// Messages whose local items are stored, waiting to be sent to the provider in one call
    /// per conversation (hub; `config.providerExtract` only). A conversation is in it from its
    /// first message until the batch is sent, `providerBatchDelay` later.
    var providerBatches: [UInt64: [ChatMessage]] = [:]
    /// The last few messages of each conversation seen by the extractor: the context of the
    /// next one (hub). Starts empty after a restart: the first message then has no context.
    var recent: [UInt64: [ChatLine]] = [:]
    static let contextSize = 4
    /// Past this many conversations `recent` starts over (its memory stays bounded).
    static let maxRecentConversations = 50_000
    /// Local answers running at once; past it a request is refused with server_busy.
    static let maxLocalAnswers = 16
    /// An item's text is cut to this many characters, so a page of 500 items stays far below
    /// the frame limit however long the messages were.
    static let maxItemText = 500
    /// Message text one summary reads, newest first (UTF-8 bytes): its answer then always fits
    /// in a frame, and a local summary of 500 long messages stays in milliseconds.
    static let maxSummaryBytes = 256 * 1024

    init(config: AssistantConfiguration) {
        self.config = config
        self.provider = config.provider.map { ProviderEngine($0, fallback: LocalEngine()) }
    }

    deinit { extractQueue.stop() }

    /// Records `line` as the newest message of the conversation; returns the context before it.
    func context(adding line: ChatLine, to conversationID: UInt64) -> [ChatLine] {
        if recent.count >= Self.maxRecentConversations && recent[conversationID] == nil { recent = [:] }
        let before = recent[conversationID] ?? []
        recent[conversationID] = Array((before + [line]).suffix(Self.contextSize))
        return before
    }

    /// Today as days since the epoch (UTC): the budget's unit.
    static func day(_ nowMillis: UInt64) -> UInt64 { nowMillis / 86_400_000 }

    /// The items a judgement yields for one message. `who` is resolved to a member's username
    /// ("sender" and a direct message's "recipient" by name; a group's "recipient" is
    /// "everyone"), so "mine" is a plain comparison in the store.
    /// `senderZone` places the due dates: "tomorrow" is the day after the message was written
    /// (its edit, for an edited one) on the sender's calendar; empty means UTC.
    static func items(from j: Judgement, message m: ChatMessage, members: [String], senderZone: String) -> [NewAssistItem] {
        let sender = m.senderUsername
        let others = members.filter { $0.lowercased() != sender.lowercased() }
        func owner(_ who: String) -> String {
            switch who.lowercased() {
            case "sender": return sender
            case "recipient", "everyone", "team", "all":
                return others.count == 1 ? others[0] : "everyone"
            case let name: return members.first { $0.lowercased() == name } ?? name
            }
        }
        var out: [NewAssistItem] = []
        let written = m.editedAt > 0 ? m.editedAt : m.serverTime
        for (i, a) in j.actions.enumerated() {
            var item = NewAssistItem(conversationID: m.conversationID, seq: m.seq, kind: .action, ordinal: i, text: String(a.what.prefix(maxItemText)),
                                     who: owner(a.who), due: a.due ?? "", senderID: m.senderID,
                                     engine: j.engine.name, engineVersion: j.engine.version)
            if let due = a.due, let r = DueTimes.resolve(due, sentAt: written, timeZone: senderZone) {
                item.dueAt = r.at; item.dueTimeZone = r.timeZone
            }
            out.append(item)
        }
        if let d = j.decision {
            out.append(NewAssistItem(conversationID: m.conversationID, seq: m.seq, kind: .decision, ordinal: 0, text: String(d.prefix(maxItemText)),
                                     senderID: m.senderID, engine: j.engine.name, engineVersion: j.engine.version))
        }
        return out
    }
}

extension AssistAction {
    init(_ a: ActionItem) { self.init(what: a.what, who: a.who, due: a.due ?? "") }
}

extension AssistFlag {
    init(_ f: Flag) { self.init(kind: f.kind.rawValue, reason: f.reason) }
}
