import Foundation

/// ASSISTANT.md's evaluation lines: a message to judge or a thread to summarise in, one
/// prediction object out (routed by `id`, plus the engine that answered).
public enum EvaluationFormat {
    public enum Input {
        case message(id: String, MessageToJudge)
        case thread(id: String, ThreadToSummarize)
    }

    public struct FormatError: Error, CustomStringConvertible {
        public var description: String
    }

    public static func parse(_ line: String) throws -> Input {
        guard let data = line.data(using: .utf8),
              let obj = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw FormatError(description: "not a JSON object")
        }
        let id = (obj["id"] as? String) ?? (obj["id"].map { "\($0)" } ?? "")
        func lines(_ v: Any?) -> [ChatLine] {
            ((v as? [[String: Any]]) ?? []).map { ChatLine(from: ($0["from"] as? String) ?? "", text: ($0["text"] as? String) ?? "") }
        }
        if obj["messages"] != nil {
            return .thread(id: id, ThreadToSummarize(participants: (obj["participants"] as? [String]) ?? [], messages: lines(obj["messages"])))
        }
        guard let text = obj["text"] as? String else { throw FormatError(description: "line \(id): no \"text\" and no \"messages\"") }
        let to: [String]
        if let list = obj["to"] as? [String] { to = list } else if let one = obj["to"] as? String { to = [one] } else { to = [] }
        return .message(id: id, MessageToJudge(from: (obj["from"] as? String) ?? "", to: to, text: text, context: lines(obj["context"])))
    }

    static func actions(_ items: [ActionItem]) -> [[String: Any]] {
        items.map { ["what": $0.what, "who": $0.who, "due": $0.due.map { $0 as Any } ?? NSNull()] }
    }

    static func flags(_ flags: [Flag]) -> [[String: Any]] { flags.map { ["kind": $0.kind.rawValue, "reason": $0.reason] } }

    public static func prediction(id: String, _ j: Judgement) -> [String: Any] {
        ["id": id, "actions": actions(j.actions), "clarity_flag": j.clarityFlag, "tone_flag": j.toneFlag,
         "decision": j.decision.map { $0 as Any } ?? NSNull(), "clarity": flags(j.clarity), "tone": flags(j.tone),
         "engine": j.engine.name, "engine_version": j.engine.version]
    }

    public static func prediction(id: String, _ s: ThreadSummary) -> [String: Any] {
        ["id": id, "summary": s.summary, "key_points": s.keyPoints, "actions": actions(s.actions), "decisions": s.decisions,
         "open_questions": s.openQuestions, "covered_messages": s.coveredMessages, "engine": s.engine.name, "engine_version": s.engine.version]
    }

    /// A message line that gives `sent_at` (ms since the epoch) and optionally the sender's
    /// `time_zone` gets, beside each action's `due` as written, the instant it resolves to:
    /// `due_at` (ms) and `due_time_zone`, as the server stores them. `due` itself is unchanged,
    /// so scoring by ASSISTANT.md's rules is unchanged.
    public static func addDueTimes(to prediction: [String: Any], from line: String) -> [String: Any] {
        guard let data = line.data(using: .utf8), let obj = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              let sent = (obj["sent_at"] as? NSNumber)?.uint64Value, var actions = prediction["actions"] as? [[String: Any]] else { return prediction }
        let zone = obj["time_zone"] as? String ?? ""
        for i in actions.indices {
            guard let due = actions[i]["due"] as? String, let r = DueTimes.resolve(due, sentAt: sent, timeZone: zone) else { continue }
            actions[i]["due_at"] = r.at
            actions[i]["due_time_zone"] = r.timeZone
        }
        var out = prediction
        out["actions"] = actions
        return out
    }

    public static func predict(_ line: String, engine: AssistantEngine) throws -> [String: Any] {
        switch try parse(line) {
        case .message(let id, let m): return addDueTimes(to: prediction(id: id, engine.judge(m)), from: line)
        case .thread(let id, let t): return prediction(id: id, engine.summarize(t))
        }
    }

    public static func jsonLine(_ obj: [String: Any]) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: obj, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}
