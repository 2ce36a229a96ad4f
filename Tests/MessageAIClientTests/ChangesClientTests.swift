import Foundation
import XCTest

/// Replies, reactions, edits and deletes with real `messageai` and `messageai-server`
/// processes: a member who was offline, a fresh device, the deleted text gone from every file,
/// a reaction resent after kill -9, an edit that arrives after the window.
final class ChangesClientTests: ServerBackedTestCase {
    override class var directoryName: String { "changes" }
    static let secret = "zanzibarquokka launch code"

    /// Every file under `dir` (databases, WALs, outbox) that holds `text`.
    private func files(under dir: String, containing text: String) -> [String] {
        let e = FileManager.default.enumerator(atPath: dir)
        var found: [String] = []
        while let name = e?.nextObject() as? String {
            let path = dir + "/" + name
            if let d = FileManager.default.contents(atPath: path), d.range(of: Data(text.utf8)) != nil { found.append(path) }
        }
        return found
    }

    private func history(_ user: String) throws -> [[String: Any]] {
        let r = try clients.run(user, ["/open deploys", "/history 50"], json: true)
        XCTAssertEqual(r.status, 0, r.err)
        return try XCTUnwrap(jsonLines(r.out).first { $0["type"] as? String == "history" })["messages"] as? [[String: Any]] ?? []
    }

    func testOfflineMemberAndFreshDeviceSeeTheFinalStateAndTheDeletedTextIsGoneEverywhere() throws {
        try clients.register("alice", "bob", "carol")
        var r = try clients.run("alice", ["/group create deploys bob carol", "the deploy moved to 3pm", Self.secret, "/wait sent"])
        XCTAssertEqual(r.status, 0, r.err)
        // carol holds both messages in her cache, then goes offline (no process).
        r = try clients.run("carol", ["/open deploys", "/wait-messages 2", "/history"])
        XCTAssertTrue(r.out.contains(Self.secret), r.out + r.err)
        XCTAssertFalse(files(under: clients.dir("carol"), containing: Self.secret).isEmpty, "the check below can fail")

        r = try clients.run("bob", ["/open deploys", "/reply #1 thanks, noted 👍🏽", "/react #1 :+1:", "/react #1 🎉", "/react #1 🎉"], json: true)
        XCTAssertEqual(r.status, 0, r.err)
        let changes = jsonLines(r.out).filter { $0["type"] as? String == "change" }
        XCTAssertEqual(changes.compactMap { $0["action"] as? String }, ["react", "react", "unreact"], "one event per change")
        r = try clients.run("alice", ["/open deploys", "/edit #1 the deploy moved to 4pm", "/react #1 👨‍👩‍👧", "/delete #2",
                                      "/react #2 :tada:", "/edit #3 not mine"])
        XCTAssertTrue(r.err.contains("react of #2 not done: message 2 was deleted") || r.err.contains("message #2 was deleted"), r.err)
        XCTAssertTrue(r.err.contains("only bob, who sent #3, can edit it"), r.err)

        // carol comes back: the final state, in the plain view and in JSON.
        let plain = try clients.run("carol", ["/open deploys", "/history"])
        XCTAssertEqual(plain.status, 0, plain.err)
        XCTAssertTrue(plain.out.contains("alice: the deploy moved to 4pm (edited)"), plain.out)
        XCTAssertTrue(plain.out.contains("alice: message deleted"), plain.out)
        XCTAssertTrue(plain.out.contains("  ↪ alice: the deploy moved to 4pm"), plain.out)
        XCTAssertTrue(plain.out.contains("  👍 1  👨‍👩‍👧 1"), plain.out)
        XCTAssertFalse(plain.out.contains("3pm"), plain.out)
        XCTAssertFalse(plain.out.contains(Self.secret), plain.out)
        let who = try clients.run("carol", ["/open deploys", "/reactions #1"])
        XCTAssertTrue(who.out.contains("👍 1: bob"), who.out)
        XCTAssertTrue(who.out.contains("👨‍👩‍👧 1: alice"), who.out)

        // A fresh device of bob syncs from zero and sees the same.
        let fresh = try clients.run("bob-laptop", ["/login bob password-bob", "/open deploys", "/history"])
        XCTAssertEqual(fresh.status, 0, fresh.err)
        for line in ["alice: the deploy moved to 4pm (edited)", "alice: message deleted", "  ↪ alice: the deploy moved to 4pm", "  👍 1  👨‍👩‍👧 1"] {
            XCTAssertTrue(fresh.out.contains(line), "\(line) in:\n\(fresh.out)")
        }
        let messages = try history("carol")
        XCTAssertEqual(messages.compactMap { $0["seq"] as? Int }, [1, 2, 3], "changes are not messages")
        XCTAssertEqual(messages[1]["deleted"] as? Bool, true)
        XCTAssertEqual(messages[2]["reply_to"] as? Int, 1)

        // bob's first device hears of the delete when it next syncs.
        XCTAssertEqual(try clients.run("bob", ["/open deploys"]).status, 0)
        // Not found by search, not in any file: the server's database and WAL, every cache.
        let find = try clients.run("carol", ["/find zanzibarquokka"])
        XCTAssertTrue(find.out.contains("no messages match"), find.out)
        for user in ["alice", "bob", "carol", "bob-laptop"] {
            XCTAssertEqual(files(under: clients.dir(user), containing: Self.secret), [], "\(user)'s files")
        }
        XCTAssertEqual(files(under: root + "/server", containing: Self.secret), [], "server files while it runs")
        XCTAssertFalse(files(under: root + "/server", containing: "the deploy moved to 4pm").isEmpty, "the check can fail")
        server.stop()
        XCTAssertEqual(files(under: root + "/server", containing: Self.secret), [], "server files after its last checkpoint")
    }

