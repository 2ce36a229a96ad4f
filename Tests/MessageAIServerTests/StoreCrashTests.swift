import Foundation
import XCTest
@testable import MessageAIServer
import MessageAIProtocol

/// The durability promise at the storage level: a writer process is killed with SIGKILL while
/// committing, and every message it had seen committed is there after reopening, gapless, and
/// resends of them are recognised as duplicates. The writer is this test binary run again
/// with one test selected and the database named in the environment.
final class StoreCrashTests: XCTestCase {
    static let databaseVariable = "MESSAGEAI_STORE_CRASH_DB"

    func testKill9WhileAppendingLosesNoCommittedMessage() throws {
        let dir = try TempDirectory()
        let setup = try SQLiteStore(path: dir.databasePath)
        let ann = try setup.makeUser("ann"), ben = try setup.makeUser("ben")
        let dm = try setup.directConversation(ann.id, ben.id, now: 1).0
        setup.close()

        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/proc/self/exe")
        child.arguments = ["MessageAIServerTests.StoreCrashTests/testCrashWriterChild"]
        child.environment = ProcessInfo.processInfo.environment.merging(
            [Self.databaseVariable: dir.databasePath, "MESSAGEAI_STORE_CRASH_CONVERSATION": "\(dm.id)",
             "MESSAGEAI_STORE_CRASH_SENDER": "\(ann.id)"]) { $1 }
        let output = Pipe()
        child.standardOutput = output
        child.standardError = FileHandle.nullDevice
        try child.run()

        // Wait (with a deadline) until the writer has reported enough commits, then kill it mid-stream.
        var acked: [UInt64: UInt64] = [:] // counter -> seq
        var pending = ""
        let deadline = Date().addingTimeInterval(60)
        while acked.count < 400, Date() < deadline {
            let data = output.fileHandleForReading.availableData
            if data.isEmpty { break } // the writer ended on its own (its loop is bounded too)
            pending += String(decoding: data, as: UTF8.self)
            while let newline = pending.firstIndex(of: "\n") {
                let line = pending[..<newline]
                pending = String(pending[pending.index(after: newline)...])
                let parts = line.split(separator: " ")
                if parts.count == 3, parts[0] == "ACK", let counter = UInt64(parts[1]), let seq = UInt64(parts[2]) {
                    acked[counter] = seq
                }
            }
        }
        kill(child.processIdentifier, SIGKILL)
        child.waitUntilExit()
        XCTAssertEqual(child.terminationReason, .uncaughtSignal, "the writer was killed, not finished")
        XCTAssertGreaterThanOrEqual(acked.count, 400, "the writer reported commits before the deadline")

        let store = try SQLiteStore(path: dir.databasePath)
        defer { store.close() }
        let stored = try store.messages(conversationID: dm.id, afterSeq: 0, limit: 10_000)
        XCTAssertEqual(stored.map(\.seq), (0..<UInt64(stored.count)).map { $0 + 1 }, "gapless from 1")
        XCTAssertGreaterThanOrEqual(stored.count, acked.count)
        XCTAssertEqual(try store.conversation(id: dm.id)?.lastSeq, UInt64(stored.count))
        let bySeq = Dictionary(uniqueKeysWithValues: stored.map { ($0.seq, $0) })
        var missing = 0
        for (counter, seq) in acked where bySeq[seq]?.clientID != Self.clientID(counter) { missing += 1 }
        XCTAssertEqual(missing, 0, "every acknowledged message is stored at its acknowledged seq")

        // Resending what was acknowledged gives the originals back; nothing is stored twice.
        let resend = acked.keys.sorted().prefix(50).map {
            NewMessage(conversationID: dm.id, senderID: ann.id, clientID: Self.clientID($0), text: "m\($0)", serverTime: 99)
        }
        let outcomes = try store.append(resend)
        XCTAssertTrue(outcomes.allSatisfy(\.isDuplicate))
        XCTAssertEqual(outcomes.map(\.message.seq), acked.keys.sorted().prefix(50).map { acked[$0]! })
        XCTAssertEqual(try store.conversation(id: dm.id)?.lastSeq, UInt64(stored.count))
        print("store kill -9: \(acked.count) acknowledged, \(stored.count) stored, none lost")
    }

    /// The writer half of the test above; does nothing in a normal run.
    func testCrashWriterChild() throws {
        let env = ProcessInfo.processInfo.environment
        guard let path = env[Self.databaseVariable],
              let conversation = env["MESSAGEAI_STORE_CRASH_CONVERSATION"].flatMap(UInt64.init),
              let sender = env["MESSAGEAI_STORE_CRASH_SENDER"].flatMap(UInt64.init) else {
            throw XCTSkip("helper process of testKill9WhileAppendingLosesNoCommittedMessage")
        }
        // Small limits: background checkpoints (and some on the writer) run while it is killed.
        let store = try SQLiteStore(path: path, synchronous: .normal,
                                    checkpoints: WALCheckpointer.Limits(softFrames: 64, hardFrames: 512))
        var counter: UInt64 = 0
        let end = Date().addingTimeInterval(60)
        // Bounded in count and time; the parent kills it long before either bound.
        while counter < 200_000, Date() < end {
            let batch = (0..<UInt64(1 + counter % 4)).map { i in
                NewMessage(conversationID: conversation, senderID: sender, clientID: Self.clientID(counter + i),
                           text: "m\(counter + i)", serverTime: 1_000 + counter + i)
            }
            let outcomes = try store.append(batch)
            // Reported only after append returned, i.e. after COMMIT: like a SEND_ACK.
            let lines = outcomes.map { "ACK \(Self.counter(of: $0.message.clientID)) \($0.message.seq)\n" }.joined()
            FileHandle.standardOutput.write(Data(lines.utf8))
            counter += UInt64(batch.count)
        }
    }

    static func clientID(_ counter: UInt64) -> [UInt8] {
        [UInt8](repeating: 0xC7, count: 8) + withUnsafeBytes(of: counter.bigEndian) { Array($0) }
    }

    static func counter(of clientID: [UInt8]) -> UInt64 {
        clientID.suffix(8).reduce(0) { $0 << 8 | UInt64($1) }
    }
}
