import Foundation
import MessageAIProtocol
@testable import MessageAIServer
import XCTest

/// The delivery promise between real clients: order, acks after commit, pushes, markers.
final class MessagingTests: TwoUserTestCase {
    func testBothOnlineOrderTimestampsAndStatesToRead() throws {
        let alicePhone = try TestUsers.secondSession(of: alice, port: server.port)
        try TestUsers.makeContacts(alice, bob) // a stranger's DM would be a message request: no read markers
        let dm = try alice.openDM(with: "bob")
        let pushedConversation = try bob.push(Conversation.self)
        XCTAssertEqual(pushedConversation.conversationID, dm.conversationID)
        XCTAssertEqual(try alice.openDM(with: "BOB").conversationID, dm.conversationID, "one conversation per pair")
        XCTAssertEqual(try bob.openDM(with: "alice").conversationID, dm.conversationID)
        XCTAssertEqual(try alice.requestError(DMOpen(username: "alice")).errorCode, .invalidArgument)

        var acks: [SendAck] = []
        for text in ["one", "two", "three"] { acks.append(try alice.sendText(text, in: dm.conversationID)) }
        XCTAssertEqual(acks.map(\.seq), [1, 2, 3])
        XCTAssertEqual(acks.map(\.duplicate), [false, false, false])
        XCTAssertEqual(acks.map(\.serverTime), acks.map(\.serverTime).sorted())

        let received = try (0..<3).map { _ in try bob.push(ChatMessage.self) }
        XCTAssertEqual(received.map(\.text), ["one", "two", "three"])
        XCTAssertEqual(received.map(\.seq), [1, 2, 3])
        XCTAssertEqual(received.map(\.serverTime), acks.map(\.serverTime))
        XCTAssertEqual(received.map(\.senderUsername), ["alice", "alice", "alice"])
        // The sender's other session sees its own messages; the sending connection only acks.
        XCTAssertEqual(try (0..<3).map { _ in try alicePhone.push(ChatMessage.self).seq }, [1, 2, 3])
        let _: Pong = try alice.request(Ping())
        XCTAssertFalse(alice.inbox.contains { $0.type == .message })

        // sent -> delivered -> read, as the sender sees it.
        let _: OK = try bob.request(Mark(conversationID: dm.conversationID, deliveredSeq: 3))
        let delivered = try alice.push(Receipt.self)
        XCTAssertEqual([delivered.username, String(delivered.deliveredSeq), String(delivered.readSeq)], ["bob", "3", "0"])
        bob.send(Mark(conversationID: dm.conversationID, readSeq: 2).frame(requestID: 0)) // id 0: no OK expected
        let read = try alice.push(Receipt.self)
        XCTAssertEqual([read.deliveredSeq, read.readSeq], [3, 2])
        let _: OK = try bob.request(Mark(conversationID: dm.conversationID, deliveredSeq: 1, readSeq: 1)) // never lowers
        let readers: ReadersResult = try alice.request(ReadersRequest(conversationID: dm.conversationID, seq: 2))
        XCTAssertEqual(readers.recipientCount, 1)
        XCTAssertEqual(readers.readBy.map(\.username), ["bob"])
        let notYet: ReadersResult = try alice.request(ReadersRequest(conversationID: dm.conversationID, seq: 3))
        XCTAssertEqual(notYet.deliveredTo.map(\.username), ["bob"])
        XCTAssertEqual(notYet.readBy, [])
    }

    func testRecipientOfflineThenBackGetsEverythingOnceBySync() throws {
        try Scenario.offlineRecipientCatchesUpBySync(port: server.port, alice: alice, bob: bob)
    }

    func testSyncAnswersFromPositionsEvenForWhatThisConnectionReceivedLive() throws {
        let dm = try alice.openDM(with: "bob")
        _ = try alice.sendText("1", in: dm.conversationID)
        _ = try bob.push(ChatMessage.self)
        _ = try bob.sendText("2 (bob's own, acked on this connection)", in: dm.conversationID)
        _ = try alice.sendText("3", in: dm.conversationID)
        _ = try bob.push(ChatMessage.self)
        // The client says it has nothing: it gets everything (it dedupes by seq).
        XCTAssertEqual(try bob.sync().batches.flatMap(\.messages).map(\.seq), [1, 2, 3])
        XCTAssertEqual(try bob.sync([SyncPosition(conversationID: dm.conversationID, lastSeq: 3)]).batches.flatMap(\.messages).map(\.seq), [])
        // A new connection has nothing yet: it gets everything.
        let fresh = try TestUsers.secondSession(of: bob, port: server.port)
        XCTAssertEqual(try fresh.sync().batches.flatMap(\.messages).map(\.seq), [1, 2, 3])
    }

