/// The assistant's on-demand frames: summaries, draft checks and rewrites, and the
/// per-conversation switch that keeps a conversation's text away from a language model.

/// One action item inside a summary (no id: a summary's items are not tracked).
public struct AssistAction: FieldCodable, Equatable {
    public var what: String
    public var who: String
    public var due: String
    public init(what: String, who: String, due: String = "") { self.what = what; self.who = who; self.due = due }
    public init(from f: FieldReader) throws(ProtocolError) {
        what = try f.string(1, "what"); who = try f.optionalString(2, "who"); due = try f.optionalString(3, "due")
    }
    public func encode(to w: inout FieldWriter) { w.string(1, what); w.optionalString(2, who); w.optionalString(3, due) }
}

/// A clarity or tone problem of a draft, with a reason a person can act on.
public struct AssistFlag: FieldCodable, Equatable {
    /// pronoun, reference, owner, timing (clarity); terse, harsh, shouting, passiveAggressive (tone).
    public var kind: String
    public var reason: String
    public init(kind: String, reason: String) { self.kind = kind; self.reason = reason }
    public init(from f: FieldReader) throws(ProtocolError) { kind = try f.string(1, "kind"); reason = try f.optionalString(2, "reason") }
    public func encode(to w: inout FieldWriter) { w.string(1, kind); w.optionalString(2, reason) }
}

/// ASSIST_SUMMARY: a summary of messages `from_seq`...`to_seq` of a conversation (0: the newest),
/// at most `limit` of them counted back from `to_seq` when `from_seq` is 0. Answered with
/// ASSIST_SUMMARY_RESULT.
public struct AssistSummary: WireMessage {
    public static let frameType = FrameType.assistSummary
    public var conversationID: UInt64
    public var fromSeq: UInt64
    public var toSeq: UInt64
    /// 0 means 50; capped at 500.
    public var limit: UInt64
    /// Answer with the local engine even when the server has a provider.
    public var localOnly: Bool
    public init(conversationID: UInt64, fromSeq: UInt64 = 0, toSeq: UInt64 = 0, limit: UInt64 = 0, localOnly: Bool = false) {
        self.conversationID = conversationID; self.fromSeq = fromSeq; self.toSeq = toSeq; self.limit = limit; self.localOnly = localOnly
    }
    public init(from f: FieldReader) throws(ProtocolError) {
        conversationID = try f.uint(1, "conversation_id"); fromSeq = try f.optionalUInt(2, "from_seq")
        toSeq = try f.optionalUInt(3, "to_seq"); limit = try f.optionalUInt(4, "limit"); localOnly = try f.bool(5, "local_only")
    }
    public func encode(to w: inout FieldWriter) {
        w.uint(1, conversationID); w.optionalUInt(2, fromSeq); w.optionalUInt(3, toSeq); w.optionalUInt(4, limit); w.optionalBool(5, localOnly)
    }
}

/// ASSIST_SUMMARY_RESULT: the summary, which engine wrote it, and how much of the range it saw.
public struct AssistSummaryResult: WireMessage {
    public static let frameType = FrameType.assistSummaryResult
    public var conversationID: UInt64
    /// The range actually summarised (0 and 0 when it held no messages).
    public var fromSeq: UInt64
    public var toSeq: UInt64
    /// Messages in the range, and how many of them the engine covered (a provider keeps the
    /// newest ones that fit its token budget).
    public var messageCount: UInt64
    public var covered: UInt64
    public var summary: String
    public var keyPoints: [String]
    public var decisions: [String]
    public var actions: [AssistAction]
    public var openQuestions: [String]
    public var engine: String
    public var engineVersion: String
    /// Set when the local engine answered in place of the provider, saying why, for people.
    public var fallbackReason: String
    /// Served from the server's cache (same range, engine and engine version).
    public var cached: Bool

    public init(conversationID: UInt64, fromSeq: UInt64, toSeq: UInt64, messageCount: UInt64, covered: UInt64, summary: String,
                keyPoints: [String] = [], decisions: [String] = [], actions: [AssistAction] = [], openQuestions: [String] = [],
                engine: String, engineVersion: String, fallbackReason: String = "", cached: Bool = false) {
        self.conversationID = conversationID; self.fromSeq = fromSeq; self.toSeq = toSeq; self.messageCount = messageCount
        self.covered = covered; self.summary = summary; self.keyPoints = keyPoints; self.decisions = decisions
        self.actions = actions; self.openQuestions = openQuestions; self.engine = engine; self.engineVersion = engineVersion
        self.fallbackReason = fallbackReason; self.cached = cached
    }
    public init(from f: FieldReader) throws(ProtocolError) {
        conversationID = try f.uint(1, "conversation_id"); fromSeq = try f.optionalUInt(2, "from_seq")
        toSeq = try f.optionalUInt(3, "to_seq"); messageCount = try f.optionalUInt(4, "message_count")
        covered = try f.optionalUInt(5, "covered"); summary = try f.optionalString(6, "summary")
        keyPoints = try f.strings(7, "key_points"); decisions = try f.strings(8, "decisions")
        actions = try f.records(9, "actions"); openQuestions = try f.strings(10, "open_questions")
        engine = try f.string(11, "engine"); engineVersion = try f.optionalString(12, "engine_version")
        fallbackReason = try f.optionalString(13, "fallback_reason"); cached = try f.bool(14, "cached")
    }
    public func encode(to w: inout FieldWriter) {
        w.uint(1, conversationID); w.optionalUInt(2, fromSeq); w.optionalUInt(3, toSeq); w.optionalUInt(4, messageCount)
        w.optionalUInt(5, covered); w.optionalString(6, summary)
        for s in keyPoints { w.string(7, s) }
        for s in decisions { w.string(8, s) }
        w.records(9, actions)
        for s in openQuestions { w.string(10, s) }
        w.string(11, engine); w.optionalString(12, engineVersion); w.optionalString(13, fallbackReason); w.optionalBool(14, cached)
    }
}

