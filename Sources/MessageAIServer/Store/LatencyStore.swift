import Dispatch

/// A store whose every call of the interface first waits `latency`, as a database across a
/// network would, then asks the store it wraps. Test and measurement only (the server uses it
/// when `MESSAGEAI_STORE_LATENCY_MS` is set): with SQLite inside, the handlers really suspend
/// and resume on the hub (`HubExecutor`), so the tests can show that answers keep request
/// order and pushes sequence order while handlers await, before a network store exists.
/// Its optional capabilities wait the same (`LatencyStore+Capabilities.swift`).
// @unchecked Sendable: like the store it wraps, called from the hub only.
final class LatencyStore: Store, @unchecked Sendable {
    private let inner: any Store
    private let latency: Duration

    init(_ inner: any Store, latency: Duration) {
        self.inner = inner
        self.latency = latency
        files = inner.files.map { LatencyFiles($0, latency: latency) }
        assistant = inner.assistant.map { LatencyAssistant($0, latency: latency) }
        admin = inner.admin.map { LatencyAdmin($0, latency: latency) }
    }

    /// Suspends the caller for the latency; it resumes on its own executor (the hub's).
    private func pause() async {
        try? await Task.sleep(for: latency)
    }

    let assistant: AssistantStore?
    let files: FileStore?
    let admin: AdminStore?
    /// Not slowed: the log's reader is the server's own background work, not a request.
    var eventLog: EventLog? { inner.eventLog }
    var nodes: NodeRegistry? { inner.nodes }
    var extractionJobs: ExtractionJobs? { inner.extractionJobs }
    var limits: LimitStore? { inner.limits }

