import Foundation
import MessageAIAssistant

/// The call hint (`CallHintRule`) on each message that arrives live or is acknowledged: shown
/// when the user is one of the two busiest speakers of the exchange, once per episode (the
/// question that opened it), and never for a conversation of more than `CallHintRule.maxMembers`.
extension Client {
    /// Messages read back: far more than a burst of `CallHintRule.window` holds at chat pace.
    static let callHintLookback = 60

    func considerCallHint(_ cid: UInt64) {
        guard config.callHint, let store, let me = username?.lowercased(),
              let conversation = (try? store.conversation(cid)).flatMap({ $0 }),
              conversation.members.count <= CallHintRule.maxMembers,
              let recent = try? store.messages(in: cid, limit: Client.callHintLookback) else { return }
        let kept = recent.filter { !$0.deleted }
        let lines = kept.map { TimedLine(from: $0.sender, text: $0.text, time: $0.serverTime) }
        guard let hint = CallHintRule.check(lines, members: conversation.members.count),
              hint.speakers.prefix(2).contains(me) else { return }
        let opened = kept[hint.start].seq
        guard callHintShown[cid] != opened else { return }
        callHintShown[cid] = opened
        output.emit(CallHintEvent(conversationID: cid, group: conversation.kind == .group ? conversation.name : nil,
                                  with: hint.speakers.filter { $0 != me }, hint: hint))
    }
}