/// ASSIST_CHECK: judges a draft (not sent, not stored) in a conversation's context (0: none);
/// with `rewrite` it also asks the provider for a clearer or kinder version. Answered with
/// ASSIST_CHECK_RESULT.
public struct AssistCheck: WireMessage {
    public static let frameType = FrameType.assistCheck
    public var conversationID: UInt64
    public var text: String
    public var rewrite: Bool
    public init(conversationID: UInt64, text: String, rewrite: Bool = false) {
        self.conversationID = conversationID; self.text = text; self.rewrite = rewrite
    }
    public init(from f: FieldReader) throws(ProtocolError) {
        conversationID = try f.optionalUInt(1, "conversation_id"); text = try f.string(2, "text"); rewrite = try f.bool(3, "rewrite")
    }
    public func encode(to w: inout FieldWriter) { w.optionalUInt(1, conversationID); w.string(2, text); w.optionalBool(3, rewrite) }
}

public struct AssistCheckResult: WireMessage {
    public static let frameType = FrameType.assistCheckResult
    public var clarity: [AssistFlag]
    public var tone: [AssistFlag]
    public var actions: [AssistAction]
    public var decision: String
    /// The suggested version (ASSIST_CHECK with `rewrite`); never applied by the server.
    public var rewrite: String
    public var engine: String
    public var engineVersion: String
    public var fallbackReason: String
    public init(clarity: [AssistFlag] = [], tone: [AssistFlag] = [], actions: [AssistAction] = [], decision: String = "",
                rewrite: String = "", engine: String, engineVersion: String, fallbackReason: String = "") {
        self.clarity = clarity; self.tone = tone; self.actions = actions; self.decision = decision; self.rewrite = rewrite
        self.engine = engine; self.engineVersion = engineVersion; self.fallbackReason = fallbackReason
    }
    public init(from f: FieldReader) throws(ProtocolError) {
        clarity = try f.records(1, "clarity"); tone = try f.records(2, "tone"); actions = try f.records(3, "actions")
        decision = try f.optionalString(4, "decision"); rewrite = try f.optionalString(5, "rewrite")
        engine = try f.string(6, "engine"); engineVersion = try f.optionalString(7, "engine_version")
        fallbackReason = try f.optionalString(8, "fallback_reason")
    }
    public func encode(to w: inout FieldWriter) {
        w.records(1, clarity); w.records(2, tone); w.records(3, actions); w.optionalString(4, decision)
        w.optionalString(5, rewrite); w.string(6, engine); w.optionalString(7, engineVersion); w.optionalString(8, fallbackReason)
    }
}

/// ASSIST_SETTINGS_SET: any member turns the provider off (or back on) for a conversation.
/// Answered with ASSIST_SETTINGS; the other members' sessions get it pushed.
public struct AssistSettingsSet: WireMessage {
    public static let frameType = FrameType.assistSettingsSet
    public var conversationID: UInt64
    public var providerOff: Bool
    public init(conversationID: UInt64, providerOff: Bool) { self.conversationID = conversationID; self.providerOff = providerOff }
    public init(from f: FieldReader) throws(ProtocolError) {
        conversationID = try f.uint(1, "conversation_id"); providerOff = try f.bool(2, "provider_off")
    }
    public func encode(to w: inout FieldWriter) { w.uint(1, conversationID); w.optionalBool(2, providerOff) }
}

/// ASSIST_SETTINGS_GET: answered with ASSIST_SETTINGS.
public struct AssistSettingsGet: WireMessage {
    public static let frameType = FrameType.assistSettingsGet
    public var conversationID: UInt64
    public init(conversationID: UInt64) { self.conversationID = conversationID }
    public init(from f: FieldReader) throws(ProtocolError) { conversationID = try f.uint(1, "conversation_id") }
    public func encode(to w: inout FieldWriter) { w.uint(1, conversationID) }
}

/// ASSIST_SETTINGS: a conversation's assistant settings as the asking user sees them.
public struct AssistSettings: WireMessage {
    public static let frameType = FrameType.assistSettings
    public var conversationID: UInt64
    /// The conversation's text never goes to the provider (the local engine still answers).
    public var providerOff: Bool
    /// Who last set the switch (empty: never set).
    public var changedBy: String
    /// The server has a provider configured.
    public var providerAvailable: Bool
    /// Provider requests the asking user has left today (0 with no provider).
    public var budgetLeft: UInt64
    public init(conversationID: UInt64, providerOff: Bool, changedBy: String = "", providerAvailable: Bool = false, budgetLeft: UInt64 = 0) {
        self.conversationID = conversationID; self.providerOff = providerOff; self.changedBy = changedBy
        self.providerAvailable = providerAvailable; self.budgetLeft = budgetLeft
    }
    public init(from f: FieldReader) throws(ProtocolError) {
        conversationID = try f.uint(1, "conversation_id"); providerOff = try f.bool(2, "provider_off")
        changedBy = try f.optionalString(3, "changed_by"); providerAvailable = try f.bool(4, "provider_available")
        budgetLeft = try f.optionalUInt(5, "budget_left")
    }
    public func encode(to w: inout FieldWriter) {
        w.uint(1, conversationID); w.optionalBool(2, providerOff); w.optionalString(3, changedBy)
        w.optionalBool(4, providerAvailable); w.optionalUInt(5, budgetLeft)
    }
}