    func createUser(email: String, username: String, displayName: String, passwordHash: String, now: UInt64) async throws -> UserRecord {
        await pause()
        return try await inner.createUser(email: email, username: username, displayName: displayName, passwordHash: passwordHash, now: now)
    }
    func user(id: UInt64) async throws -> UserRecord? {
        await pause()
        return try await inner.user(id: id)
    }
    func user(login: String) async throws -> UserRecord? {
        await pause()
        return try await inner.user(login: login)
    }
    func user(username: String) async throws -> UserRecord? {
        await pause()
        return try await inner.user(username: username)
    }
    func setDisplayName(userID: UInt64, _ name: String) async throws {
        await pause()
        return try await inner.setDisplayName(userID: userID, name)
    }
    func setTimeZone(userID: UInt64, _ zone: String) async throws {
        await pause()
        return try await inner.setTimeZone(userID: userID, zone)
    }
    func setPasswordHash(userID: UInt64, _ hash: String) async throws {
        await pause()
        return try await inner.setPasswordHash(userID: userID, hash)
    }
    func setLastSeen(userID: UInt64, _ time: UInt64) async throws {
        await pause()
        return try await inner.setLastSeen(userID: userID, time)
    }
    func createSession(userID: UInt64, tokenHash: [UInt8], device: String, now: UInt64) async throws -> SessionRecord {
        await pause()
        return try await inner.createSession(userID: userID, tokenHash: tokenHash, device: device, now: now)
    }
    func session(tokenHash: [UInt8]) async throws -> SessionRecord? {
        await pause()
        return try await inner.session(tokenHash: tokenHash)
    }
    func sessions(userID: UInt64) async throws -> [SessionRecord] {
        await pause()
        return try await inner.sessions(userID: userID)
    }
    func touchSession(id: UInt64, now: UInt64) async throws {
        await pause()
        return try await inner.touchSession(id: id, now: now)
    }
    func deleteSession(id: UInt64, userID: UInt64) async throws -> Bool {
        await pause()
        return try await inner.deleteSession(id: id, userID: userID)
    }
    func deleteSessions(userID: UInt64, except keep: UInt64) async throws -> [UInt64] {
        await pause()
        return try await inner.deleteSessions(userID: userID, except: keep)
    }
    func searchUsers(query: String, limit: Int) async throws -> [UserRecord] {
        await pause()
        return try await inner.searchUsers(query: query, limit: limit)
    }
    @discardableResult func addContact(owner: UInt64, contact: UInt64, now: UInt64) async throws -> Bool {
        await pause()
        return try await inner.addContact(owner: owner, contact: contact, now: now)
    }
    func removeContact(owner: UInt64, contact: UInt64) async throws -> Bool {
        await pause()
        return try await inner.removeContact(owner: owner, contact: contact)
    }
    func contacts(owner: UInt64) async throws -> [UserRecord] {
        await pause()
        return try await inner.contacts(owner: owner)
    }
    func isContact(owner: UInt64, other: UInt64) async throws -> Bool {
        await pause()
        return try await inner.isContact(owner: owner, other: other)
    }
    func sharesConversation(_ a: UInt64, _ b: UInt64) async throws -> Bool {
        await pause()
        return try await inner.sharesConversation(a, b)
    }
    func presenceAudience(userID: UInt64) async throws -> [UInt64] {
        await pause()
        return try await inner.presenceAudience(userID: userID)
    }
    func setAway(userID: UInt64, message: String, now: UInt64) async throws {
        await pause()
        return try await inner.setAway(userID: userID, message: message, now: now)
    }
    @discardableResult func clearAway(userID: UInt64) async throws -> Bool {
        await pause()
        return try await inner.clearAway(userID: userID)
    }
    func awayMessage(userID: UInt64) async throws -> String? {
        await pause()
        return try await inner.awayMessage(userID: userID)
    }
    func contactLink(_ me: UInt64, _ other: UInt64) async throws -> ContactLink {
        await pause()
        return try await inner.contactLink(me, other)
    }
    func contactEntries(owner: UInt64) async throws -> [(UserRecord, ContactLink)] {
        await pause()
        return try await inner.contactEntries(owner: owner)
    }
    @discardableResult func declineContact(owner: UInt64, requester: UInt64) async throws -> Bool {
        await pause()
        return try await inner.declineContact(owner: owner, requester: requester)
    }
    @discardableResult func block(blocker: UInt64, blocked: UInt64, now: UInt64) async throws -> Bool {
        await pause()
        return try await inner.block(blocker: blocker, blocked: blocked, now: now)
    }
    @discardableResult func unblock(blocker: UInt64, blocked: UInt64) async throws -> Bool {
        await pause()
        return try await inner.unblock(blocker: blocker, blocked: blocked)
    }
    func blockedUsers(blocker: UInt64) async throws -> [UserRecord] {
        await pause()
        return try await inner.blockedUsers(blocker: blocker)
    }
    func blockers(of userID: UInt64, among candidates: [UInt64]) async throws -> Set<UInt64> {
        await pause()
        return try await inner.blockers(of: userID, among: candidates)
    }
    func membership(conversationID: UInt64, userID: UInt64) async throws -> Membership? {
        await pause()
        return try await inner.membership(conversationID: conversationID, userID: userID)
    }
    @discardableResult func acceptRequest(conversationID: UInt64, userID: UInt64) async throws -> Bool {
        await pause()
        return try await inner.acceptRequest(conversationID: conversationID, userID: userID)
    }
    func acceptDirectRequests(_ a: UInt64, _ b: UInt64) async throws {
        await pause()
        return try await inner.acceptDirectRequests(a, b)
    }
    func blockPartners(of userID: UInt64) async throws -> Set<UInt64> {
        await pause()
        return try await inner.blockPartners(of: userID)
    }
    func directConversation(_ a: UInt64, _ b: UInt64, now: UInt64) async throws -> (ConversationRecord, created: Bool) {
        await pause()
        return try await inner.directConversation(a, b, now: now)
    }
    func createGroup(name: String, creator: UInt64, members: [UInt64], now: UInt64) async throws -> ConversationRecord {
        await pause()
        return try await inner.createGroup(name: name, creator: creator, members: members, now: now)
    }
    func addMembers(conversationID: UInt64, userIDs: [UInt64], now: UInt64) async throws {
        await pause()
        return try await inner.addMembers(conversationID: conversationID, userIDs: userIDs, now: now)
    }
    func renameGroup(conversationID: UInt64, name: String) async throws {
        await pause()
        return try await inner.renameGroup(conversationID: conversationID, name: name)
    }
    func removeMember(conversationID: UInt64, userID: UInt64) async throws {
        await pause()
        return try await inner.removeMember(conversationID: conversationID, userID: userID)
    }
    func conversation(id: UInt64) async throws -> ConversationRecord? {
        await pause()
        return try await inner.conversation(id: id)
    }
    func members(conversationID: UInt64) async throws -> [MemberRecord] {
        await pause()
        return try await inner.members(conversationID: conversationID)
    }
    func memberIDs(conversationID: UInt64) async throws -> [UInt64] {
        await pause()
        return try await inner.memberIDs(conversationID: conversationID)
    }
    func memberList(conversationID: UInt64) async throws -> MemberList {
        await pause()
        return try await inner.memberList(conversationID: conversationID)
    }
    func isMember(conversationID: UInt64, userID: UInt64) async throws -> Bool {
        await pause()
        return try await inner.isMember(conversationID: conversationID, userID: userID)
    }
    func conversationList(userID: UInt64) async throws -> [ConversationEntry] {
        await pause()
        return try await inner.conversationList(userID: userID)
    }
    func conversationView(id: UInt64, userID: UInt64) async throws -> ConversationEntry? {
        await pause()
        return try await inner.conversationView(id: id, userID: userID)
    }
    func append(_ batch: [NewMessage]) async throws -> [AppendOutcome] {
        await pause()
        return try await inner.append(batch)
    }
    func messages(conversationID: UInt64, afterSeq: UInt64, limit: Int) async throws -> [StoredMessage] {
        await pause()
        return try await inner.messages(conversationID: conversationID, afterSeq: afterSeq, limit: limit)
    }
    func messages(conversationID: UInt64, beforeSeq: UInt64, limit: Int) async throws -> [StoredMessage] {
        await pause()
        return try await inner.messages(conversationID: conversationID, beforeSeq: beforeSeq, limit: limit)
    }
    func search(userID: UInt64, query: String, conversationID: UInt64?, offset: Int, limit: Int) async throws -> [StoredMessage] {
        await pause()
        return try await inner.search(userID: userID, query: query, conversationID: conversationID, offset: offset, limit: limit)
    }
    func raiseMarkers(conversationID: UInt64, userID: UInt64, delivered: UInt64, read: UInt64) async throws -> (delivered: UInt64, read: UInt64, changed: Bool) {
        await pause()
        return try await inner.raiseMarkers(conversationID: conversationID, userID: userID, delivered: delivered, read: read)
    }
    func markers(conversationID: UInt64) async throws -> [MemberMarker] {
        await pause()
        return try await inner.markers(conversationID: conversationID)
    }
    func message(conversationID: UInt64, seq: UInt64) async throws -> StoredMessage? {
        await pause()
        return try await inner.message(conversationID: conversationID, seq: seq)
    }
    func message(senderID: UInt64, clientID: [UInt8]) async throws -> StoredMessage? {
        await pause()
        return try await inner.message(senderID: senderID, clientID: clientID)
    }
    func close() async { await inner.close() }
    func change(actorID: UInt64, clientID: [UInt8]) async throws -> ChangeRecord? {
        await pause()
        return try await inner.change(actorID: actorID, clientID: clientID)
    }
    func apply(_ change: NewChange) async throws -> ChangeOutcome {
        await pause()
        return try await inner.apply(change)
    }
    func changes(conversationID: UInt64, afterSeq: UInt64, limit: Int) async throws -> [ChangeRecord] {
        await pause()
        return try await inner.changes(conversationID: conversationID, afterSeq: afterSeq, limit: limit)
    }
    func withReactions(_ messages: [StoredMessage]) async throws -> [StoredMessage] {
        await pause()
        return try await inner.withReactions(messages)
    }
    @discardableResult func runDeferred(_ work: DeferredWork) async throws -> Bool {
        await pause()
        return try await inner.runDeferred(work)
    }
}
