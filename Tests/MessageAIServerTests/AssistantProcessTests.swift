import Foundation
import MessageAIProtocol
import XCTest

/// The assistant's flags on the real executable: the API key file must be private, the key is
/// never printed, and `--assistant off` takes the capability away.
final class AssistantProcessTests: XCTestCase {
    private func run(_ arguments: [String]) throws -> (status: Int32, out: String) { try ChildServer.run(arguments) }

    func testAKeyFileOthersCanReadIsRefusedAndTheKeyIsNeverPrinted() throws {
        let dir = try ServerTestDirectory()
        let key = dir.path + "/key"
        let secret = "sk-test-\(UUID().uuidString)"
        try (secret + "\n").write(toFile: key, atomically: true, encoding: .utf8)
        chmod(key, 0o644)
        let refused = try run(["--port", "0", "--data-dir", dir.path + "/data", "--plaintext",
                               "--assistant-base-url", "http://127.0.0.1:9", "--assistant-api-key-file", key])
        XCTAssertNotEqual(refused.status, 0)
        XCTAssertTrue(refused.out.contains("chmod 600"), refused.out)
        XCTAssertFalse(refused.out.contains(secret))

        chmod(key, 0o600)
        let child = try ChildServer(dataDir: dir.path + "/data", arguments: [
            "--log-level", "info", "--assistant-base-url", "http://127.0.0.1:9", "--assistant-api-key-file", key])
        let c = try TestClient(port: child.port)
        let welcome = try c.hello(capabilities: [.zlib, .assistant])
        XCTAssertTrue(welcome.capabilities.contains(.assistant))
        XCTAssertEqual(child.terminate(), 0)
        XCTAssertTrue(child.stderr.contains("key set"), child.stderr)
        XCTAssertFalse(child.stderr.contains(secret), "the key is never logged")
    }

    func testAKeyIsNeverAFlag() throws {
        let r = try run(["--assistant-api-key", "sk-nope"])
        XCTAssertNotEqual(r.status, 0)
        XCTAssertTrue(r.out.contains("Unknown option"), r.out)
    }

    func testProviderExtractionNeedsAModel() throws {
        let r = try run(["--assistant-extract", "provider"])
        XCTAssertNotEqual(r.status, 0)
        XCTAssertTrue(r.out.contains("--assistant-extract provider needs a language model"), r.out)
        let typo = try run(["--assistant-extract", "model"])
        XCTAssertTrue(typo.out.contains("'on', 'off' or 'provider'"), typo.out)
    }

    /// A client waits for a summary or rewrite as long as the server may take: the provider's
    /// timeout plus the fallback's margin, announced only when a provider is configured.
    func testWelcomeAnnouncesHowLongAnAnswerMayTake() throws {
        let dir = try ServerTestDirectory()
        let child = try ChildServer(dataDir: dir.path + "/data", arguments: [
            "--assistant-base-url", "http://127.0.0.1:9", "--assistant-timeout", "40"])
        let c = try TestClient(port: child.port)
        XCTAssertEqual(try c.hello(capabilities: [.zlib, .assistant]).assistantAnswerTimeout, 45_000)
        let without = try TestClient(port: child.port)
        XCTAssertEqual(try without.hello(capabilities: [.zlib]).assistantAnswerTimeout, 0, "only to a client that speaks the assistant")
        XCTAssertEqual(child.terminate(), 0)

        let local = try ChildServer(dataDir: dir.path + "/local", arguments: [])
        let d = try TestClient(port: local.port)
        XCTAssertEqual(try d.hello(capabilities: [.zlib, .assistant]).assistantAnswerTimeout, 0, "the local engine answers in milliseconds")
        XCTAssertEqual(local.terminate(), 0)
    }

    func testAssistantOffTakesTheCapabilityAway() throws {
        let dir = try ServerTestDirectory()
        let child = try ChildServer(dataDir: dir.path + "/data", arguments: ["--assistant", "off"])
        let c = try TestClient(port: child.port)
        let welcome = try c.hello(capabilities: [.zlib, .assistant])
        XCTAssertFalse(welcome.capabilities.contains(.assistant))
        XCTAssertEqual(child.terminate(), 0)
    }

    /// Extraction by the model, logged at debug level both when the model answers and when it
    /// fails: the log says what happened, in counts, and never holds a word of the messages.
    func testProviderExtractionLogsNoMessageText() throws {
        let endpoint = try ChatEndpoint()
        defer { endpoint.stop() }
        let marker = "Zanzibarquokka"
        for mode in ["good_log", "500_log"] {
            let dir = try ServerTestDirectory()
            let child = try ChildServer(dataDir: dir.path + "/data", arguments: [
                "--log-level", "debug", "--assistant-base-url", endpoint.url(mode).absoluteString, "--assistant-extract", "provider"])
            let users = try TestUsers.register(["ann", "ben", "cat"], port: child.port, capabilities: [.zlib, .assistant])
            let g: Conversation = try users[0].request(GroupCreate(name: "release", usernames: ["ben", "cat"]))
            let ack = try users[0].sendText("Ben, please tag the \(marker) branch by 5pm. 東京 👩🏽‍💻", in: g.conversationID)
            _ = try users[1].push(AssistItems.self) { $0.items.contains { $0.seq == ack.seq } }
            // The batch reached the model (both tries, for the failing one) and its outcome was logged.
            let deadline = Date().addingTimeInterval(20)
            while !(child.stderr.contains("extract") && endpoint.prompts(mode: mode).count >= (mode == "good_log" ? 1 : 2))
                    && Date() < deadline {
                _ = try? users[1].push(AssistItems.self, timeout: 0.2)
            }
            XCTAssertTrue(endpoint.prompts(mode: mode).contains { $0.contains(marker) }, "\(mode): the text went to the model")
            XCTAssertEqual(child.terminate(), 0)
            XCTAssertTrue(child.stderr.contains("extract"), child.stderr)
            XCTAssertFalse(child.stderr.contains(marker), "\(mode): no message text in the log")
            XCTAssertFalse(child.stderr.contains("東京"), mode)
        }
    }
}
