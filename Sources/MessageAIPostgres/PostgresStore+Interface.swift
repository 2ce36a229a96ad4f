import Foundation
import MessageAIStore

/// The parts of the shared store interface (MessageAIStore's `Store`) that are not one
/// statement each: the optional capabilities, reactions for a page of messages, and the work
/// kept out of the acknowledging transactions.
extension PostgresStore {
    // Every capability is here, in the one database.
    public var assistant: AssistantStore? { self }
    public var files: FileStore? { self }
    public var admin: AdminStore? { self }

    /// The messages with their current reactions, each list in the order the reactions were
    /// made (as SQLite's `withReactions`), read in one query over the page's seq range.
    public func withReactions(_ messages: [StoredMessage]) async throws(StoreError) -> [StoredMessage] {
        var result = messages
        let byConversation = Dictionary(grouping: messages.indices, by: { messages[$0].conversationID })
        for (conversationID, indices) in byConversation {
            let seqs = indices.map { messages[$0].seq }
            guard let low = seqs.min(), let high = seqs.max() else { continue }
            let found = try await reactions(conversationID: conversationID, seqs: low...high)
            for i in indices { result[i].reactions = found[messages[i].seq] ?? [] }
        }
        return result
    }

    /// Search needs no catching up here (a message's words are written with it), so only the
    /// purge of deleted text is work owed: one run does all of it (PostgresStore+Purge.swift),
    /// once the oldest delete owed is `purgeDelay` old. The server asks after each delete and
    /// once a minute, so the bytes leave the files within `purgeDelay` plus a minute.
    @discardableResult
    public func runDeferred(_ work: DeferredWork) async throws(StoreError) -> Bool {
        switch work {
        case .catchUpSearch:
            return false
        case .purgeDeleted:
            guard let since = try await purgeOwedSince() else { return false }
            let now = UInt64(Date().timeIntervalSince1970 * 1000)
            let delay = UInt64(purgeDelay / .milliseconds(1))
            guard now >= since &+ delay else { return false }
            try await purgeDeletedText()
            return false
        }
    }
}
