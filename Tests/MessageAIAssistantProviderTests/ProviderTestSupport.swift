import Foundation
import MessageAIAssistant
@testable import MessageAIAssistantProvider

/// Collects the engine's log lines so tests can check what they hold.
final class LogSink: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [String] = []
    var lines: [String] { lock.lock(); defer { lock.unlock() }; return stored }
    func append(_ s: String) { lock.lock(); stored.append(s); lock.unlock() }
}

enum Fixture {
    static let secret = "sk-test-7f3a9c1e5b0d2468"
    /// A word that occurs only in the message text, to look for in logs.
    static let marker = "Zanzibarquux"

    static let message = MessageToJudge(
        from: "omar", to: ["maya"],
        text: "Thanks. Could you tag it and post the notes by 5pm? \(marker) café 東京 👍🏽 👩‍👩‍👧",
        context: [ChatLine(from: "maya", text: "The 2.3 hotfix branch is cut.")])

    static let thread = ThreadToSummarize(participants: ["maya", "omar", "li"], messages: [
        ChatLine(from: "maya", text: "Should we ship on Friday or wait for the \(marker) fix?"),
        ChatLine(from: "omar", text: "Friday. The fix can go in 2.4."),
        ChatLine(from: "li", text: "Agreed, Friday it is. I'll update the dashboard by Monday."),
        ChatLine(from: "maya", text: "Who owns the rollout?"),
    ])

    static func engine(_ server: FakeChatServer, _ mode: String, timeout: TimeInterval = 5, budget: Int = 3000,
                       maxInFlight: Int = 2, log: LogSink? = nil) -> ProviderEngine {
        ProviderEngine(ProviderConfiguration(
            baseURL: server.baseURL(mode), model: "fake-model", apiKey: APIKey(value: secret), timeout: timeout,
            threadTokenBudget: budget, maxInFlight: maxInFlight, log: log.map { sink in { @Sendable line in sink.append(line) } }))
    }
}
