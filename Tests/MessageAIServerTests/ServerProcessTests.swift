import Foundation
import MessageAIProtocol
@testable import MessageAIServer
import XCTest

/// The `messageai-server` executable as a real child process: CLI, signals, kill -9.
final class ServerProcessTests: XCTestCase {
    func testHelpVersionAndBadFlags() throws {
        XCTAssertTrue(try run(["--version"]).out.contains("messageai-server 0.4.1"))
        let help = try run(["--help"]).out
        for flag in ["--host", "--port", "--data-dir", "--rate-limit", "--rate-window", "--idle-timeout", "--ping-interval",
                     "--log-level", "--max-frame", "--fsync"] {
            XCTAssertTrue(help.contains(flag), "--help mentions \(flag)")
        }
        let bad = try run(["--port", "99999"])
        XCTAssertNotEqual(bad.status, 0)
        XCTAssertNotEqual(try run(["--pbkdf2-rounds", "1000"]).status, 0, "weaker hashing is refused")
    }

    func testSigtermExitsCleanlyAndDatabaseIsPrivate() throws {
        let dir = try ServerTestDirectory()
        let child = try ChildServer(dataDir: dir.path + "/data")
        let c = try TestClient(port: child.port)
        try c.hello()
        XCTAssertEqual(child.terminate(), 0)
        XCTAssertEqual(child.stdoutAfterExit(), "", "the server writes nothing to stdout")
        XCTAssertTrue(child.stderr.contains("listening on 127.0.0.1:\(child.port)"))
        let attrs = try FileManager.default.attributesOfItem(atPath: dir.path + "/data")
        XCTAssertEqual((attrs[.posixPermissions] as? NSNumber)?.intValue, 0o700)
        let db = try FileManager.default.attributesOfItem(atPath: dir.path + "/data/" + ServerProcess.databaseFileName)
        XCTAssertEqual((db[.posixPermissions] as? NSNumber)?.intValue, 0o600)
        XCTAssertTrue(try c.waitForClose())
        let goodbye = try XCTUnwrap(c.inbox.first { $0.type == .error }).decode(ErrorFrame.self)
        XCTAssertEqual(goodbye.errorCode, .shuttingDown, "clients are told before the server goes")
    }

    func testOfflineRecipientScenarioAgainstTheExecutable() throws {
        let dir = try ServerTestDirectory()
        let child = try ChildServer(dataDir: dir.path + "/data")
        let users = try TestUsers.register(["alice", "bob"], port: child.port)
        try Scenario.offlineRecipientCatchesUpBySync(port: child.port, alice: users[0], bob: users[1])
        XCTAssertEqual(child.terminate(), 0)
    }

    /// kill -9 in the middle of a burst loses no acknowledged message; resends after the
    /// restart get their original seq back and nothing is stored twice.
    func testKill9MidBurstLosesNoAcknowledgedMessage() throws {
        let dir = try ServerTestDirectory()
        let data = dir.path + "/data"
        var child = try ChildServer(dataDir: data, arguments: ["--rate-limit", "1000000"])
        let users = try TestUsers.register(["alice", "bob"], port: child.port)
        let (alice, bob) = (users[0], users[1])
        let dm = try alice.openDM(with: "bob")

        let total = 3_000
        let clientIDs = (0..<total).map { _ in TestClient.newClientID() }
        let frames = (0..<total).map {
            Send(conversationID: dm.conversationID, clientID: clientIDs[$0], text: "burst \($0)").frame(requestID: UInt32(10_000 + $0)).encoded()
        }
        // A writer thread keeps sending while this thread collects acks, then the server dies.
        let writer = Thread { for chunk in stride(from: 0, to: total, by: 25) { alice.sendRaw(Array(frames[chunk..<min(chunk + 25, total)].joined())); usleep(1_000) } }
        writer.start()
        var acked: [Int: SendAck] = [:]
        while acked.count < 300 {
            guard let f = try alice.readFrame(timeout: 10) else { break }
            if f.type == .sendAck { acked[Int(f.requestID) - 10_000] = try f.decode(SendAck.self) }
        }
        child.kill9()
        XCTAssertGreaterThanOrEqual(acked.count, 300)
        while !writer.isFinished { usleep(1_000) }

        child = try ChildServer(dataDir: data, arguments: ["--rate-limit", "1000000"])
        let again = try TestClient(port: child.port)
        try again.hello()
        let _: SessionGranted = try again.request(Resume(token: alice.token))
        let ids = (0..<total).map { again.send(Send(conversationID: dm.conversationID, clientID: clientIDs[$0], text: "burst \($0)")) }
        var duplicates = 0
        for (i, id) in ids.enumerated() {
            let ack: SendAck = try again.answer(id, timeout: 30)
            if let before = acked[i] {
                XCTAssertTrue(ack.duplicate, "message \(i) was acknowledged before the crash")
                XCTAssertEqual(ack.seq, before.seq)
                XCTAssertEqual(ack.serverTime, before.serverTime)
            }
            if ack.duplicate { duplicates += 1 }
        }
        XCTAssertGreaterThanOrEqual(duplicates, acked.count)
        print("kill -9 test: \(acked.count) acks read before the kill, \(duplicates) of \(total) stored before it")

        let bobAgain = try TestClient(port: child.port)
        try bobAgain.hello()
        let _: SessionGranted = try bobAgain.request(Resume(token: bob.token))
        let stored = try bobAgain.sync().batches.flatMap(\.messages)
        XCTAssertEqual(stored.count, total, "every message stored exactly once")
        XCTAssertEqual(stored.map(\.seq), Array(1...UInt64(total)))
        XCTAssertEqual(Set(stored.map(\.clientID)).count, total)
        XCTAssertEqual(child.terminate(), 0)
    }

