import Logging
import MessageAIStore
import PostgresNIO

/// `Store.append(_:)` on PostgreSQL: a batch of SENDs in one transaction, so one commit (one
/// WAL flush) acknowledges them all; each message's statements are in PostgresStore+Messages.swift.
extension PostgresStore {
    /// How often a batch is run again after PostgreSQL chose it as a deadlock's victim.
    static let deadlockRetries = 3

    /// Stores the batch in one transaction; outcomes in the batch's order. Messages of one
    /// conversation take their seqs in the batch's order. A database error stores nothing of
    /// the batch (as on SQLite) and is thrown; `unavailable` means nothing was committed.
    ///
    /// Two batches on two nodes take conversation row locks (and client id keys) in their own
    /// orders, which can deadlock: rows are locked in conversation order to make that rare, and
    /// a batch PostgreSQL aborted to break a deadlock (40P01: rolled back whole, nothing
    /// stored) is run again.
    public func append(_ batch: [NewMessage]) async throws(StoreError) -> [AppendOutcome] {
        guard !batch.isEmpty else { return [] }
        let order = batch.indices.sorted { (batch[$0].conversationID, $0) < (batch[$1].conversationID, $1) }
        let searches = batch.map { SearchVector.document($0.text) }
        return try await perform { client, logger in
            var attempt = 0
            while true {
                do {
                    return try await client.withTransaction(logger: logger) { db in
                        var usernames: [UInt64: String] = [:]
                        var outcomes = [AppendOutcome?](repeating: nil, count: batch.count)
                        for i in order {
                            let new = batch[i]
                            let username = try await Self.username(db, new, known: &usernames, logger: logger)
                            outcomes[i] = try await Self.append(in: db, new, username: username, search: searches[i], logger: logger)
                        }
                        return outcomes.map { $0! }
                    }
                } catch let error as PostgresTransactionError where Self.isDeadlock(error) && attempt < Self.deadlockRetries {
                    attempt += 1
                }
            }
        }
    }

    /// The sender's username: the caller's when it named it, else looked up once per batch.
    private static func username(_ db: PostgresConnection, _ new: NewMessage, known: inout [UInt64: String],
                                 logger: Logger) async throws -> String {
        if let name = new.senderUsername { return name }
        if let name = known[new.senderID] { return name }
        let name = try await db.firstRow("SELECT username FROM users WHERE id = \(new.senderID)", logger: logger)?
            .decode(String.self) ?? ""
        known[new.senderID] = name
        return name
    }

    static func isDeadlock(_ error: PostgresTransactionError) -> Bool {
        let inner = error.closureError ?? error.commitError
        return (inner as? PSQLError)?.serverInfo?[.sqlState] == "40P01"
    }
}
