import Foundation
import MessageAIProtocol
@testable import MessageAIServer
import XCTest

/// The areas converted last to the asynchronous store (issue 25 stage B, finished), each on a
/// real server process whose store waits at every call (`MESSAGEAI_STORE_LATENCY_MS`, its
/// files, assistant and admin capabilities included), as a database across a network would.
final class AsyncStoreProcessTests: XCTestCase {
    private static let latency = ["MESSAGEAI_STORE_LATENCY_MS": "10"]

    /// REGISTER, LOGIN and RESUME pipelined in one write on one connection, with password
    /// hashes and store calls awaited between them: every answer comes, in request order, each
    /// the one its place calls for (the request after the successful REGISTER is already
    /// logged in; the one after it is refused as such).
    func testAccountRequestsPipelinedOnOneConnectionAreAnsweredInOrder() throws {
        let dir = try ServerTestDirectory()
        let child = try ChildServer(dataDir: dir.path, environment: Self.latency)
        defer { _ = child.terminate() }
        let alice = try TestUsers.register(["alice"], port: child.port)[0]
        let c = try TestClient(port: child.port)
        try c.hello()
        let requests: [(UInt32, any WireMessage)] = [
            (1, Register(email: "other@example.org", username: "alice", password: TestUsers.password, displayName: "", device: "t")),
            (2, Login(login: "alice", password: "not the password", device: "t")),
            (3, Resume(token: [UInt8](repeating: 7, count: 32))),
            (4, Register(email: "dora@example.org", username: "dora", password: TestUsers.password, displayName: "Dora", device: "t")),
            (5, Resume(token: alice.token)),
            (6, ConversationsList()),
        ]
        c.sendRaw(requests.flatMap { id, m in m.frame(requestID: id).encoded() })
        var answers: [Frame] = []
        while answers.count < requests.count {
            answers.append(try c.wait(for: "the answers to the pipelined requests", timeout: 30) { (1...6).contains($0.requestID) })
        }
        XCTAssertEqual(answers.map(\.requestID), [1, 2, 3, 4, 5, 6], "answers in request order")
        func code(_ i: Int) throws -> ErrorCode? { answers[i].type == .error ? try answers[i].decode(ErrorFrame.self).errorCode : nil }
        XCTAssertEqual(try code(0), .usernameTaken)
        XCTAssertEqual(try code(1), .invalidCredentials)
        XCTAssertEqual(try code(2), .invalidToken)
        XCTAssertEqual(try answers[3].decode(SessionGranted.self).user.username, "dora")
        XCTAssertEqual(try code(4), .alreadyAuthenticated, "the RESUME came after the REGISTER had logged in")
        XCTAssertEqual(try answers[5].decode(Conversations.self).conversations.count, 0, "dora's list: the login came first")

        // A second connection: a correct LOGIN, then a request that needs it, in one write.
        let d = try TestClient(port: child.port)
        try d.hello()
        d.sendRaw(Login(login: "alice", password: TestUsers.password, device: "t").frame(requestID: 1).encoded()
                  + ProfileGet(username: "alice").frame(requestID: 2).encoded())
        let granted: SessionGranted = try d.answer(1, timeout: 30)
        XCTAssertEqual(granted.user.username, "alice")
        let own: Profile = try d.answer(2, timeout: 30)
        XCTAssertEqual(own.user.username, "alice")
    }

