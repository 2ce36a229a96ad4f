import Foundation
import MessageAIProtocol
import XCTest

/// Two `messageai-server` processes on one PostgreSQL database (issue 26 stage A): what a
/// member connected to one node sees of what is committed through the other, live, without
/// a sync. Real processes, real sockets, a real PostgreSQL (`TestCluster`).
final class ClusterDeliveryProcessTests: ClusterTestCase {
    /// Two servers on a new database.
    private func twoNodes() throws -> (ChildServer, ChildServer, String, [ServerTestDirectory]) {
        let cluster = try XCTUnwrap(Self.cluster)
        let name = "nodes_\(UUID().uuidString.prefix(8).lowercased())"
        try cluster.createDatabase(name)
        let dirs = [try ServerTestDirectory(), try ServerTestDirectory()]
        let arguments = ["--database", cluster.url(database: name), "--rate-limit", "1000000"]
        let a = try ChildServer(dataDir: dirs[0].path, arguments: arguments)
        let b = try ChildServer(dataDir: dirs[1].path, arguments: arguments)
        return (a, b, name, dirs)
    }

    /// MESSAGE pushes of the conversation until `count` arrived (or the deadline), in arrival order.
    private func messages(_ client: TestClient, in conversation: UInt64, count: Int, timeout: Double = 60) -> [ChatMessage] {
        var got: [ChatMessage] = []
        let deadline = Date().addingTimeInterval(timeout)
        while got.count < count, deadline.timeIntervalSinceNow > 0 {
            guard let m = try? client.push(ChatMessage.self, timeout: deadline.timeIntervalSinceNow,
                                           where: { $0.conversationID == conversation }) else { break }
            got.append(m)
        }
        return got
    }

    func testConcurrentSendersOnTwoNodesReachEveryMemberLiveInOrderOnce() throws {
        let (a, b, _, _) = try twoNodes()
        defer { _ = a.terminate(); _ = b.terminate() }
        let users = try TestUsers.register(["ann", "ben", "cat"], port: a.port, capabilities: [.zlib, .messageChanges])
        let group: Conversation = try users[0].request(GroupCreate(name: "race", usernames: ["ben", "cat"]))
        let ann = users[0]
        let ben = try loggedIn("ben", port: b.port)
        let cat = try loggedIn("cat", port: b.port)          // a reader on node 2
        let annPhone = try loggedIn("ann", port: b.port)     // the sender's other device, on the other node
        let benTablet = try loggedIn("ben", port: a.port)    // and the other sender's, on node 1
        let perSender = 200
        let senders = [(ann, "ann"), (ben, "ben")]
        let acks = UnsafeSendableBox<[[UInt64]]>([[], []])
        let received = UnsafeSendableBox<[[ChatMessage]]>([[], [], [], [], []])
        let readers = [cat, annPhone, benTablet]
        DispatchQueue.concurrentPerform(iterations: 5) { i in
            if i >= 2 {
                received.set(i, messages(readers[i - 2], in: group.conversationID, count: 2 * perSender))
                return
            }
            let (client, name) = senders[i]
            acks.set(i, client.sendPipelined((0..<perSender).map { "\(name) \($0)" }, in: group.conversationID))
        }
        let all = UInt64(1)...UInt64(2 * perSender)
        XCTAssertEqual(acks.value.flatMap { $0 }.sorted(), Array(all), "every send acknowledged, gap-free")
        for (name, got) in zip(["cat on node 2", "ann's phone on node 2", "ben's tablet on node 1"], received.value[2...]) {
            XCTAssertEqual(got.map(\.seq), Array(all), "\(name): every message live, in seq order, once")
        }
        XCTAssertEqual(received.value[3].filter { $0.senderUsername == "ann" }.map(\.text), (0..<perSender).map { "ann \($0)" })
        // Each sender is pushed the other's messages (its own have their acks), in order, once.
        for (sender, other) in [(ann, "ben"), (ben, "ann")] {
            let got = messages(sender, in: group.conversationID, count: perSender)
            XCTAssertEqual(got.map(\.text), (0..<perSender).map { "\(other) \($0)" })
            XCTAssertEqual(got.map(\.seq), got.map(\.seq).sorted())
            XCTAssertNil(try? sender.push(ChatMessage.self, timeout: 0.3), "no push of its own messages")
        }
    }

