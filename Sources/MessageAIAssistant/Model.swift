import Foundation

/// One earlier message of a conversation, as the assistant sees it: who wrote it and its text.
public struct ChatLine: Sendable, Codable, Equatable {
    public var from: String
    public var text: String
    public init(from: String, text: String) { self.from = from; self.text = text }
}

/// A message (or draft) to judge, with up to a few earlier messages of the same conversation.
/// `to` holds one name for a direct message, several for a group.
public struct MessageToJudge: Sendable, Equatable {
    public var from: String
    public var to: [String]
    public var text: String
    public var context: [ChatLine]
    public init(from: String, to: [String], text: String, context: [ChatLine] = []) {
        self.from = from; self.to = to; self.text = text; self.context = context
    }
    public var isGroup: Bool { to.count > 1 }
}

/// A range of messages to summarise.
public struct ThreadToSummarize: Sendable, Equatable {
    public var participants: [String]
    public var messages: [ChatLine]
    public init(participants: [String], messages: [ChatLine]) { self.participants = participants; self.messages = messages }
}

/// Work someone is asked or has committed to do. `who` is a member's name in lower case, or
/// `recipient` for work given to a whole group (ASSISTANT.md's roles).
public struct ActionItem: Sendable, Codable, Equatable, Hashable {
    public var what: String
    public var who: String
    public var due: String?
    public init(what: String, who: String, due: String?) { self.what = what; self.who = who; self.due = due }
}

/// A clarity or tone problem, with a reason a person can act on.
public struct Flag: Sendable, Codable, Equatable {
    public enum Kind: String, Sendable, Codable {
        case pronoun, reference, owner, timing            // clarity
        case terse, harsh, shouting, passiveAggressive     // tone
    }
    public var kind: Kind
    public var reason: String
    public init(_ kind: Kind, _ reason: String) { self.kind = kind; self.reason = reason }
}

/// Which engine answered, so a stored or cached answer can be traced and invalidated.
public struct EngineInfo: Sendable, Codable, Equatable {
    public var name: String
    public var version: String
    /// Set when this engine answered in place of the configured one (a provider that timed out,
    /// failed or answered nonsense): which engine was asked and why it did not answer, for people.
    public var fallbackReason: String?
    public init(name: String, version: String, fallbackReason: String? = nil) {
        self.name = name; self.version = version; self.fallbackReason = fallbackReason
    }
}

/// The judgement of one message.
public struct Judgement: Sendable, Equatable {
    public var actions: [ActionItem]
    public var clarity: [Flag]
    public var tone: [Flag]
    public var decision: String?
    public var engine: EngineInfo
    public init(actions: [ActionItem], clarity: [Flag], tone: [Flag], decision: String?, engine: EngineInfo) {
        self.actions = actions; self.clarity = clarity; self.tone = tone; self.decision = decision; self.engine = engine
    }
    public var clarityFlag: Bool { !clarity.isEmpty }
    public var toneFlag: Bool { !tone.isEmpty }
}

/// The summary of a range of messages.
public struct ThreadSummary: Sendable, Equatable {
    public var summary: String
    public var keyPoints: [String]
    public var decisions: [String]
    public var actions: [ActionItem]
    public var openQuestions: [String]
    /// How many of the given messages the answer covered (a provider may cut long threads).
    public var coveredMessages: Int
    public var engine: EngineInfo
    public init(summary: String, keyPoints: [String], decisions: [String], actions: [ActionItem], openQuestions: [String],
                coveredMessages: Int, engine: EngineInfo) {
        self.summary = summary; self.keyPoints = keyPoints; self.decisions = decisions; self.actions = actions
        self.openQuestions = openQuestions; self.coveredMessages = coveredMessages; self.engine = engine
    }
}

/// A suggested clearer or kinder version of a draft; the user's text is never replaced by it.
public struct Rewrite: Sendable, Equatable {
    public var text: String
    public var engine: EngineInfo
    public init(text: String, engine: EngineInfo) { self.text = text; self.engine = engine }
}

/// What every engine implements (the local one here; a language-model provider elsewhere).
public protocol AssistantEngine: Sendable {
    var info: EngineInfo { get }
    func judge(_ message: MessageToJudge) -> Judgement
    func summarize(_ thread: ThreadToSummarize) -> ThreadSummary
    /// nil when the engine cannot rewrite (the local engine does not).
    func rewrite(_ message: MessageToJudge) -> Rewrite?
}

extension AssistantEngine {
    public func rewrite(_ message: MessageToJudge) -> Rewrite? { nil }
}
