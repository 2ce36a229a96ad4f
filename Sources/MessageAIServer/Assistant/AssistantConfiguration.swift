import MessageAIAssistantProvider

/// The assistant's part of the server's configuration (flags `--assistant*`).
public struct AssistantConfiguration: Sendable {
    /// Off: the `assistant` capability is not offered and nothing is extracted.
    public var enabled = true
    /// Extract action items and decisions from every committed message (off for the W1/W2
    /// before/after benchmark, or to keep the feature to on-demand summaries and checks).
    public var extract = true
    /// Also let the provider re-extract the items of conversations whose switch allows it, in
    /// batches per conversation (`--assistant-extract provider`; off by default: BENCHMARKS.md,
    /// "Extraction by the language model", says why). The local items are stored first and stay
    /// when the model fails, is busy or the senders' budgets are spent.
    public var providerExtract = false
    /// Messages of one conversation sent to the provider in one call, at most.
    public var providerBatchSize = 20
    /// How long a conversation's batch waits for more messages before it is sent (seconds).
    public var providerBatchDelay = 2.0
    /// The optional language model; nil: the local engine answers everything.
    public var provider: ProviderConfiguration?
    /// Provider requests one user may make per UTC day; past it the local engine answers.
    public var providerRequestsPerDay = 200
    /// Provider calls running at once (each on a worker thread, never the hub); past it a
    /// request gets the local engine's answer with a notice instead of waiting.
    public var maxProviderCalls = 4
    /// Messages waiting for extraction; past it new ones are not extracted (counted and logged)
    /// rather than letting the queue grow without bound under a flood.
    public var maxPendingExtractions = 20_000
    /// Tests only (`MESSAGEAI_EXTRACTION_HOLD_MS`, no flag): how long a node holds each claimed
    /// batch of extraction jobs before running the engine, so that a test can kill it mid-batch.
    public var jobHoldMillis: UInt64 = 0

    public init() {}
}
