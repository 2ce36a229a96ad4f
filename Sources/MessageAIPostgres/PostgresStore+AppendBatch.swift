import Logging
import MessageAIStore
import PostgresNIO

/// `Store.append(_:)` on PostgreSQL: a batch of SENDs in one call of `messageai_send`
/// (PostgresSchema+V12.swift: v8's `messageai_append` with the membership checks; `messageai_send_limited` behind the send limit), one statement and so one transaction and one round trip: one
/// commit (one WAL flush) acknowledges them all. Each stored message comes back with the members
/// version its seq was taken under (v14), for the fan-out's cache (`MemberList`).
extension PostgresStore {
    /// How often a batch is run again after PostgreSQL chose it as a deadlock's victim.
    static let deadlockRetries = 3

    /// Stores the batch in one transaction; outcomes in the batch's order. Messages of one
    /// conversation take their seqs in the batch's order, gap-free and duplicate-free under
    /// any number of writers in any number of processes (the function's comment says how). A
    /// database error stores nothing of the batch (as on SQLite) and is thrown; `unavailable`
    /// means nothing was committed. As on SQLite, the reply target is the caller's check, and so
    /// are membership and blocks unless a message asks the append to confirm them
    /// (`confirmMembership`: `.refused` when they fail); a conversation that does not exist is
    /// `notFound` for the batch.
    ///
    /// Two batches on two nodes take conversation row locks (and client id keys) in their own
    /// orders, which can deadlock: rows are locked in conversation order to make that rare, and
    /// a batch PostgreSQL aborted to break a deadlock (40P01: rolled back whole, nothing
    /// stored) is run again.
    public func append(_ batch: [NewMessage]) async throws(StoreError) -> [AppendOutcome] {
        guard !batch.isEmpty else { return [] }
        let order = batch.indices.sorted { (batch[$0].conversationID, $0) < (batch[$1].conversationID, $1) }
        let sorted = order.map { batch[$0] }
        let searches = sorted.map { SearchVector.document($0.text) }
        let limit = currentSendLimit
        return try await perform { client, logger in
            var attempt = 0
            var rows: [PostgresRow]
            while true {
                do {
                    rows = try await client.allRows(Self.call(sorted, searches: searches, limit: limit), logger: logger)
                    break
                } catch let error as PSQLError where Self.sqlState(error) == "40P01" && attempt < Self.deadlockRetries {
                    attempt += 1
                } catch let error as PSQLError where Self.sqlState(error) == "P0002" {
                    throw PostgresStoreError.notFound
                }
            }
            var usernames: [UInt64: String] = [:]
            var outcomes = [AppendOutcome?](repeating: nil, count: batch.count)
            for row in rows {
                let (index, outcome, seq, version) = try row.decode((Int32, Int16, UInt64, UInt64).self)
                let new = sorted[Int(index) - 1]
                let stored: AppendOutcome
                if outcome == 3 {
                    stored = .refused
                } else if outcome == 4 {
                    stored = .rateLimited(retryAfter: seq)
                } else if outcome == 1 {
                    let username = try await Self.username(client, new, known: &usernames, logger: logger)
                    stored = .stored(StoredMessage(conversationID: new.conversationID, seq: seq, clientID: new.clientID,
                                                   senderID: new.senderID, senderUsername: username, serverTime: new.serverTime,
                                                   text: new.text, replyTo: new.replyTo, attachment: new.attachment,
                                                   membersVersion: version))
                } else {
                    // Committed by now (the original's transaction ended before ours could
                    // find its client id taken): read outside the batch's transaction.
                    stored = try await Self.original(client, new, logger: logger)
                }
                outcomes[order[Int(index) - 1]] = stored
            }
            let answered = outcomes.compactMap { $0 }
            guard answered.count == batch.count else {
                throw PostgresStoreError.failed(sqlState: nil, message: "append: \(batch.count - answered.count) outcome(s) missing")
            }
            return answered
        }
    }

    /// The membership and block checks are the append's (`NewMessage.confirmMembership`).
    public var confirmsMembership: Bool { true }

    /// The function's call: one array per column, in the batch's (sorted) order; behind the
    /// send limit when there is one (its refusals: outcome 4, the wait in `o_seq`).
    private static func call(_ batch: [NewMessage], searches: [String], limit: SendLimit?) -> PostgresQuery {
        let conversations = batch.map(\.conversationID), senders = batch.map(\.senderID)
        let clients = batch.map { ByteBuffer(bytes: $0.clientID) }, texts = batch.map(\.text)
        let times = batch.map(\.serverTime), replies = batch.map(\.replyTo)
        let files = batch.map { ByteBuffer(bytes: $0.attachment?.fileID ?? []) }
        let captions = batch.map { $0.attachment?.caption ?? "" }, confirms = batch.map(\.confirmMembership)
        if let limit {
            let capacity = Double(Swift.max(limit.limit, 1)), window = Int64(clamping: limit.windowMillis)
            return """
                SELECT o_index, o_outcome, o_seq, o_members FROM messageai_send_limited(\(capacity), \(window), \(conversations),
                    \(senders), \(clients), \(texts), \(times), \(replies), \(files), \(captions), \(searches), \(confirms))
                """
        }
        return """
            SELECT o_index, o_outcome, o_seq, o_members FROM messageai_send(\(conversations), \(senders), \(clients), \(texts),
                \(times), \(replies), \(files), \(captions), \(searches), \(confirms))
            """
    }

    /// The sender's username: the caller's when it named it, else looked up once per batch.
    private static func username(_ client: PostgresClient, _ new: NewMessage, known: inout [UInt64: String],
                                 logger: Logger) async throws -> String {
        if let name = new.senderUsername { return name }
        if let name = known[new.senderID] { return name }
        let name = try await client.firstRow("SELECT username FROM users WHERE id = \(new.senderID)", logger: logger)?
            .decode(String.self) ?? ""
        known[new.senderID] = name
        return name
    }

    static func sqlState(_ error: PSQLError) -> String? { error.serverInfo?[.sqlState] }
}
