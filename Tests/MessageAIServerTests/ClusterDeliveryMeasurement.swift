import Foundation
import MessageAIProtocol
import XCTest

/// Issue 26 stage A's figures: a message's latency from SEND to the push on the sender's node
/// and on another node on the same database, and the reader node's CPU per delivered event.
/// Opt-in (MEASURE_CLUSTER=1): it prints figures rather than checking them.
final class ClusterDeliveryMeasurement: ClusterTestCase {
    override func setUpWithError() throws {
        try XCTSkipUnless(ProcessInfo.processInfo.environment["MEASURE_CLUSTER"] == "1", "MEASURE_CLUSTER=1 to measure")
        try super.setUpWithError()
    }

    func testCrossNodeLatencyAndReaderCost() throws {
        let dirs = [try ServerTestDirectory(), try ServerTestDirectory()]
        let arguments = ["--database", try freshDatabaseURL("measure"), "--rate-limit", "1000000"]
        let a = try ChildServer(dataDir: dirs[0].path, arguments: arguments)
        let b = try ChildServer(dataDir: dirs[1].path, arguments: arguments)
        defer { _ = a.terminate(); _ = b.terminate() }
        let users = try TestUsers.register(["ann", "ben", "cat"], port: a.port)
        let (ann, ben) = (users[0], users[1])
        let group: Conversation = try ann.request(GroupCreate(name: "bench", usernames: ["ben", "cat"]))
        // MEASURE_CLUSTER_BASELINE=1: cat on node A too (one node does all the work; B idles).
        let baseline = ProcessInfo.processInfo.environment["MEASURE_CLUSTER_BASELINE"] == "1"
        let cat = try TestClient(port: baseline ? a.port : b.port)
        try cat.hello()
        let _: SessionGranted = try cat.request(Login(login: "cat", password: TestUsers.password))
        let inGroup: (ChatMessage) -> Bool = { $0.conversationID == group.conversationID }

        // Latency: one message at a time; even ones timed to ben (same node), odd ones to cat.
        var same: [Double] = [], cross: [Double] = []
        for i in 0..<420 {
            let started = DispatchTime.now().uptimeNanoseconds
            let id = ann.send(Send(conversationID: group.conversationID, clientID: TestClient.newClientID(), text: "m \(i)"))
            let (first, second) = i.isMultiple(of: 2) ? (ben, cat) : (cat, ben)
            _ = try first.push(ChatMessage.self, where: inGroup)
            let ms = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e6
            _ = try second.push(ChatMessage.self, where: inGroup)
            let _: SendAck = try ann.answer(id)
            guard i >= 20 else { continue }  // warm-up
            if i.isMultiple(of: 2) { same.append(ms) } else { cross.append(ms) }
        }
        func percentile(_ values: [Double], _ p: Double) -> Double {
            let sorted = values.sorted()
            return sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]
        }
        print(String(format: "latency SEND -> push, %d messages each: same node p50 %.2f ms p99 %.2f ms; other node p50 %.2f ms p99 %.2f ms",
                     same.count, percentile(same, 0.5), percentile(same, 0.99), percentile(cross, 0.5), percentile(cross, 0.99)))

        // Cost: a burst ann sends through node A; node B's CPU while cat receives all of it.
        let burst = 3_000
        let (cpuA0, cpuB0) = (try cpuSeconds(a.process.processIdentifier), try cpuSeconds(b.process.processIdentifier))
        let started = Date()
        // In chunks of 250 (one commit batch each, about): one batch of thousands can outlast
        // the store's 5 s deadline on a loaded two-core machine.
        for chunk in 0..<(burst / 250) {
            let ids = (0..<250).map { i in
                ann.send(Send(conversationID: group.conversationID, clientID: TestClient.newClientID(), text: "burst \(chunk) \(i)"))
            }
            for id in ids { let _: SendAck = try ann.answer(id, timeout: 60) }
            for _ in 0..<250 { _ = try cat.push(ChatMessage.self, timeout: 60, where: inGroup) }
        }
        let seconds = Date().timeIntervalSince(started)
        let (cpuA1, cpuB1) = (try cpuSeconds(a.process.processIdentifier), try cpuSeconds(b.process.processIdentifier))
        print(String(format: "burst of %d messages in %.2f s: node B (reader) CPU %.1f µs per delivered event; node A (committer) %.1f µs per message",
                     burst, seconds, (cpuB1 - cpuB0) / Double(burst) * 1e6, (cpuA1 - cpuA0) / Double(burst) * 1e6))

        // An idle reader: node B's CPU over 5 s with nothing committed (the poll and LISTEN).
        let idle0 = try cpuSeconds(b.process.processIdentifier)
        Thread.sleep(forTimeInterval: 5)  // a measurement window, not a synchronisation
        print(String(format: "idle reader node: %.2f ms CPU per second", (try cpuSeconds(b.process.processIdentifier) - idle0) / 5 * 1e3))
    }

    /// utime + stime of a process, from /proc (clock ticks of 1/100 s on Linux).
    private func cpuSeconds(_ pid: Int32) throws -> Double {
        let stat = try String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
        let fields = stat[stat.index(after: stat.lastIndex(of: ")")!)...].split(separator: " ")
        return (Double(fields[11])! + Double(fields[12])!) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }
}