    /// The database no longer uses SQLite's exclusive locking (the WAL checkpointer opens a
    /// second connection): a lock file keeps a second server off the same data directory.
    func testASecondServerOnTheSameDataDirectoryIsRefused() throws {
        let dir = try ServerTestDirectory()
        let child = try ChildServer(dataDir: dir.path + "/data")
        let second = Process()
        second.executableURL = ChildServer.executable
        second.arguments = ["--port", "0", "--data-dir", dir.path + "/data", "--plaintext"]
        let out = Pipe()
        second.standardOutput = out
        second.standardError = out
        try second.run()
        let deadline = Date().addingTimeInterval(15)
        while second.isRunning, Date() < deadline { usleep(10_000) }
        if second.isRunning { second.terminate() }
        second.waitUntilExit()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        XCTAssertEqual(second.terminationStatus, 1, text)
        XCTAssertTrue(text.contains("another server is using"), text)
        let users = try TestUsers.register(["alice", "bob"], port: child.port)
        XCTAssertEqual(users.count, 2, "the first server keeps serving")
        XCTAssertEqual(child.terminate(), 0)
        // Once it has stopped, the directory is free again.
        let next = try ChildServer(dataDir: dir.path + "/data")
        XCTAssertEqual(next.terminate(), 0)
    }

    /// `--database-cutoff`: seconds, or 0/off for never; nonsense is refused with the reason,
    /// and the config file takes it under the same name.
    func testDatabaseCutoffIsASettingAndNonsenseIsRefused() throws {
        XCTAssertTrue(try run(["--help"]).out.contains("--database-cutoff"), "--help mentions --database-cutoff")
        for bad in ["-1", "0.5", "ten", "nan", "inf"] {
            let r = try run(["--database-cutoff=\(bad)", "--check-config"])
            XCTAssertNotEqual(r.status, 0, "'\(bad)' is refused")
            XCTAssertTrue(r.out.contains("--database-cutoff takes seconds, at least 1"), r.out)
        }
        XCTAssertTrue(try run(["--check-config"]).out.contains("database-cutoff: 10.0 s"), "10 s by default")
        XCTAssertTrue(try run(["--database-cutoff", "2.5", "--check-config"]).out.contains("database-cutoff: 2.5 s"))
        for never in ["0", "off", "Off"] {
            XCTAssertTrue(try run(["--database-cutoff", never, "--check-config"]).out.contains("database-cutoff: off"), never)
        }
        let dir = try ServerTestDirectory()
        let file = dir.path + "/server.yaml"
        try "database-cutoff: 3\n".write(toFile: file, atomically: true, encoding: .utf8)
        let fromFile = try run(["--config", file, "--check-config"])
        XCTAssertEqual(fromFile.status, 0, fromFile.out)
        XCTAssertTrue(fromFile.out.contains("database-cutoff: 3.0 s"), fromFile.out)
    }

    private func run(_ arguments: [String]) throws -> (status: Int32, out: String) { try ChildServer.run(arguments) }
}