    /// A file's upload and download, a profile picture made from it, and a group's avatar,
    /// on a store that suspends: the bytes come back as sent, the avatar reaches the contact
    /// who shows it, and the group's members see the new avatar.
    func testFilesAndAvatarsWhileTheStoreAwaits() throws {
        let dir = try ServerTestDirectory()
        let child = try ChildServer(dataDir: dir.path, arguments: ["--rate-limit", "100000"], environment: Self.latency)
        defer { _ = child.terminate() }
        let users = try TestUsers.register(["ann", "ben", "cat"], port: child.port, capabilities: [.zlib, .files, .avatars])
        let (ann, ben, cat) = (users[0], users[1], users[2])
        let bytes = FileTestCase.randomBytes(300_000, seed: 25)
        let file = try ann.upload(bytes, name: "notes.bin")
        XCTAssertTrue(file.complete)
        let group: Conversation = try ann.request(GroupCreate(name: "team", usernames: ["ben", "cat"]))
        try ann.sendText("the notes", in: group.conversationID)
        let sent: SendAck = try ann.request(Send(conversationID: group.conversationID, clientID: TestClient.newClientID(),
                                                  text: "", attachment: Attachment(fileID: file.fileID)))
        XCTAssertGreaterThan(sent.seq, 0)
        let got = try ben.download(file.fileID)
        XCTAssertEqual(got.bytes, bytes, "ben downloads what ann uploaded")
        XCTAssertEqual(got.sha256, FileTestCase.sha256(bytes))

        // ben and ann become contacts: ann's new profile picture is pushed to ben.
        let _: Profile = try ann.request(ContactAdd(username: "ben"))
        let _: Profile = try ben.request(ContactAccept(username: "ann"))
        let photo = try ann.upload(TestPNG.make(width: 300, height: 200), name: "me.png", type: "image/png")
        let mine: Profile = try ann.request(AvatarSet(fileID: photo.fileID), timeout: 30)
        XCTAssertFalse(mine.avatarID.isEmpty)
        let pushed = try ben.push(Profile.self, timeout: 30) { $0.user.username == "ann" && !$0.avatarID.isEmpty }
        XCTAssertEqual(pushed.avatarID, mine.avatarID)
        let picture = try ben.download(mine.avatarID)
        XCTAssertEqual(Array(picture.bytes.prefix(2)), [0xFF, 0xD8], "a JPEG made by the server")

        // A group avatar: every member is pushed the conversation with it.
        let groupPhoto = try cat.upload(TestPNG.make(width: 200, height: 200), name: "team.png", type: "image/png")
        let view: Conversation = try cat.request(AvatarSet(fileID: groupPhoto.fileID, conversationID: group.conversationID), timeout: 30)
        XCTAssertFalse(view.avatarID.isEmpty)
        let seen = try ann.push(Conversation.self, timeout: 30) { $0.conversationID == group.conversationID && !$0.avatarID.isEmpty }
        XCTAssertEqual(seen.avatarID, view.avatarID)
    }

