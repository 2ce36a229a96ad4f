import Foundation
import MessageAIAssistant

/// The pre-send check: a draft that the local engine would flag (clarity or tone) is shown with
/// the reasons before it goes out. `confirm` holds a draft typed in the REPL (Enter again sends it
/// as is, editing sends the edited text, Ctrl-C cancels); `warn` shows the reasons and sends;
/// `off` sends without judging. Judged on this device with the conversation's cached messages.
public enum DraftCheckMode: String, CaseIterable, Sendable {
    case off, warn, confirm

    /// A person at a terminal is asked; a script is never held up unless it asks (`--check`).
    public static func standard(interactive: Bool) -> DraftCheckMode { interactive ? .confirm : .off }
}

enum DraftCheck {
    typealias Finding = (task: String, flag: Flag)

    /// What the engine finds in `text` as the next message of the current conversation; empty
    /// when none is open or nothing is wrong.
    static func findings(_ client: Client, _ text: String) -> [Finding] {
        guard let cid = client.currentConversation, let store = client.store, let me = client.username?.lowercased() else { return [] }
        // Over the limit it is refused before sending anyway (with the count): judging 100,000
        // pasted characters first kept the REPL busy for many seconds before that error.
        guard text.unicodeScalars.count <= client.messageLimit else { return [] }
        let recent = (try? store.messages(in: cid, limit: AssistantCommands.contextSize)) ?? []
        let members = (try? store.conversation(cid))?.members.map { $0.username.lowercased() } ?? []
        let others = members.filter { $0 != me }
        let draft = MessageToJudge(from: me, to: others.isEmpty ? [client.conversationName(cid, fallback: "")] : others, text: text,
                                   context: AssistantCommands.lines(recent))
        let j = AssistantCommands.engine.judge(draft)
        return j.clarity.map { ("clarity", $0) } + j.tone.map { ("tone", $0) }
    }

    /// Prints the reasons above the prompt (a `draft_check` event in --json). `outcome`: held,
    /// sent or not_sent.
    static func report(_ client: Client, _ text: String, _ found: [Finding], outcome: String) {
        client.output.emit(DraftCheckEvent(text: text, outcome: outcome, mode: client.draftCheck.rawValue,
                                           findings: found.map { .init(task: $0.task, kind: $0.flag.kind.rawValue, reason: $0.flag.reason) },
                                           engine: AssistantCommands.engine.info.name))
    }

    /// The runner's part, for a message line: `warn` reports and sends; `confirm` without a
    /// terminal reports and does not send (the REPL's editor holds typed drafts itself).
    /// Returns false when the message must not be sent.
    static func beforeSending(_ client: Client, _ text: String) -> Bool {
        let mode = client.draftCheck
        guard mode == .warn || (mode == .confirm && !client.config.interactive) else { return true }
        let found = findings(client, text)
        guard !found.isEmpty else { return true }
        report(client, text, found, outcome: mode == .warn ? "sent" : "not_sent")
        return mode == .warn
    }

    /// `/check mode [off | warn | confirm]`: shows or sets the mode for this session.
    static func mode(_ inv: Invocation) {
        if inv.args.count == 2 {
            guard let m = DraftCheckMode(rawValue: inv.args[1].lowercased()) else { inv.fail(.usage("/check mode [off | warn | confirm]")); return }
            inv.client.draftCheck = m
        }
        inv.succeed(CheckModeEvent(mode: inv.client.draftCheck))
    }
}
