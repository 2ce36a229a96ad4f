import MessageAIVocabulary  // AssistItemFilter, AssistItemKind

/// The optional capabilities of a `LatencyStore`, each call waiting like the store's own
/// (files, avatars, the assistant's tables, the admin commands), so that the tests of those
/// handlers see them suspend and resume on the hub too. Test and measurement only.
/// (A backup's copy is the wrapped store's, without the wait: it runs off the hub anyway.)
// @unchecked Sendable: like the store they wrap, called from the hub only.
final class LatencyFiles: FileStore, @unchecked Sendable {
    private let inner: any FileStore
    private let latency: Duration
    init(_ inner: any FileStore, latency: Duration) { self.inner = inner; self.latency = latency }
    private func pause() async { try? await Task.sleep(for: latency) }
    func createFile(_ file: FileRecord) async throws {
        await pause()
        return try await inner.createFile(file)
    }
    func file(id: [UInt8]) async throws -> FileRecord? {
        await pause()
        return try await inner.file(id: id)
    }
    func file(ownerID: UInt64, uploadSHA256: [UInt8], name: String) async throws -> FileRecord? {
        await pause()
        return try await inner.file(ownerID: ownerID, uploadSHA256: uploadSHA256, name: name)
    }
    func completeFile(uploadSHA256: [UInt8], uploadSize: UInt64) async throws -> FileRecord? {
        await pause()
        return try await inner.completeFile(uploadSHA256: uploadSHA256, uploadSize: uploadSize)
    }
    func completeFile(id: [UInt8], _ content: StoredContent) async throws {
        await pause()
        return try await inner.completeFile(id: id, content)
    }
    func deleteFile(id: [UInt8]) async throws {
        await pause()
        return try await inner.deleteFile(id: id)
    }
    func fileUsage(ownerID: UInt64) async throws -> (bytes: UInt64, partials: Int) {
        await pause()
        return try await inner.fileUsage(ownerID: ownerID)
    }
    func partialFiles() async throws -> [FileRecord] {
        await pause()
        return try await inner.partialFiles()
    }
    func canRead(fileID: [UInt8], userID: UInt64) async throws -> Bool {
        await pause()
        return try await inner.canRead(fileID: fileID, userID: userID)
    }
    func avatarID(userID: UInt64) async throws -> [UInt8] {
        await pause()
        return try await inner.avatarID(userID: userID)
    }
    func setAvatar(userID: UInt64, fileID: [UInt8]) async throws -> [UInt8] {
        await pause()
        return try await inner.setAvatar(userID: userID, fileID: fileID)
    }
    func setGroupAvatar(conversationID: UInt64, fileID: [UInt8]) async throws -> [UInt8] {
        await pause()
        return try await inner.setGroupAvatar(conversationID: conversationID, fileID: fileID)
    }
    func avatarOwner(fileID: [UInt8]) async throws -> UInt64? {
        await pause()
        return try await inner.avatarOwner(fileID: fileID)
    }
    @discardableResult func releaseFile(id: [UInt8]) async throws -> Bool {
        await pause()
        return try await inner.releaseFile(id: id)
    }
    func isServed(sha256: [UInt8]) async throws -> Bool {
        await pause()
        return try await inner.isServed(sha256: sha256)
    }
}

