import Foundation
import MessageAIProtocol
import XCTest

/// U+0000 in a request's text, on both backends as real server processes: PostgreSQL's `text`
/// cannot hold it and SQLite could, so the server refuses it for every store, at decoding,
/// with `invalid_argument` naming the field; nothing is stored and the connection stays usable.
final class NulTextTests: ClusterTestCase {
    func testSQLiteRefusesNulInTextAndNames() throws {
        let dir = try ServerTestDirectory()
        let child = try ChildServer(dataDir: dir.path)
        defer { _ = child.terminate() }
        try checkNulIsRefused(port: child.port)
    }

    func testPostgresRefusesNulInTextAndNames() throws {
        let cluster = try XCTUnwrap(Self.cluster)
        let name = "nul_\(UUID().uuidString.prefix(8).lowercased())"
        try cluster.createDatabase(name)
        let dir = try ServerTestDirectory()
        let child = try ChildServer(dataDir: dir.path, arguments: ["--database", cluster.url(database: name)])
        defer { _ = child.terminate() }
        try checkNulIsRefused(port: child.port)
    }

    private func checkNulIsRefused(port: Int) throws {
        let users = try TestUsers.register(["nora", "olaf"], port: port)
        let (nora, olaf) = (users[0], users[1])
        let dm = try nora.openDM(with: "olaf")

        let refused = try nora.requestError(Send(conversationID: dm.conversationID, clientID: TestClient.newClientID(),
                                                 text: "before\u{0}after"))
        XCTAssertEqual(refused.code, UInt64(ErrorCode.invalidArgument.rawValue))
        XCTAssertEqual(refused.field, "text")
        XCTAssertTrue(refused.message.contains("U+0000"), refused.message)
        XCTAssertFalse(refused.closes, "the connection stays open")

        let group = try nora.requestError(GroupCreate(name: "team\u{0}", usernames: ["olaf"]))
        XCTAssertEqual(group.code, UInt64(ErrorCode.invalidArgument.rawValue))
        XCTAssertEqual(group.field, "name")

        // Nothing of the refused SEND was stored: the next message is the first, and olaf
        // gets only it.
        let ack = try nora.sendText("after the refusal", in: dm.conversationID)
        XCTAssertEqual(ack.seq, 1)
        XCTAssertEqual(try olaf.push(ChatMessage.self).text, "after the refusal")
        let history: HistoryPage = try olaf.request(HistoryRequest(conversationID: dm.conversationID, beforeSeq: 0, limit: 10))
        XCTAssertEqual(history.messages.map(\.text), ["after the refusal"])
    }
}
