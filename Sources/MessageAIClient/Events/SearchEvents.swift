import Foundation

/// /find's answer ("search"): the matching messages, newest first. Queued messages (in the
/// outbox, not on the server yet) come first, as they are the newest, and are marked: in JSON
/// with "state": "sending" as in /history, on the terminal with "(queued)".
public struct FoundMessages: ClientEvent {
    public let query: String
    public let queued: [MessageLine]
    public let found: [MessageLine]

    public var type: String { "search" }

    public var jsonFields: [String: Any] {
        let queuedRows = queued.map { line -> [String: Any] in
            var row = line.jsonFields
            row["state"] = "sending"
            return row
        }
        return ["query": query, "messages": queuedRows + found.map(\.jsonFields)]
    }

    public var terminalLine: [Segment]? {
        let lines = queued.map { $0.text + " (queued)" } + found.map(\.text)
        return Segment.line(lines.isEmpty ? "no messages match" : lines.joined(separator: "\n"))
    }
}
