import Foundation
import MessageAIProtocol
@testable import MessageAIServer
import XCTest

/// A delete for everyone over real sockets: the server answers at once and then takes the
/// message's words out of its database file and WAL in bounded steps (`scheduleScrub`).
final class DeleteScrubTests: XCTestCase {
    func testADeletedMessageLeavesTheServersFilesWhileTheServerKeepsAnswering() throws {
        let server = try TestServer { $0.rateLimit = 100_000 }
        defer { server.stop() }
        let users = try TestUsers.register(["ann", "ben", "cat"], port: server.port, capabilities: [.messageChanges])
        let (ann, ben) = (users[0], users[1])
        let g: Conversation = try ann.request(GroupCreate(name: "plans", usernames: ["ben", "cat"]))
        let cid = g.conversationID
        func send(_ c: TestClient, _ text: String) throws -> SendAck {
            try c.request(Send(conversationID: cid, clientID: TestClient.newClientID(), text: text))
        }
        let gone = try send(ann, "the quetzalvortex launch is on wednesday")
        _ = try send(ann, "the pangolinharbor notes stay")
        // Several index batches: the word's entry sits in an older segment than its tombstone.
        for round in 0..<3 {
            for i in 0..<300 { _ = try send(ben, "filler \(round) \(i) ça va 👍🏽") }
            // A search indexes what is committed first: one index segment per round.
            XCTAssertFalse(try ben.request(SearchRequest(query: "filler"), expecting: SearchResults.self).messages.isEmpty)
        }
        let files = [server.directory.path + "/messageai.sqlite", server.directory.path + "/messageai.sqlite-wal"]
        func onDisk(_ word: String) -> Bool {
            files.contains { (FileManager.default.contents(atPath: $0) ?? Data()).range(of: Data(word.utf8)) != nil }
        }
        // "wednesday" is in no other message: its index term, whatever prefix it shares.
        XCTAssertTrue(onDisk("ednesday"), "the index holds the word before the delete")

        let delete: SendAck = try ann.request(ChangeRequest(conversationID: cid, clientID: TestClient.newClientID(),
                                                            targetSeq: gone.seq, action: .delete))
        XCTAssertGreaterThan(delete.seq, 0)
        // The server keeps serving while it scrubs.
        XCTAssertGreaterThan(try send(ben, "still here").seq, delete.seq)
        XCTAssertTrue(waitUntil { !onDisk("ednesday") && !onDisk("quetzalvortex") }, "the words left the database file and its WAL")
        XCTAssertTrue(onDisk("pangolinharbor notes stay"), "a kept message is still there")
        XCTAssertEqual(try ann.request(SearchRequest(query: "pangolinharbor"), expecting: SearchResults.self).messages.count, 1)
        XCTAssertEqual(try ann.request(SearchRequest(query: "wednesday"), expecting: SearchResults.self).messages.count, 0)
    }
}
