import MessageAIProtocol

/// Where a running SYNC answer has got to. The answer is produced lazily, a batch at a time,
/// whenever the connection's output drains below its low-water mark: a sync of 100,000
/// messages never sits in memory at once, and never trips the output limit.
// @unchecked Sendable: confined to the hub queue, where the pump that reads it runs and resumes.
final class SyncCursor: @unchecked Sendable {
    let requestID: UInt32
    /// The user's conversations, in the order they are walked.
    let conversations: [Conversation]
    /// The last seq the client holds, per conversation (absent: 0).
    let positions: [UInt64: UInt64]
    /// Index into `conversations` of the one being sent, and the last seq sent of it.
    var index = 0
    var sentThrough: UInt64
    var metadataSent = false
    /// The current conversation's messages are all sent; its changes are being sent
    /// (messageChanges), from `changesSentThrough`.
    var sendingChanges = false
    var changesSentThrough: UInt64 = 0
    var messageCount: UInt64 = 0
    /// A pump is producing batches (it may be awaiting the store): a drain starts no second one.
    var pumping = false

    static let messagesPerBatch = 500

    init(requestID: UInt32, conversations: [Conversation], positions: [UInt64: UInt64]) {
        self.requestID = requestID
        self.conversations = conversations
        self.positions = positions
        self.sentThrough = conversations.first.map { positions[$0.conversationID] ?? 0 } ?? 0
    }

    var isFinished: Bool { metadataSent && index >= conversations.count }

    /// Moves to the next conversation once the current one has nothing more.
    func advance() {
        sendingChanges = false
        index += 1
        if index < conversations.count {
            sentThrough = positions[conversations[index].conversationID] ?? 0
        }
    }

    /// The current conversation's messages are done: its changes follow, from the position.
    func startChanges() {
        sendingChanges = true
        changesSentThrough = positions[conversations[index].conversationID] ?? 0
    }
}