// @unchecked Sendable: see above.
final class LatencyAssistant: AssistantStore, @unchecked Sendable {
    private let inner: any AssistantStore
    private let latency: Duration
    init(_ inner: any AssistantStore, latency: Duration) { self.inner = inner; self.latency = latency }
    private func pause() async { try? await Task.sleep(for: latency) }
    func insertItems(_ items: [NewAssistItem], now: UInt64) async throws -> [AssistItemRecord] {
        await pause()
        return try await inner.insertItems(items, now: now)
    }
    func items(userID: UInt64, conversationID: UInt64?, filter: AssistItemFilter, kind: AssistItemKind?, limit: Int) async throws -> [AssistItemRecord] {
        await pause()
        return try await inner.items(userID: userID, conversationID: conversationID, filter: filter, kind: kind, limit: limit)
    }
    func itemsChanged(userID: UInt64, sinceRev: UInt64, limit: Int) async throws -> [AssistItemRecord] {
        await pause()
        return try await inner.itemsChanged(userID: userID, sinceRev: sinceRev, limit: limit)
    }
    func items(conversationID: UInt64, seq: UInt64) async throws -> [AssistItemRecord] {
        await pause()
        return try await inner.items(conversationID: conversationID, seq: seq)
    }
    func items(ids: [UInt64]) async throws -> [AssistItemRecord] {
        await pause()
        return try await inner.items(ids: ids)
    }
    func replaceItems(conversationID: UInt64, seq: UInt64, with replacement: [NewAssistItem], now: UInt64) async throws -> [AssistItemRecord] {
        await pause()
        return try await inner.replaceItems(conversationID: conversationID, seq: seq, with: replacement, now: now)
    }
    func reannounceItems(conversationID: UInt64) async throws -> [AssistItemRecord] {
        await pause()
        return try await inner.reannounceItems(conversationID: conversationID)
    }
    func item(id: UInt64, visibleTo userID: UInt64) async throws -> AssistItemRecord? {
        await pause()
        return try await inner.item(id: id, visibleTo: userID)
    }
    func setItemDone(id: UInt64, by userID: UInt64, done: Bool, now: UInt64) async throws -> (item: AssistItemRecord, changed: Bool) {
        await pause()
        return try await inner.setItemDone(id: id, by: userID, done: done, now: now)
    }
    func assistantCursor() async throws -> UInt64 {
        await pause()
        return try await inner.assistantCursor()
    }
    func cachedSummary(conversationID: UInt64, fromSeq: UInt64, toSeq: UInt64, engine: String, engineVersion: String) async throws -> [UInt8]? {
        await pause()
        return try await inner.cachedSummary(conversationID: conversationID, fromSeq: fromSeq, toSeq: toSeq, engine: engine, engineVersion: engineVersion)
    }
    func cacheSummary(conversationID: UInt64, fromSeq: UInt64, toSeq: UInt64, engine: String, engineVersion: String, answer: [UInt8], now: UInt64) async throws {
        await pause()
        return try await inner.cacheSummary(conversationID: conversationID, fromSeq: fromSeq, toSeq: toSeq, engine: engine, engineVersion: engineVersion, answer: answer, now: now)
    }
    func assistSwitch(conversationID: UInt64) async throws -> AssistSwitch {
        await pause()
        return try await inner.assistSwitch(conversationID: conversationID)
    }
    func setProviderOff(conversationID: UInt64, by userID: UInt64, off: Bool, now: UInt64) async throws {
        await pause()
        return try await inner.setProviderOff(conversationID: conversationID, by: userID, off: off, now: now)
    }
    func providerRequests(userID: UInt64, day: UInt64) async throws -> Int {
        await pause()
        return try await inner.providerRequests(userID: userID, day: day)
    }
    func countProviderRequest(userID: UInt64, day: UInt64) async throws {
        await pause()
        return try await inner.countProviderRequest(userID: userID, day: day)
    }
}

// @unchecked Sendable: see above.
final class LatencyAdmin: AdminStore, @unchecked Sendable {
    private let inner: any AdminStore
    private let latency: Duration
    init(_ inner: any AdminStore, latency: Duration) { self.inner = inner; self.latency = latency }
    private func pause() async { try? await Task.sleep(for: latency) }
    var backup: BackupStore? { inner.backup }
    func accounts() async throws -> [AccountRecord] {
        await pause()
        return try await inner.accounts()
    }
    func account(username: String) async throws -> AccountRecord? {
        await pause()
        return try await inner.account(username: username)
    }
    func setDisabled(userID: UInt64, at: UInt64) async throws -> Bool {
        await pause()
        return try await inner.setDisabled(userID: userID, at: at)
    }
    func isDisabled(userID: UInt64) async throws -> Bool {
        await pause()
        return try await inner.isDisabled(userID: userID)
    }
    func session(id: UInt64) async throws -> SessionRecord? {
        await pause()
        return try await inner.session(id: id)
    }
    func deleteAllSessions(userID: UInt64) async throws -> [UInt64] {
        await pause()
        return try await inner.deleteAllSessions(userID: userID)
    }
    func statistics() async throws -> StoreStatistics {
        await pause()
        return try await inner.statistics()
    }
    func deleteAccount(userID: UInt64, now: UInt64) async throws -> String? {
        await pause()
        return try await inner.deleteAccount(userID: userID, now: now)
    }
}
