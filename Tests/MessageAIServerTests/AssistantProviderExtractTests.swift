import Foundation
import MessageAIAssistantProvider
import MessageAIProtocol
@testable import MessageAIServer
import XCTest

/// `--assistant-extract provider` on a real server against a real HTTP endpoint: the local
/// items come at once, the model's replace them a batch later (engine "provider"); a
/// conversation whose switch is off never reaches the model; a failing model leaves the local
/// items; messages are never held up.
class ProviderExtractTestCase: AssistantTestCase {
    nonisolated(unsafe) static var endpoint: ChatEndpoint?
    nonisolated(unsafe) static var runs = 0
    /// The endpoint's behaviour; each test gets its own path (`good_run3`), so its requests are its own.
    class var behaviour: String { "good" }
    var mode = ""

    override class func setUp() { super.setUp(); endpoint = try? ChatEndpoint() }
    override class func tearDown() { endpoint?.stop(); endpoint = nil; super.tearDown() }

    override func setUpWithError() throws {
        guard Self.endpoint != nil else { throw XCTSkip("python3 is needed for the fake chat server") }
        Self.runs += 1
        mode = "\(Self.behaviour)_run\(Self.runs)"
        try super.setUpWithError()
    }

    override func configure(_ c: inout ServerConfiguration) {
        c.assistant.provider = ProviderConfiguration(baseURL: Self.endpoint!.url(mode), model: "fake", timeout: 3)
        c.assistant.providerExtract = true
        // Long enough that two sends in a row make one batch even under ASan on a loaded
        // machine (0.3 s split them into two calls there).
        c.assistant.providerBatchDelay = 2
    }
}

final class AssistantProviderExtractTests: ProviderExtractTestCase {

    func testTheModelsItemsReplaceTheLocalOnesInOneCallPerBatch() throws {
        let asked = try ann.sendText("Ben, please tag the 2.3 hotfix branch by 5pm. 東京 👩🏽‍💻", in: group.conversationID)
        let said = try cat.sendText("Decision: we ship on Thursday.", in: group.conversationID)
        let local = try itemsPush(ben, seq: asked.seq)
        XCTAssertEqual(local.first?.engine, "local", "the local engine's items come first, at once")
        _ = try ben.push(AssistItems.self, timeout: 20) { $0.items.contains { $0.engine == "provider" && $0.seq == said.seq } }
        let listed: AssistItems = try ben.request(AssistItemsList(conversationID: group.conversationID, filter: .all))
        XCTAssertEqual(Set(listed.items.map(\.engine)), ["provider"], "each item says which engine produced it")
        XCTAssertTrue(listed.items.contains { $0.kind == .decision && $0.seq == said.seq })
        XCTAssertTrue(listed.items.contains { $0.kind == .action && $0.seq == asked.seq && $0.who == "everyone" })
        let prompts = Self.endpoint!.prompts(mode: mode)
        XCTAssertEqual(prompts.count, 1, "both messages went in one call")
        XCTAssertTrue(prompts.first?.contains("東京 👩🏽‍💻") ?? false)
    }

    func testASwitchedOffConversationNeverReachesTheModel() throws {
        let _: AssistSettings = try cat.request(AssistSettingsSet(conversationID: group.conversationID, providerOff: true))
        let secret = "Quokkazanzibar"
        let off = try ann.sendText("Ben, please send the \(secret) figures by Friday.", in: group.conversationID)
        XCTAssertEqual(try itemsPush(ben, seq: off.seq).first?.engine, "local")
        // Another conversation's batch, queued after, comes back from the model: the first
        // one's turn has passed by then.
        let other: Conversation = try ben.request(GroupCreate(name: "ops", usernames: ["ann", "cat"]))
        let on = try ben.sendText("Cat, please restart the runner.", in: other.conversationID)
        _ = try cat.push(AssistItems.self, timeout: 20) { $0.items.contains { $0.engine == "provider" && $0.seq == on.seq } }
        let prompts = Self.endpoint!.prompts(mode: mode)
        XCTAssertFalse(prompts.isEmpty)
        XCTAssertFalse(prompts.contains { $0.contains(secret) }, "the switched-off conversation's text never left the server")
        let listed: AssistItems = try ben.request(AssistItemsList(conversationID: group.conversationID, filter: .all))
        XCTAssertEqual(Set(listed.items.map(\.engine)), ["local"])
    }
}

/// A model that answers HTTP 500: the local items stay, and messages flow.
final class AssistantProviderExtractFailureTests: ProviderExtractTestCase {
    override class var behaviour: String { "500" }

    func testTheLocalItemsStayWhenTheModelFails() throws {
        let asked = try ann.sendText("Ben, please tag the branch by 5pm.", in: group.conversationID)
        let local = try itemsPush(ben, seq: asked.seq)
        // The batch leaves after its delay and fails (twice, with the retry); wait for both tries.
        let deadline = Date().addingTimeInterval(20)
        while Self.endpoint!.prompts(mode: mode).count < 2 && Date() < deadline { _ = try? ben.push(AssistItems.self, timeout: 0.2) }
        XCTAssertEqual(Self.endpoint!.prompts(mode: mode).count, 2)
        let next = try ann.sendText("Still here.", in: group.conversationID)
        _ = try ben.push(ChatMessage.self) { $0.seq == next.seq }
        let listed: AssistItems = try ben.request(AssistItemsList(conversationID: group.conversationID, filter: .all))
        XCTAssertEqual(listed.items.map(\.itemID), local.map(\.itemID))
        XCTAssertEqual(Set(listed.items.map(\.engine)), ["local"])
    }
}