    /// An assistant summary of a conversation and `admin stats`, on a store that suspends.
    func testAssistantSummaryAndAdminStatsWhileTheStoreAwaits() throws {
        let dir = try ServerTestDirectory()
        let child = try ChildServer(dataDir: dir.path, arguments: ["--rate-limit", "100000"], environment: Self.latency)
        defer { _ = child.terminate() }
        let users = try TestUsers.register(["ann", "ben"], port: child.port, capabilities: [.zlib, .assistant])
        let (ann, ben) = (users[0], users[1])
        let dm = try ann.openDM(with: "ben")
        try ann.sendText("Can you send the quarterly report by Friday?", in: dm.conversationID)
        try ben.sendText("Yes, I will send the report on Friday.", in: dm.conversationID)
        try ann.sendText("We decided to ship the release next week.", in: dm.conversationID)
        let summary: AssistSummaryResult = try ben.request(AssistSummary(conversationID: dm.conversationID), timeout: 30)
        XCTAssertEqual(summary.messageCount, 3)
        XCTAssertEqual(summary.toSeq, 3)
        XCTAssertFalse(summary.summary.isEmpty)
        XCTAssertFalse(summary.cached)
        let again: AssistSummaryResult = try ann.request(AssistSummary(conversationID: dm.conversationID), timeout: 30)
        XCTAssertTrue(again.cached, "the second summary of the same range comes from the store's cache")

        let stats = try ChildServer.run(["admin", "stats", "--data-dir", dir.path])
        XCTAssertEqual(stats.status, 0, stats.out)
        let lines = stats.out.split(separator: "\n").map { $0.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ") }
        XCTAssertTrue(lines.contains { $0.hasPrefix("users 2 (0 disabled, 2 online") }, stats.out)
        XCTAssertTrue(lines.contains("messages 3"), stats.out)
        XCTAssertTrue(lines.contains("conversations 1"), stats.out)
    }

    /// SIGTERM while four connections pipeline SENDs to a store that suspends: the server
    /// awaits the batch in flight and what gathered behind it before it closes the store; every
    /// message acknowledged before the connection closed is there after a restart, once, in a
    /// gap-free sequence, and no store call failed on a closed store. (Guards the shutdown
    /// path; a server that dropped its last batch would pass too, as its clients resend what
    /// was never acknowledged: what is asserted is what a user would notice.)
    func testShutdownDuringASendLoadLosesNoAcknowledgedMessage() throws {
        let dir = try ServerTestDirectory()
        var child = try ChildServer(dataDir: dir.path, arguments: ["--rate-limit", "100000"],
                                    environment: ["MESSAGEAI_STORE_LATENCY_MS": "20"])
        let users = try TestUsers.register(["snd1", "snd2", "snd3", "snd4", "reader"], port: child.port)
        let group: Conversation = try users[4].request(GroupCreate(name: "load", usernames: ["snd1", "snd2", "snd3", "snd4"]))
        let perSender = 400
        for (n, sender) in users.prefix(4).enumerated() {
            let frames = (0..<perSender).flatMap { i in
                Send(conversationID: group.conversationID, clientID: TestClient.newClientID(), text: "s\(n + 1) #\(i)")
                    .frame(requestID: UInt32(10_000 + i)).encoded()
            }
            sender.sendRaw(frames)
        }
        // The load is under way: a first ack came back.
        let first = try users[0].wait(for: "a first SEND_ACK", timeout: 30) { $0.type == .sendAck }
        XCTAssertEqual(child.terminate(), 0, child.stderr)
        // No store call outlived the store: a batch still in flight at close would fail here.
        XCTAssertFalse(child.stderr.contains("failed"), child.stderr)

        var acked: [String: UInt64] = ["s1 #\(Int(first.requestID) - 10_000)": try first.decode(SendAck.self).seq]
        for (n, sender) in users.prefix(4).enumerated() {
            XCTAssertTrue(try sender.waitForClose(timeout: 15), "the server closed s\(n + 1)'s connection")
            let told = sender.inbox.contains { $0.type == .error && (try? $0.decode(ErrorFrame.self).errorCode) == .shuttingDown }
            XCTAssertTrue(told, "s\(n + 1) was told the server is shutting down")
            for f in sender.inbox where f.type == .sendAck {
                acked["s\(n + 1) #\(Int(f.requestID) - 10_000)"] = try f.decode(SendAck.self).seq
            }
        }
        XCTAssertGreaterThan(acked.count, 0)

        child = try ChildServer(dataDir: dir.path)
        defer { _ = child.terminate() }
        let reader = try TestClient(port: child.port)
        try reader.hello()
        let _: SessionGranted = try reader.request(Login(login: "reader", password: TestUsers.password, device: "t"), timeout: 30)
        var stored: [String: UInt64] = [:]
        var before: UInt64 = 0
        while true {
            let page: HistoryPage = try reader.request(HistoryRequest(conversationID: group.conversationID, beforeSeq: before, limit: 200))
            for m in page.messages {
                XCTAssertNil(stored[m.text], "\(m.text) stored twice")
                stored[m.text] = m.seq
            }
            guard page.hasMore, let oldest = page.messages.first else { break }
            before = oldest.seq
        }
        for (text, seq) in acked {
            XCTAssertEqual(stored[text], seq, "\(text) was acknowledged with seq \(seq)")
        }
        XCTAssertEqual(Array(stored.values).sorted(), Array(1...UInt64(stored.count)), "gap-free")
        XCTAssertGreaterThanOrEqual(stored.count, acked.count)
    }
}
