import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Wires the pieces together and runs the main queue until the runner exits.
public enum ClientApp {
    nonisolated(unsafe) private static var signalSources: [DispatchSourceSignal] = []
    /// What the pre-send check found in the draft being held, for its report.
    nonisolated(unsafe) private static var pendingFindings: [DraftCheck.Finding] = []
    /// Ages "seen 5m ago" in the prompt while nothing else changes it.
    nonisolated(unsafe) private static var promptTimer: DispatchSourceTimer?

    public static func run(_ configuration: ClientConfiguration) -> Never {
        signal(SIGPIPE, SIG_IGN)
        // The data dir holds the session token and private messages: owner-only files.
        umask(0o077)
        let interactive = isatty(0) == 1
        var config = configuration
        config.interactive = interactive
        if interactive { TerminalText.useUTF8() }
        let output = Output(json: config.json)
        output.colour = Palette.enabled(config.color, json: config.json)
        output.timestampFormat = config.timestampFormat
        if interactive && isatty(1) == 1 { output.width = { TerminalText.width() } }
        let client = Client(config: config, output: output)
        let runner = CommandRunner(client: client)
        let repl = interactive ? EditlineEditor(historyPath: config.dataDir + "/history", completions: { completions(client, before: $0) }) : nil
        let editor: LineEditor = repl ?? {
            let reader = PlainLineReader()
            reader.whenReady = { runner.whenAcceptingInput($0) }
            return reader
        }()
        repl?.onEdit = { client.userTyping($0) }
        repl?.onPaste = { client.noteUserActivity(); runner.submitMessage($0) }
        KeyReader.lineLimit = { client.messageLimit }
        // The pre-send check holds a flagged draft typed at the prompt (confirm mode).
        repl?.holdDraft = { text in
            guard client.draftCheck == .confirm, !runner.isBusy else { return false }
            let found = DraftCheck.findings(client, text)
            pendingFindings = found
            return !found.isEmpty
        }
        repl?.onHeld = { text in DraftCheck.report(client, text, pendingFindings, outcome: "held") }
        client.clearScreen = repl.map { r in { r.clearScreen() } }
        output.write = { text, stream in editor.printAbove(text, stream) }
        client.passwordPrompt = { editor.readPassword($0, $1) }
        if config.interactive { client.prefill = { editor.prefill($0) } }
        if interactive {
            // The prompt reads the store; piped mode has no prompt, so skip the work.
            client.onPromptChange = { editor.setPrompt(prompt(client)) }
            runner.onIdle = { editor.setPrompt(prompt(client)) }
            // setPrompt redraws only when the text changed: at most once a minute here.
            let timer = DispatchSource.makeTimerSource(queue: .main)
            timer.schedule(deadline: .now() + 30, repeating: 30)
            timer.setEventHandler { editor.setPrompt(prompt(client)) }
            timer.resume()
            promptTimer = timer
        }
        runner.onExit = { code in
            editor.stop()
            exit(code)
        }
        if let repl {
            // A person quitting does not wait for the outbox: it is durable, and is sent on
            // the next start. Scripts (piped input) keep the drain wait at end of input.
            runner.quitNow = { status in
                let left = client.outbox?.entries.count ?? 0
                if left > 0 { output.say("\(left) message(s) stay queued; they are sent the next time you start messageai") }
                editor.stop()
                client.shutdown()
                exit(status)
            }
            repl.onQuit = { runner.quit() }
        }
        do {
            try client.start()
        } catch {
            output.error(command: "", ClientError("storage", "cannot start: \(error)"))
            exit(1)
        }
        for sig in [SIGINT, SIGTERM, SIGWINCH] {
            signal(sig, SIG_IGN)
            let s = DispatchSource.makeSignalSource(signal: sig, queue: .main)
            s.setEventHandler {
                if sig == SIGWINCH { repl?.resized(); return }
                // In the REPL Ctrl-C clears the line; quitting takes a second one on an empty line.
                if sig == SIGINT, let repl { repl.interrupt(); return }
                editor.stop()
                client.shutdown()
                exit(sig == SIGINT ? 130 : 143)
            }
            s.resume()
            signalSources.append(s)
        }
        if interactive {
            output.say("messageai \(ClientConfiguration.version): type /help for commands" +
                       (client.session.map { ", logged in as \($0.username)" } ?? ", /login or /register to start"))
            // Back where the last session left off, with its recent messages.
            if let cid = client.peekCurrent() {
                client.presentOpening(cid, name: client.conversationName(cid, fallback: ""), emit: { output.say($0) }) { rest in
                    if !rest.isEmpty { output.say(rest.joined(separator: "\n")) }
                }
                client.open(cid) {}
            }
            client.awayCatchUpAtStart()
        }
        editor.setPrompt(prompt(client))
        // A line typed is the user being here (the catch-up after being away counts from it).
        editor.start(onLine: { client.noteUserActivity(); runner.submit($0) }, onEOF: { runner.endOfInput() })
        dispatchMain()
    }