    func testAChangeAReceiptAContactAndANewMemberCrossNodes() throws {
        let (a, b, _, _) = try twoNodes()
        defer { _ = a.terminate(); _ = b.terminate() }
        let users = try TestUsers.register(["ann", "ben", "cat", "dan"], port: a.port, capabilities: [.zlib, .messageChanges])
        let ann = users[0]
        let group: Conversation = try ann.request(GroupCreate(name: "crew", usernames: ["ben", "cat"]))
        let ben = try loggedIn("ben", port: b.port)
        let dan = try loggedIn("dan", port: b.port)
        let first = try ann.sendText("lunch?", in: group.conversationID)
        XCTAssertEqual(try ben.push(ChatMessage.self).text, "lunch?")

        // A reaction on node 1 reaches ben on node 2.
        let _: SendAck = try ann.request(ChangeRequest(conversationID: group.conversationID, clientID: TestClient.newClientID(),
                                                       targetSeq: first.seq, action: .react, emoji: "👍"))
        let change = try ben.push(MessageChange.self)
        XCTAssertEqual([change.targetSeq, change.action], [first.seq, ChangeAction.react.rawValue])
        XCTAssertEqual(change.emoji, "👍")

        // ben reads it on node 2: ann, on node 1, is shown his receipt.
        let _: OK = try ben.request(Mark(conversationID: group.conversationID, readSeq: first.seq))
        let receipt = try ann.push(Receipt.self, where: { $0.userID == ben.user?.userID })
        XCTAssertEqual([receipt.deliveredSeq, receipt.readSeq], [first.seq, first.seq])

        // A contact request on node 1 reaches dan on node 2; his accept on node 2 reaches ann.
        let _: Profile = try ann.request(ContactAdd(username: "dan"))
        let asked = try dan.push(ContactUpdate.self)
        XCTAssertEqual([asked.profile.user.username], ["ann"])
        XCTAssertEqual(asked.profile.contactState, .incoming)
        let _: Profile = try dan.request(ContactAccept(username: "ann"))
        let accepted = try ann.push(ContactUpdate.self)
        XCTAssertEqual([accepted.profile.user.username], ["dan"])
        XCTAssertEqual(accepted.profile.contactState, .accepted)

        // dan, on node 2, is added on node 1: told of the group, then sent its next message live.
        XCTAssertNil(try? dan.push(ChatMessage.self, timeout: 0.3), "not a member yet")
        let _: Conversation = try ann.request(GroupAdd(conversationID: group.conversationID, usernames: ["dan"]))
        let shown = try dan.push(Conversation.self, where: { $0.conversationID == group.conversationID })
        XCTAssertEqual(shown.name, "crew")
        try ann.sendText("welcome dan", in: group.conversationID)
        XCTAssertEqual(try dan.push(ChatMessage.self).text, "welcome dan")
        XCTAssertEqual(try ben.push(ChatMessage.self).text, "welcome dan")

        // A rename on node 1 and a direct conversation opened there are shown to dan on node 2.
        let _: Conversation = try ann.request(GroupRename(conversationID: group.conversationID, name: "crew 2"))
        XCTAssertEqual(try dan.push(Conversation.self, where: { $0.conversationID == group.conversationID }).name, "crew 2")
        let direct = try ann.openDM(with: "dan")
        XCTAssertEqual(try dan.push(Conversation.self, where: { $0.conversationID == direct.conversationID }).kind, .direct)

        // ben leaves on node 2; ann's next message no longer reaches his other device on node 2.
        let benPhone = try loggedIn("ben", port: b.port)
        let _: OK = try ben.request(GroupLeave(conversationID: group.conversationID))
        let left = try ann.push(Conversation.self, where: { $0.conversationID == group.conversationID })
        XCTAssertEqual(left.members.count, 3)
        try ann.sendText("bye ben", in: group.conversationID)
        XCTAssertEqual(try dan.push(ChatMessage.self).text, "bye ben")
        XCTAssertNil(try? benPhone.push(ChatMessage.self, timeout: 1), "a member who left on his node gets nothing")
    }

