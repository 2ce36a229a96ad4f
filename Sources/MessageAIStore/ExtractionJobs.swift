/// Extraction as durable jobs (issue 26 stage C): a store that several nodes share queues every
/// stored message for extraction in the transaction that stores it, and hands batches out so
/// that a node killed mid-batch loses none and no message's items are stored twice. A store
/// without it (SQLite: one process) answers nil to `Store.extractionJobs`, and the server
/// extracts what it committed itself, after the commit.
public protocol ExtractionJobs: AnyObject, Sendable {
    /// Whether messages stored from now on are queued (the server's `--assistant-extract`).
    nonisolated(nonsending) func setExtractionQueued(_ queued: Bool) async throws
    /// Claims up to `limit` queued messages that no other node holds, oldest conversation and
    /// seq first, and calls `extract` with them while holding them (a lease, renewed meanwhile);
    /// then, in one transaction, removes the jobs still held and stores the items it returned
    /// for those messages (as `AssistantStore.insertItems` does). `extract` throwing, or the
    /// process dying, leaves the jobs for the next claim once the lease ran out. Returns how
    /// many jobs were done (0: none free), their messages and the items stored.
    nonisolated(nonsending) func runExtractionJobs(
        limit: Int, now: UInt64,
        _ extract: @escaping @Sendable ([StoredMessage]) async throws -> [NewAssistItem]
    ) async throws -> (jobs: Int, messages: [StoredMessage], stored: [AssistItemRecord])
    /// Jobs queued and not yet done (tests and the admin's view).
    nonisolated(nonsending) func queuedExtractions() async throws -> Int
}

extension Store {
    /// None: the server extracts after its own commits (every store but PostgreSQL's).
    public var extractionJobs: ExtractionJobs? { nil }
}
