import Logging
import PostgresNIO

/// The server's `Store.append(_ batch:)` on PostgreSQL: a batch of SENDs in one transaction,
/// so one commit (one WAL flush) acknowledges them all, with each message's checks folded into
/// its statements (PostgresStore+Messages.swift). A refused message takes its client id row
/// back and the batch goes on; the SQLite server checks before the batch instead, so there
/// a refusal never reaches the store.
extension PostgresStore {
    /// What one message of a batch came to.
    public enum BatchOutcome: Sendable, Equatable {
        /// Stored now, or (`duplicate`) found stored before under its client id.
        case appended(AppendedMessage)
        /// Refused by a check: `notMember`, `blocked`, `noSuchMessage`, `messageDeleted`,
        /// `clientIDReused`. Nothing of it is stored and no seq was taken.
        case refused(PostgresStoreError)
    }

    /// How often a batch is run again after PostgreSQL chose it as a deadlock's victim.
    static let deadlockRetries = 3

    /// Stores the batch in one transaction; outcomes in the batch's order. Messages of one
    /// conversation take their seqs in the batch's order. A database error stores nothing of
    /// the batch (as on SQLite) and is thrown.
    ///
    /// Two batches on two nodes take conversation row locks (and client id keys) in their own
    /// orders, which can deadlock: rows are locked in conversation order to make that rare, and
    /// a batch PostgreSQL aborted to break a deadlock (40P01: rolled back whole, nothing
    /// stored) is run again.
    public func append(batch: [NewMessage]) async throws(PostgresStoreError) -> [BatchOutcome] {
        guard !batch.isEmpty else { return [] }
        let order = batch.indices.sorted { (batch[$0].conversationID, $0) < (batch[$1].conversationID, $1) }
        let searches = batch.map { SearchVector.document($0.text) }
        return try await perform { client, logger in
            var attempt = 0
            while true {
                do {
                    return try await client.withTransaction(logger: logger) { db in
                        var outcomes = [BatchOutcome?](repeating: nil, count: batch.count)
                        for i in order {
                            do {
                                outcomes[i] = .appended(try await Self.append(in: db, batch[i], search: searches[i], logger: logger))
                            } catch let refusal as PostgresStoreError {
                                outcomes[i] = .refused(refusal)
                            }
                        }
                        return outcomes.map { $0! }
                    }
                } catch let error as PostgresTransactionError where Self.isDeadlock(error) && attempt < Self.deadlockRetries {
                    attempt += 1
                }
            }
        }
    }

    static func isDeadlock(_ error: PostgresTransactionError) -> Bool {
        let inner = error.closureError ?? error.commitError
        return (inner as? PSQLError)?.serverInfo?[.sqlState] == "40P01"
    }
}
