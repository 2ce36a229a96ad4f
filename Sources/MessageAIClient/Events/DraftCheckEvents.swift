import Foundation

/// The pre-send check's report on a draft: why it may need a second look, and what happened to
/// it (`held` on the REPL's line, `sent` anyway in warn mode, `not_sent` by a script's confirm).
public struct DraftCheckEvent: ClientEvent {
    public struct Finding: Sendable { public var task: String; public var kind: String; public var reason: String }
    public let text: String
    public let outcome: String
    public let mode: String
    public let findings: [Finding]
    public let engine: String

    public var type: String { "draft_check" }
    public var jsonFields: [String: Any] {
        ["text": text, "outcome": outcome, "mode": mode, "engine": engine,
         "flags": findings.map { ["task": $0.task, "kind": $0.kind, "reason": $0.reason] }]
    }
    public var terminalLine: [Segment]? {
        let how: String
        switch outcome {
        case "held": how = "Enter sends it as is, or edit it first; Ctrl-C cancels"
        case "sent": how = "sent anyway (/check mode confirm to be asked first)"
        default: how = "not sent (--check confirm holds flagged drafts in scripts)"
        }
        return Segment.line((["check: this draft may need a second look:"] + findings.map { "  \($0.task): \($0.reason)" } + ["  " + how])
            .joined(separator: "\n"))
    }
}

/// `/check mode`: the pre-send check's mode for this session.
public struct CheckModeEvent: ClientEvent {
    public let mode: DraftCheckMode

    public var type: String { "check_mode" }
    public var jsonFields: [String: Any] { ["mode": mode.rawValue] }
    public var terminalLine: [Segment]? {
        let what: String
        switch mode {
        case .off: what = "drafts are sent without a check"
        case .warn: what = "a flagged draft is sent with its reasons shown"
        case .confirm: what = "a flagged draft typed here waits: Enter sends it as is, edit it, or Ctrl-C cancels"
        }
        return Segment.line("pre-send check: \(mode.rawValue) (\(what))")
    }
}