    /// `[bob (away: lunch)]> `, `[bob, seen 5m ago]> `, `[team, 3 members|offline, retry in 2s]> `:
    /// the conversation with the peer's presence or the group's size, the connection only when
    /// it is not online, unread counts elsewhere and who is typing here.
    static func prompt(_ client: Client) -> String {
        var parts: [String] = []
        if let cid = client.currentConversation {
            parts.append(client.conversationTitle(cid))
        } else {
            parts.append((client.username ?? "not logged in") + (client.ownAway.map { $0.isEmpty ? " (away)" : " (away: \($0))" } ?? ""))
        }
        if client.promptConnection != "online" { parts.append(client.promptConnection) }
        // One's own away mark stays in sight in a conversation too (irssi's "zZzZ").
        if client.currentConversation != nil, client.ownAway != nil { parts.append("you're away") }
        if let act = client.activity() { parts.append(act) }
        if let transfer = client.transfer { parts.append(transfer) }
        if let cid = client.currentConversation {
            let typing = client.typingUsers(in: cid)
            if !typing.isEmpty { parts.append("\(typing.joined(separator: ",")) typing") }
        }
        let queued = client.outbox?.entries.count ?? 0
        if queued > 0 {
            parts.append("\(queued) queued")
        } else if let cid = client.currentConversation, let mark = client.lastSentMark(in: cid) {
            parts.append(mark)
        }
        return "[" + parts.joined(separator: "|") + "]> "
    }

    /// Tab completion by context: commands first on the line, subcommands after /group,
    /// conversations after /open, usernames after /dm, /add and the like, members of the
    /// current conversation after "@" (and in message text).
    static func completions(_ client: Client, before: String) -> [String] {
        let words = before.split(separator: " ", omittingEmptySubsequences: true).map { $0.lowercased() }
        guard let store = client.store else { return CommandTable.words }
        let conversations = ((try? store.summaries()) ?? []).map(\.conversation)
        let groups = Set(conversations.filter { $0.kind == .group }.map(\.name))
        let users = ((try? store.knownNames()) ?? []).filter { !groups.contains($0) }
        var members: [String] = []
        if let cid = client.currentConversation, let c = try? store.conversation(cid) {
            members = c.members.map(\.username).filter { $0 != client.username }
        }
        if before.hasSuffix("@") { return members }
        guard let first = words.first, first.hasPrefix("/") else {
            return before.trimmingCharacters(in: .whitespaces).isEmpty ? CommandTable.words : members
        }
        switch (first, words.count) {
        case ("/group", 1): return CommandTable.all.compactMap { $0.name.hasPrefix("/group ") ? String($0.name.dropFirst(7)) : nil }
        case ("/open", _):
            // Conversations, then the short ids of this conversation's files (/open ID opens one).
            let files = client.currentConversation.flatMap { try? store.attachments(in: $0) } ?? []
            return conversations.map(\.name) + files.map { String($0.fileIDHex.prefix(8)) }
        case ("/help", 1): return CommandTable.words
        case ("/dm", 1), ("/add", 1), ("/remove", 1), ("/profile", 1), ("/search", 1), ("/group", _): return users
        default: return []
        }
    }
}
