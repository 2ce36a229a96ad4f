import Foundation

/// Runs input lines one after another (a command that waits, like /wait or a server request,
/// holds the next line back), and at end of input waits for the outbox to drain and exits.
/// The exit status is 0 only when every line succeeded and nothing is left queued.
public final class CommandRunner {
    public let client: Client
    /// A typed or piped line, or a paste to send as one message whatever it starts with.
    private enum Input { case line(String), message(String) }
    private var pending: [Input] = []
    private var busy = false
    private var ending = false
    /// Piped input waits once, before its first line, for the connection to settle.
    private var settled = false
    public private(set) var failures = 0
    /// Called with the exit status once input has ended and the outbox drained (or timed out).
    public var onExit: (Int32) -> Void = { exit($0) }
    /// Called when a line finished (the REPL redraws its prompt).
    public var onIdle: () -> Void = {}
    /// Set in the REPL: /quit and Ctrl-D leave at once instead of waiting for the outbox,
    /// with the same exit status rule as scripts.
    public var quitNow: ((Int32) -> Void)?

    public init(client: Client) { self.client = client }

    public var isBusy: Bool { busy }

    public func submit(_ line: String) {
        guard !ending else { return }
        pending.append(.line(line))
        pump()
    }

    /// Sends `text` as one message, even when a line of it starts with "/" (a paste).
    public func submitMessage(_ text: String) {
        guard !ending else { return }
        pending.append(.message(text))
        pump()
    }

    /// Leaves now (the REPL's /quit, Ctrl-D, a second Ctrl-C): queued messages stay in the
    /// durable outbox for the next start.
    public func quit() {
        guard let quitNow else { endOfInput(); return }
        let left = client.outbox?.entries.count ?? 0
        quitNow(failures == 0 && left == 0 && client.failedMessages == 0 ? 0 : 1)
    }

    /// Calls `more` once the runner takes another line of piped input: the line before has
    /// been taken and the outbox accepts more (`outboxAccepts`), or a command waits for the
    /// end of input (/follow), which only reading on can bring.
    public func whenAcceptingInput(_ more: @escaping () -> Void) {
        client.wait(upTo: 365 * 86_400, until: { [weak self] in
            guard let self else { return true }
            return client.readsToEndOfInput || (pending.isEmpty && client.outboxAccepts)
        }) { _ in more() }
    }

    public func endOfInput() {
        if quitNow != nil { quit(); return }
        client.inputEnded = true
        pump()
    }

    private func pump() {
        guard !busy else { return }
        if !settled && !client.config.interactive {
            settled = true
            busy = true
            client.whenConnectionSettled { [weak self] in
                self?.busy = false
                self?.pump()
            }
            return
        }
        guard !pending.isEmpty else {
            if client.inputEnded && !ending { ending = true; drainAndExit() }
            return
        }
        let input = pending.removeFirst()
        busy = true
        let line: String
        switch input {
        case .line(let l): line = l
        case .message(let text):
            if case .failure(let e) = client.queueMessage(text) { report("send", e) }
            DispatchQueue.main.async { [weak self] in self?.busy = false; self?.onIdle(); self?.pump() }
            return
        }
        execute(line) { [weak self] in
            // Next line on a fresh turn of the queue, never recursively.
            DispatchQueue.main.async {
                self?.busy = false
                self?.onIdle()
                self?.pump()
            }
        }
        // The line was taken (a message is in the outbox by now): the reader may go on.
        client.checkWaiters()
    }

    /// Runs one line; `done` after it finished (successfully or not).
    func execute(_ line: String, done: @escaping () -> Void) {
        switch InputLine.parse(line) {
        case .empty:
            done()
        case .message(let text):
            guard DraftCheck.beforeSending(client, text) else {
                report("send", ClientError("flagged", "not sent: the pre-send check flagged it (see above)")); done(); return
            }
            if case .failure(let e) = client.queueMessage(text) { report("send", e) }
            done()
        case .command(let name, let args):
            guard let spec = CommandTable.spec(name) else {
                report(name, ClientError("unknown_command", "unknown command \(name); /help lists the commands"))
                done(); return
            }
            guard args.count >= spec.minArgs && args.count <= spec.maxArgs else {
                report(name, .usage(spec.usage)); done(); return
            }
            guard !spec.needsLogin || client.session != nil else { report(name, .notLoggedIn); done(); return }
            if name == "/quit" {
                if quitNow != nil { quit(); return }
                pending.removeAll()
                client.inputEnded = true
            }
            let run = { [self] in
                let inv = Invocation(client: client, name: name, args: args) { [weak self] error in
                    if let error { self?.report(name, error) }
                    done()
                }
                spec.run(inv)
            }
            if spec.needsServer {
                client.whenReady(needsSession: spec.needsLogin) { [weak self] error in
                    if let error { self?.report(name, error); done() } else { run() }
                }
            } else if spec.needsSync {
                client.whenSynced(run)
            } else {
                run()
            }
        }
    }

    private func report(_ command: String, _ error: ClientError) {
        failures += 1
        client.output.error(command: command, error)
    }

    /// End of input: wait for the outbox to empty (and for a sync in progress, so what arrived
    /// is acknowledged as delivered), then exit. --drain-timeout bounds the time without
    /// progress, not the whole wait: each acknowledged message, and each wait the server's rate
    /// limit imposes, moves the deadline, so a long script finishes at the server's pace while
    /// an unreachable server still ends it after the timeout.
    private func drainAndExit() {
        let timeout = client.config.drainTimeout
        var left = client.outbox?.entries.count ?? 0
        let drained = { [client] in (client.outbox?.isEmpty ?? true) && !client.isSyncing }
        let finish = { [self] in
            let left = client.outbox?.entries.count ?? 0
            if left > 0 {
                client.output.write("\(left) message(s) still queued in the outbox; they are sent on the next start\n", .err)
                if client.output.json {
                    client.output.emit(ErrorEvent(command: "", ClientError("queued", "\(left) message(s) still queued")))
                }
            }
            let ok = failures == 0 && left == 0 && client.failedMessages == 0
            client.shutdown()
            onExit(ok ? 0 : 1)
        }
        // Wakes when the outbox is drained or one more message left it (progress moves the
        // deadline); a wait the server's pace imposes extends it too.
        func step() {
            let now = DispatchTime.now().uptimeNanoseconds
            let paced = client.sendsDueAt.map { $0.uptimeNanoseconds > now ? Double($0.uptimeNanoseconds - now) / 1e9 : 0 } ?? 0
            client.wait(upTo: timeout + paced, until: { [client] in
                drained() || (client.outbox?.entries.count ?? 0) < left
            }) { [client] progressed in
                guard progressed, !drained() else { finish(); return }
                left = client.outbox?.entries.count ?? 0
                step()
            }
        }
        step()
    }
}