    /// A wake-up lost (the LISTEN connection killed by the database) only delays: the node
    /// reconnects and its poll reads the log anyway.
    func testALostWakeUpOnlyDelays() throws {
        let (a, b, name, _) = try twoNodes()
        defer { _ = a.terminate(); _ = b.terminate() }
        let cluster = try XCTUnwrap(Self.cluster)
        let users = try TestUsers.register(["ann", "ben"], port: a.port)
        let dm = try users[0].openDM(with: "ben")
        let ben = try loggedIn("ben", port: b.port)
        for round in 0..<3 {
            let killed = try cluster.psql("""
                SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
                WHERE datname = '\(name)' AND application_name = 'messageai-listen'
                """, database: name)
            XCTAssertEqual(killed.trimmingCharacters(in: .whitespacesAndNewlines), "2", "both nodes listened (round \(round))")
            try users[0].sendText("after kill \(round)", in: dm.conversationID)
            XCTAssertEqual(try ben.push(ChatMessage.self, timeout: 10).text, "after kill \(round)")
            // Wait until both listen again before the next round kills them.
            let deadline = Date().addingTimeInterval(10)
            while deadline.timeIntervalSinceNow > 0, try cluster.psql("""
                SELECT count(*) FROM pg_stat_activity WHERE datname = '\(name)' AND application_name = 'messageai-listen'
                """, database: name).trimmingCharacters(in: .whitespacesAndNewlines) != "2" {
                usleep(50_000)
            }
        }
    }

    /// A SEND skips the handler's membership check for a sender this node saw pass it (the
    /// append confirms it in the transaction, PostgreSQL only): a sender removed, or blocked,
    /// through the other node since is still refused with the same error as before, nothing
    /// is stored, and the sender's next message after being added back is stored.
    func testASenderRemovedOrBlockedThroughTheOtherNodeIsRefusedAsBefore() throws {
        let (a, b, _, _) = try twoNodes()
        defer { _ = a.terminate(); _ = b.terminate() }
        let users = try TestUsers.register(["ann", "ben", "cat"], port: a.port, capabilities: [.zlib, .messageChanges])
        let (ann, cat) = (users[0], users[2])
        let group: Conversation = try cat.request(GroupCreate(name: "crew", usernames: ["ann", "ben"]))
        let dm = try ann.openDM(with: "ben")
        XCTAssertEqual(try ann.sendText("one", in: group.conversationID).seq, 1)
        XCTAssertEqual(try ann.sendText("hi ben", in: dm.conversationID).seq, 1)
        // On node 2: ann leaves the group (her other session), ben blocks her.
        let annThere = try loggedIn("ann", port: b.port)
        let ben = try loggedIn("ben", port: b.port)
        let _: OK = try annThere.request(GroupLeave(conversationID: group.conversationID))
        let _: OK = try ben.request(Block(username: "ann"))
        let send = { (conversation: UInt64, text: String) in
            try ann.requestError(Send(conversationID: conversation, clientID: TestClient.newClientID(), text: text)).errorCode
        }
        XCTAssertEqual(try send(group.conversationID, "after leaving"), .notAMember)
        XCTAssertEqual(try send(dm.conversationID, "after the block"), .notAContact)
        // Added back (through node 2), she sends through node 1 again: stored with the next seq.
        let _: Conversation = try cat.request(GroupAdd(conversationID: group.conversationID, usernames: ["ann"]))
        XCTAssertEqual(try ann.sendText("back", in: group.conversationID).seq, 2, "nothing refused took a seq")
        let history = try cat.sync().batches.flatMap(\.messages).filter { $0.conversationID == group.conversationID }
        XCTAssertEqual(history.map(\.text), ["one", "back"])
    }
}
