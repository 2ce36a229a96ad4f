/// What the server stores from every message: its action items and its decision, nothing else.
/// Clarity and tone are for drafts (`/check`, the pre-send check), and the tone rules are the
/// dearest part of a judgement (most of its time in a profile of the message path), so the
/// extraction that runs on every committed message skips both (BENCHMARKS.md, issue 13).
extension LocalEngine {
    public func extract(_ message: MessageToJudge) -> Judgement {
        TextMemo.during {
            Judgement(actions: ActionRules.found(message).map(\.item), clarity: [], tone: [],
                      decision: DecisionRules.decision(message), engine: info)
        }
    }
}
