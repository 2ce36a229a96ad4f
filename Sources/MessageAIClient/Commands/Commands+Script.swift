import Foundation

/// /wait, /wait-messages, /follow (for scripts), /help, /quit
enum ScriptCommands {
    static let specs: [CommandSpec] = [
        CommandSpec("/wait", "/wait sent|delivered|read [SECONDS]",
                    "wait until every message this client sent in the current conversation is at least in that state (default 10 s)",
                    args: 1...2, run: wait),
        CommandSpec("/wait-messages", "/wait-messages N [SECONDS]",
                    "wait until the current conversation holds at least N messages locally (default 10 s)",
                    args: 1...2, run: waitMessages),
        CommandSpec("/follow", "/follow [SECONDS]",
                    "print incoming events for SECONDS, or without SECONDS until the end of input",
                    login: false, args: 0...1, run: follow),
        CommandSpec("/help", "/help [COMMAND]", "list commands, or show one command's usage", login: false, args: 0...2, run: help),
        CommandSpec("/quit", "/quit", "leave; in a terminal at once (queued messages are sent on the next start), from a pipe after waiting for the outbox like end of input", login: false, run: { $0.succeed(plain: nil) }),
    ]

    private static func seconds(_ inv: Invocation, at i: Int) -> Double? {
        guard i < inv.args.count else { return 10 }
        guard let s = Double(inv.args[i]), s >= 0, s <= 86_400 else {
            inv.fail(.usage(inv.client.commandUsage(inv.name) + " (SECONDS from 0 to 86400)"))
            return nil
        }
        return s
    }

    static func wait(_ inv: Invocation) {
        let order: [MessageState] = [.sent, .delivered, .read]
        guard let target = MessageState(rawValue: inv.args[0].lowercased()), let rank = order.firstIndex(of: target) else {
            inv.fail(.usage("/wait sent|delivered|read [SECONDS]")); return
        }
        guard let timeout = seconds(inv, at: 1), let cid = MessageCommands.currentConversation(inv) else { return }
        let client = inv.client
        var behind = 0
        let reached = { () -> Bool in
            guard let store = client.store, let outbox = client.outbox else { return false }
            let mine = (try? store.messages(sentHereIn: cid)) ?? []
            behind = outbox.entries(in: cid).count + mine.filter {
                let s = (try? store.state(of: $0.seq, in: cid)) ?? .sent
                return (order.firstIndex(of: s) ?? 0) < rank
            }.count
            return behind == 0
        }
        client.wait(upTo: timeout, until: reached) { ok in
            if ok { inv.succeed("ok", ["state": target.rawValue], plain: "all messages \(target.rawValue)") }
            else { inv.fail("timeout", "\(behind) message(s) not yet \(target.rawValue) after \(inv.args.count > 1 ? inv.args[1] : "10") s") }
        }
    }

    static func waitMessages(_ inv: Invocation) {
        guard let n = Int(inv.args[0]), n >= 0 else { inv.fail(.usage("/wait-messages N [SECONDS]")); return }
        guard let timeout = seconds(inv, at: 1), let cid = MessageCommands.currentConversation(inv) else { return }
        let client = inv.client
        var have = 0
        client.wait(upTo: timeout, until: { have = (try? client.store?.count(in: cid)) ?? 0; return have >= n }) { ok in
            if ok { inv.succeed("ok", ["count": have], plain: "\(have) message(s) here") }
            else { inv.fail("timeout", "only \(have) of \(n) message(s) after \(inv.args.count > 1 ? inv.args[1] : "10") s") }
        }
    }

    static func follow(_ inv: Invocation) {
        let client = inv.client
        if inv.args.isEmpty {
            client.readsToEndOfInput = true
            client.wait(upTo: 365 * 86_400, until: { client.inputEnded }) { _ in
                client.readsToEndOfInput = false
                inv.succeed(plain: nil)
            }
            return
        }
        guard let timeout = seconds(inv, at: 0) else { return }
        client.wait(upTo: timeout, until: { false }) { _ in inv.succeed(plain: nil) }
    }

    /// The terminal's width when a person reads the help; nil (one line per command, as
    /// before) when stdout is a pipe, so scripts that read it see no change.
    private static func helpWidth() -> Int? {
        isatty(1) == 1 ? TerminalText.width() : nil
    }

    static func help(_ inv: Invocation) {
        let table = CommandTable.all
        if !inv.args.isEmpty {
            var key = inv.args.joined(separator: " ").lowercased()
            if !key.hasPrefix("/") { key = "/" + key }
            let matches = table.filter { $0.name == key || $0.name.hasPrefix(key + " ") }
            guard !matches.isEmpty else { inv.fail("unknown_command", "no command \(key); /help lists them"); return }
            let width = helpWidth()
            // /help set also explains every setting the config file may hold.
            let settings = key == "/set" ? SettingsCommands.helpText(width: width) : []
            var fields: [String: Any] = ["commands": matches.map { ["name": $0.name, "usage": $0.usage, "help": $0.help] }]
            if key == "/set" { fields["settings"] = Settings.table.map { ["key": $0.key, "allowed": $0.allowed, "help": $0.help] } }
            inv.succeed("help", fields,
                        plain: (matches.map { spec in
                            ([spec.usage] + WordWrap.lines(spec.help, width: (width ?? Int.max / 2) - 4).map { "    " + $0 })
                                .joined(separator: "\n")
                        } + settings).joined(separator: "\n"))
            return
        }
        let usageWidth = table.map(\.usage.count).max() ?? 0
        let intro = "Type text to send it to the current conversation; commands start with /."
        let lines: [String]
        if let width = helpWidth() {
            lines = WordWrap.lines(intro, width: width)
                + table.flatMap { WordWrap.hanging($0.usage, labelWidth: usageWidth, $0.help, width: width) }
        } else {
            lines = [intro] + table.map { $0.usage.padding(toLength: usageWidth, withPad: " ", startingAt: 0) + "  " + $0.help }
        }
        inv.succeed("help", ["commands": table.map { ["name": $0.name, "usage": $0.usage, "help": $0.help] }],
                    plain: lines.joined(separator: "\n"))
    }
}
