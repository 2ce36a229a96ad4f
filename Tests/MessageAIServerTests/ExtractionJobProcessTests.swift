import Foundation
import MessageAIProtocol
import XCTest

/// Extraction as durable jobs on PostgreSQL (issue 26 stage C): two `messageai-server`
/// processes on one database, one of them killed with SIGKILL while it holds a claimed batch.
/// `MESSAGEAI_EXTRACTION_HOLD_MS` makes node 1 hold every batch it claims (its lease renewed)
/// instead of judging it at once, so the test can see the batch and kill it.
final class ExtractionJobProcessTests: ClusterTestCase {
    private func scalar(_ sql: String, _ database: String) throws -> Int {
        Int(try XCTUnwrap(Self.cluster).psql(sql, database: database)) ?? -1
    }

    /// Polls `condition` until it holds or the deadline passes.
    private func wait(_ what: String, timeout: Double = 60, _ condition: () throws -> Bool) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if try condition() { return }
            usleep(50_000)
        }
        XCTFail("not within \(timeout) s: \(what)")
    }

    func testABatchCutShortByKillIsFinishedByTheOtherNodeAndEveryMessageHasItsItemOnce() throws {
        let cluster = try XCTUnwrap(Self.cluster)
        let db = "jobs_\(UUID().uuidString.prefix(8).lowercased())"
        try cluster.createDatabase(db)
        let dirs = [try ServerTestDirectory(), try ServerTestDirectory(), try ServerTestDirectory()]
        let arguments = ["--database", cluster.url(database: db), "--rate-limit", "1000000"]
        // The messages go through a node that extracts nothing itself (started first: node 1,
        // started next, turns queueing on for the database), so that node 1 finds them all
        // queued at its next poll and claims a whole batch, not the first commit's few.
        let entry = try ChildServer(dataDir: dirs[2].path, arguments: arguments + ["--assistant-extract", "off"])
        defer { _ = entry.terminate() }
        let stalling = try ChildServer(dataDir: dirs[0].path, arguments: arguments,
                                       environment: ["MESSAGEAI_EXTRACTION_HOLD_MS": "600000"])
        defer { stalling.kill9() }
        try wait("node 1 turned queueing on") {
            try XCTUnwrap(Self.cluster).psql("SELECT enabled FROM extraction_queue", database: db) == "t"
        }
        let caps: Capabilities = [.zlib, .assistant]
        let users = try TestUsers.register(["ann", "ben", "cat"], port: entry.port, capabilities: caps)
        let group: Conversation = try users[0].request(GroupCreate(name: "release", usernames: ["ben", "cat"]))
        let count = 120
        // Distinct asks: the same words twice would be one open action, not two.
        let seqs = users[0].sendPipelined((0..<count).map { "Ben, could you tag the 2.\($0) hotfix branch by 5pm?" },
                                          in: group.conversationID)
        XCTAssertEqual(seqs.count, count, "every send acknowledged")

        // Every message was queued in its own commit; node 1 holds the first batch it claimed.
        let claimed = "SELECT count(*) FROM extraction_jobs WHERE claimed_until > (extract(epoch FROM clock_timestamp()) * 1000)::BIGINT"
        XCTAssertEqual(try scalar("SELECT count(*) FROM extraction_jobs", db), count)
        var held = 0
        try wait("node 1 holds a claimed batch") {
            held = try scalar(claimed, db)
            return held > 0
        }
        XCTAssertEqual(try scalar("SELECT count(*) FROM assistant_items", db), 0, "nothing stored while the batch is held")
        print("node 1 holds \(held) of \(count) jobs")
        // Holding a batch holds nothing else up: node 1 answers, and a message still crosses nodes.
        let annOnStalling = try TestUsers.secondSession(of: users[0], port: stalling.port, capabilities: caps)
        let asked = Date()
        let none: AssistItems = try annOnStalling.request(AssistItemsList(filter: .all), timeout: 5)
        print("node 1 answered ASSIST_ITEMS_LIST in \(Date().timeIntervalSince(asked)) s")
        XCTAssertEqual(none.items, [])

        // Node 2 takes every job node 1 does not hold, and leaves those it holds (its lease is
        // renewed while it lives, well past the 10 s a lease lasts).
        let other = try ChildServer(dataDir: dirs[1].path, arguments: arguments)
        defer { _ = other.terminate() }
        try wait("node 2 did the free jobs") { try scalar("SELECT count(*) FROM extraction_jobs", db) == held }
        XCTAssertEqual(try scalar("SELECT count(*) FROM assistant_items", db), count - held)
        let ben = try TestUsers.secondSession(of: users[1], port: other.port, capabilities: caps)

        // kill -9 mid-batch: its lease runs out, and a poll of node 2 finishes the batch; ben,
        // on node 2, is pushed those items live.
        stalling.kill9()
        try wait("node 2 finished the killed node's batch") { try scalar("SELECT count(*) FROM extraction_jobs", db) == 0 }
        var pushed = Set<UInt64>()
        while pushed.count < held {
            let items = try ben.push(AssistItems.self, timeout: 30).items
            pushed.formUnion(items.map(\.seq))
        }
        XCTAssertEqual(pushed, Set(seqs.prefix(held)), "the held batch was the first messages, pushed once done")

        // Exactly one item per message, each the ask of its own message.
        XCTAssertEqual(try scalar("SELECT count(*) FROM assistant_items", db), count)
        XCTAssertEqual(try scalar("SELECT count(DISTINCT seq) FROM assistant_items", db), count)
        let mine: AssistItems = try ben.request(AssistItemsList(conversationID: group.conversationID, filter: .all, limit: 500))
        XCTAssertEqual(mine.items.map(\.seq).sorted(), seqs.sorted(), "ben sees every message's item, once")
        for item in mine.items {
            XCTAssertEqual(item.who, "ben")
            XCTAssertTrue(item.text.contains("2.\(item.seq - seqs[0])"), "seq \(item.seq): \(item.text)")
        }
    }
}