    func testRapidFireFromTwoSendersAtOnceGivesOneOrderWithoutDuplicates() throws {
        let dm = try alice.openDM(with: "bob")
        _ = try bob.push(Conversation.self)
        // Both pipeline 20 SENDs without waiting for acks.
        let aliceIDs = (0..<20).map { alice.send(Send(conversationID: dm.conversationID, clientID: TestClient.newClientID(), text: "a\($0)")) }
        let bobIDs = (0..<20).map { bob.send(Send(conversationID: dm.conversationID, clientID: TestClient.newClientID(), text: "b\($0)")) }
        let aliceAcks: [SendAck] = try aliceIDs.map { try alice.answer($0) }
        let bobAcks: [SendAck] = try bobIDs.map { try bob.answer($0) }
        XCTAssertEqual(aliceAcks.map(\.seq), aliceAcks.map(\.seq).sorted(), "a sender's messages keep their order")
        XCTAssertEqual(Set(aliceAcks.map(\.seq) + bobAcks.map(\.seq)), Set(1...40))

        let bobGot = try (0..<20).map { _ in try bob.push(ChatMessage.self) }
        let aliceGot = try (0..<20).map { _ in try alice.push(ChatMessage.self) }
        XCTAssertEqual(bobGot.map(\.text), (0..<20).map { "a\($0)" })
        XCTAssertEqual(aliceGot.map(\.text), (0..<20).map { "b\($0)" })

        let fromAlice: HistoryPage = try alice.request(HistoryRequest(conversationID: dm.conversationID, limit: 100))
        let fromBob: HistoryPage = try bob.request(HistoryRequest(conversationID: dm.conversationID, limit: 100))
        XCTAssertEqual(fromAlice.messages.map(\.seq), Array(1...40))
        XCTAssertEqual(fromAlice.messages, fromBob.messages, "everyone sees the same order")
        XCTAssertFalse(fromAlice.hasMore)
    }

    func testPipelinedSendsAreCommittedInGroups() throws {
        let dm = try alice.openDM(with: "bob")
        let before = server.server.queue.sync { server.server.commitStats }
        let frames = (0..<200).map {
            Send(conversationID: dm.conversationID, clientID: TestClient.newClientID(), text: "group \($0)").frame(requestID: UInt32(1_000 + $0)).encoded()
        }
        alice.sendRaw(Array(frames.joined()))
        let acks: [SendAck] = try (0..<200).map { try alice.answer(UInt32(1_000 + $0)) }
        XCTAssertEqual(acks.map(\.seq), Array(1...200))
        let after = server.server.queue.sync { server.server.commitStats }
        XCTAssertEqual(after.messages - before.messages, 200)
        XCTAssertLessThan(after.transactions - before.transactions, 50, "200 SENDs arriving together share transactions")
    }

    func testGroupOfThreeAttributionAndPerMemberReadState() throws {
        let carol = try TestUsers.register(["carol"], port: server.port)[0]
        let group: Conversation = try alice.request(GroupCreate(name: "trip", usernames: ["bob", "carol"]))
        XCTAssertEqual(group.kind, .group)
        XCTAssertEqual(group.members.map(\.username).sorted(), ["alice", "bob", "carol"])
        XCTAssertEqual(try bob.push(Conversation.self).name, "trip")
        XCTAssertEqual(try carol.push(Conversation.self).conversationID, group.conversationID)
        XCTAssertEqual(try alice.requestError(GroupCreate(name: "tiny", usernames: ["bob"])).errorCode, .invalidArgument)

        _ = try alice.sendText("hi all", in: group.conversationID)
        _ = try bob.sendText("hi alice", in: group.conversationID)
        let carolGot = try (0..<2).map { _ in try carol.push(ChatMessage.self) }
        XCTAssertEqual(carolGot.map(\.senderUsername), ["alice", "bob"])
        XCTAssertEqual(try bob.push(ChatMessage.self).senderUsername, "alice")

        let _: OK = try bob.request(Mark(conversationID: group.conversationID, deliveredSeq: 1, readSeq: 1))
        let _: OK = try carol.request(Mark(conversationID: group.conversationID, deliveredSeq: 2))
        let readers: ReadersResult = try alice.request(ReadersRequest(conversationID: group.conversationID, seq: 1))
        XCTAssertEqual(readers.recipientCount, 2)
        XCTAssertEqual(readers.deliveredTo.map(\.username).sorted(), ["bob", "carol"])
        XCTAssertEqual(readers.readBy.map(\.username), ["bob"])
        XCTAssertEqual(try alice.push(Receipt.self).username, "bob")

        let same: Conversation = try bob.request(GroupAdd(conversationID: group.conversationID, usernames: ["carol"]))
        XCTAssertEqual(same.members.count, 3, "adding a member again changes nothing")
        let renamed: Conversation = try carol.request(GroupRename(conversationID: group.conversationID, name: "trip 2026"))
        XCTAssertEqual(renamed.name, "trip 2026")
        XCTAssertEqual(try alice.push(Conversation.self) { $0.name == "trip 2026" }.conversationID, group.conversationID)
        let _: OK = try carol.request(GroupLeave(conversationID: group.conversationID))
        XCTAssertEqual(try alice.push(Conversation.self) { $0.members.count == 2 }.conversationID, group.conversationID)
        XCTAssertEqual(try carol.requestError(Send(conversationID: group.conversationID, clientID: TestClient.newClientID(), text: "x")).errorCode,
                       .notAMember)
    }

