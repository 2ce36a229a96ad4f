import Foundation

/// One run of a command: its arguments and how it reports back. A handler calls exactly one
/// of `succeed` or `fail`, now or later (after a server answer or a wait).
public final class Invocation {
    public let client: Client
    /// The command as typed in the table, such as "/group create".
    public let name: String
    public let args: [String]
    private let completion: (ClientError?) -> Void
    private var finished = false

    init(client: Client, name: String, args: [String], completion: @escaping (ClientError?) -> Void) {
        self.client = client
        self.name = name
        self.args = args
        self.completion = completion
    }

    var output: Output { client.output }

    /// The arguments from `index` on, joined by single spaces (display names, group names).
    func rest(from index: Int) -> String {
        index < args.count ? args[index...].joined(separator: " ") : ""
    }

    /// Emits `event` as the command's answer and finishes successfully.
    func succeed(_ event: ClientEvent) {
        output.emit(event)
        finish(nil)
    }

    /// Answers with a `Reply` of `type` (default "ok", which also carries "command").
    func succeed(_ type: String = "ok", _ fields: [String: Any] = [:], plain: String?) {
        var f = fields
        if type == "ok" { f["command"] = name }
        succeed(Reply(type, f, text: plain))
    }

    func fail(_ error: ClientError) { finish(error) }

    func fail(_ code: String, _ message: String) { finish(ClientError(code, message)) }

    private func finish(_ error: ClientError?) {
        guard !finished else { return }
        finished = true
        completion(error)
    }
}