    /// The server is frozen while bob's reaction is in flight; bob is killed -9 before any ack;
    /// the server stores it from the dead connection's bytes, and bob's next run resends it
    /// from the outbox: it counts once.
    func testReactionResentFromTheOutboxAfterKill9CountsOnce() throws {
        try clients.register("alice", "bob")
        XCTAssertEqual(try clients.run("alice", ["/dm bob", "ship it?", "/wait sent"]).status, 0)
        // JSON, to wait for /history's own answer: the catch-up prints the message first, and
        // /history is done only once the server confirmed the read marker.
        let bob = try clients.start("bob", json: true)
        bob.send("/dm alice")
        bob.send("/history 1")
        bob.waitForStdout("\"history\"")
        let server = try XCTUnwrap(self.server.child)
        kill(server.pid, SIGSTOP)
        bob.send("/react #1 :rocket:")
        let outbox = clients.dir("bob") + "/accounts/bob/outbox.json"
        eventually(15, "the reaction in bob's outbox; bob: \(bob.stdout) \(bob.stderr)") {
            (FileManager.default.contents(atPath: outbox).map { String(decoding: $0, as: UTF8.self) } ?? "").contains("react")
        }
        eventually(15, "bob's CHANGE waiting in the frozen server's socket") { receiveQueue(port: self.server.port) > 0 }
        bob.kill9()
        kill(server.pid, SIGCONT)
        eventually(15, "the server stored the reaction from the dead connection") {
            ((try? clients.run("alice", ["/dm bob", "/history 1", "/reactions #1"]).out) ?? "").contains("🚀 1: bob")
        }
        XCTAssertTrue((String(data: FileManager.default.contents(atPath: outbox) ?? Data(), encoding: .utf8) ?? "").contains("react"),
                      "bob's outbox still holds it: it will be sent again")
        let again = try clients.run("bob", ["/dm alice"], json: true)
        XCTAssertEqual(again.status, 0, again.err)
        XCTAssertFalse((String(data: FileManager.default.contents(atPath: outbox) ?? Data(), encoding: .utf8) ?? "").contains("react"))
        let count = try clients.run("alice", ["/dm bob", "/reactions #1"], json: true)
        let rows = try XCTUnwrap(jsonLines(count.out).first { $0["type"] as? String == "reactions" }?["reactions"] as? [[String: Any]])
        XCTAssertEqual(rows.count, 1)
        XCTAssertEqual(rows.first?["users"] as? [String], ["bob"], "counted once")
    }

    /// An edit typed offline reaches the server after the window closed: refused, and the user
    /// is told; the message keeps its text.
    func testEditQueuedOfflineAfterTheWindowIsRefusedAndTheUserTold() throws {
        server.stop()
        try server.start(port: 0, extra: ["--edit-window", "1"])
        try clients.register("alice", "bob")
        XCTAssertEqual(try clients.run("alice", ["/dm bob", "teh plan", "/wait sent"]).status, 0)
        let sentAt = Date()
        let port = server.port
        server.stop()
        let offline = try clients.run("alice", ["/open bob", "/edit #1 the plan"], extra: ["--drain-timeout", "0.3"])
        XCTAssertTrue(offline.out.contains("(queued: offline)"), offline.out + offline.err)
        eventually(10, "the 1 s edit window to pass") { Date().timeIntervalSince(sentAt) > 1.5 }
        try server.start(port: port, extra: ["--edit-window", "1"])
        let late = try clients.run("alice", [])
        XCTAssertTrue(late.err.contains("edit of #1 not done"), late.err)
        XCTAssertTrue(late.err.contains("can no longer be edited"), late.err)
        let seen = try clients.run("bob", ["/dm alice", "/history"])
        XCTAssertTrue(seen.out.contains("alice: teh plan"), seen.out)
        XCTAssertFalse(seen.out.contains("(edited)"), seen.out)
    }
}

/// Bytes waiting unread in the server's end of established connections on `port` (`ss`).
func receiveQueue(port: UInt16) -> Int {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/usr/bin/ss")
    p.arguments = ["-tnH", "state", "established", "( sport = :\(port) )"]
    let out = Pipe()
    p.standardOutput = out
    guard (try? p.run()) != nil else { return 0 }
    p.waitUntilExit()
    let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    return text.split(separator: "\n").compactMap { Int($0.split(separator: " ", omittingEmptySubsequences: true).first ?? "") }.reduce(0, +)
}