    func testResendAfterDroppedAckIsStoredOnce() throws {
        let dm = try alice.openDM(with: "bob")
        let clientID = TestClient.newClientID()
        // The ack is lost: the connection dies right after the SEND.
        let flaky = try TestUsers.secondSession(of: alice, port: server.port)
        flaky.send(Send(conversationID: dm.conversationID, clientID: clientID, text: "only once"))
        let first = try bob.push(ChatMessage.self)
        flaky.close()

        let again = try alice.sendText("only once", in: dm.conversationID, clientID: clientID)
        XCTAssertTrue(again.duplicate)
        XCTAssertEqual(again.seq, first.seq)
        XCTAssertEqual(again.serverTime, first.serverTime)
        let _: Pong = try bob.request(Ping())
        XCTAssertFalse(bob.inbox.contains { $0.type == .message }, "a resend is not pushed again")
        let page: HistoryPage = try bob.request(HistoryRequest(conversationID: dm.conversationID))
        XCTAssertEqual(page.messages.map(\.text), ["only once"])
    }

    func testMessageLengthLimitsAndMembership() throws {
        let dm = try alice.openDM(with: "bob")
        let long = String(repeating: "é🙂ab", count: 2_250) // 9,000 scalars, multi-byte UTF-8
        XCTAssertEqual(long.unicodeScalars.count, 9_000)
        _ = try alice.sendText(long, in: dm.conversationID)
        XCTAssertEqual(try bob.push(ChatMessage.self).text, long)

        let tooLong = try alice.requestError(Send(conversationID: dm.conversationID, clientID: TestClient.newClientID(),
                                                  text: String(repeating: "x", count: 10_001)))
        XCTAssertEqual(tooLong.errorCode, .tooLong)
        XCTAssertEqual(tooLong.limit, 10_000)
        XCTAssertEqual(try alice.requestError(Send(conversationID: dm.conversationID, clientID: TestClient.newClientID(), text: "")).errorCode,
                       .invalidArgument)
        let eve = try TestUsers.register(["eve"], port: server.port)[0]
        XCTAssertEqual(try eve.requestError(Send(conversationID: dm.conversationID, clientID: TestClient.newClientID(), text: "hi")).errorCode,
                       .notAMember)
        XCTAssertEqual(try eve.requestError(HistoryRequest(conversationID: dm.conversationID)).errorCode, .notAMember)
        let page: HistoryPage = try bob.request(HistoryRequest(conversationID: dm.conversationID))
        XCTAssertEqual(page.messages.count, 1)
    }

    func testTypingIsRelayedToOthersOnly() throws {
        let dm = try alice.openDM(with: "bob")
        alice.send(Typing(conversationID: dm.conversationID).frame(requestID: 0)) // as clients send it: no answer
        let event = try bob.push(TypingEvent.self)
        XCTAssertEqual(event.user.username, "alice")
        XCTAssertEqual(event.ttl, 5_000)
        let _: Pong = try alice.request(Ping())
        XCTAssertFalse(alice.inbox.contains { $0.type == .typingEvent })
        XCTAssertEqual(alice.inbox.filter { $0.requestID != 0 }.count, 0, "TYPING is never answered")
    }
}
