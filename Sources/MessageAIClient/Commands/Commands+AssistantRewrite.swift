import Foundation
import MessageAIProtocol

/// /rewrite, /take and /assistant. A rewrite is only ever shown: the user's text is sent as
/// a suggestion only after they type /take (one deliberate command), so nothing they wrote
/// is replaced or sent behind their back; typing anything else simply keeps their own words.
extension ServerAssistantCommands {
    static func rewrite(_ inv: Invocation) {
        let c = inv.client
        let text = inv.rest(from: 0)
        guard c.assistantOnline else { inv.fail("assistant_unavailable", "this server has no assistant, so /rewrite cannot work here (/check works offline)"); return }
        let cid = c.currentConversation
        c.call(AssistCheck(conversationID: cid ?? 0, text: text, rewrite: true), for: inv, timeout: c.assistantAnswerTimeout,
               expect: AssistCheckResult.self) { r in
            var lines = (r.clarity.map { "clarity: \($0.reason)" } + r.tone.map { "tone: \($0.reason)" })
            var fields: [String: Any] = ["text": text, "rewrite": r.rewrite.isEmpty ? NSNull() : r.rewrite, "engine": r.engine,
                                         "engine_version": r.engineVersion, "clarity": r.clarity.map { ["kind": $0.kind, "reason": $0.reason] },
                                         "tone": r.tone.map { ["kind": $0.kind, "reason": $0.reason] },
                                         "fallback_reason": r.fallbackReason.isEmpty ? NSNull() : r.fallbackReason]
            if r.rewrite.isEmpty {
                c.pendingRewrite = nil
                lines.append("no suggestion" + (r.fallbackReason.isEmpty ? "" : ": " + r.fallbackReason) + "; your text is unchanged")
            } else {
                lines.append("suggestion: \(r.rewrite)")
                if let cid {
                    c.pendingRewrite = (cid, r.rewrite)
                    lines.append("/take sends it to [\(c.conversationName(cid, fallback: ""))]; nothing was sent")
                    fields["conversation_id"] = cid
                } else {
                    lines.append("nothing was sent")
                }
            }
            inv.succeed("rewrite", fields, plain: lines.joined(separator: "\n"))
        }
    }

    static func take(_ inv: Invocation) {
        let c = inv.client
        guard let pending = c.pendingRewrite else { inv.fail("nothing_to_accept", "no suggestion to accept: /rewrite TEXT first"); return }
        guard c.currentConversation == pending.conversationID else {
            inv.fail("nothing_to_accept", "the suggestion was for [\(c.conversationName(pending.conversationID, fallback: ""))]: open it again to /take")
            return
        }
        c.pendingRewrite = nil
        switch c.queueMessage(pending.text) {
        case .success: inv.succeed(plain: nil)
        case .failure(let e): inv.fail(e)
        }
    }

    static func settings(_ inv: Invocation) {
        let c = inv.client
        guard let cid = MessageCommands.currentConversation(inv) else { return }
        guard c.assistantOnline else { inv.fail("assistant_unavailable", "this server has no assistant (or you are offline)"); return }
        let name = c.conversationName(cid, fallback: "")
        let show = { (s: AssistSettings) in
            let provider = !s.providerAvailable ? "this server has no language model; the local assistant answers everything"
                : s.providerOff ? "the language model is off here" + (s.changedBy.isEmpty ? "" : " (set by \(s.changedBy))") + "; the local assistant still works"
                : "the language model may read this conversation for /summary and /rewrite (\(s.budgetLeft) requests left today)"
            inv.succeed("assistant_settings", AssistantView.settingsFields(s, conversation: name), plain: "[\(name)] \(provider)")
        }
        switch inv.args {
        case []:
            c.call(AssistSettingsGet(conversationID: cid), for: inv, expect: AssistSettings.self, show)
        case ["provider", "off"], ["provider", "on"]:
            c.call(AssistSettingsSet(conversationID: cid, providerOff: inv.args[1] == "off"), for: inv, expect: AssistSettings.self, show)
        default:
            inv.fail(.usage("/assistant [provider on | provider off]"))
        }
    }
}
