import Foundation

/// The default engine: deterministic rules in pure Swift, no model, no network, milliseconds.
public struct LocalEngine: AssistantEngine {
    public static let name = "local"
    /// Bumped whenever a rule changes, so cached summaries made by older rules are not reused.
    public static let version = "0.5.8"

    public let info = EngineInfo(name: LocalEngine.name, version: LocalEngine.version)

    public init() {}

    // Each call reads its texts' sentences and words once (`TextMemo`), however many rules ask.
    public func judge(_ message: MessageToJudge) -> Judgement {
        TextMemo.during {
            let found = ActionRules.found(message)
            return Judgement(actions: found.map(\.item), clarity: ClarityRules.flags(message, found: found), tone: ToneRules.flags(message),
                             decision: DecisionRules.decision(message), engine: info)
        }
    }

    public func summarize(_ thread: ThreadToSummarize) -> ThreadSummary {
        TextMemo.during { ThreadSummarizer.summarize(thread, engine: info) }
    }
}
