import Foundation

/// A sent message's state as a mark, the way messengers show it: ✓ sent, ✓✓ delivered,
/// read (by N of M in a group). In the REPL the prompt carries the mark of the last message
/// sent in the current conversation, so a message takes one line, not four.
extension Client {
    /// Every transition as a line: scripts reading plain output, or `--verbose`.
    var showsTransitions: Bool { config.verbose || !config.interactive }

    /// The mark of the last message this user sent in `cid`; nil when there is none.
    public func lastSentMark(in cid: UInt64) -> String? {
        guard let store, let seq = try? store.lastOwnSeq(in: cid), seq > 0,
              let others = try? store.otherMarkers(cid), !others.isEmpty else { return nil }
        return "#\(seq) " + Client.mark(seq: seq, readers: others.filter { $0.read >= seq }.count,
                           receivers: others.filter { $0.delivered >= seq }.count, members: others.count)
    }

    static func mark(seq: UInt64, readers: Int, receivers: Int, members: Int) -> String {
        if readers == members { return "✓✓ read" }
        if readers > 0 { return "✓✓ read by \(readers) of \(members)" }
        if receivers == members { return "✓✓ delivered" }
        return "✓ sent"
    }
}
