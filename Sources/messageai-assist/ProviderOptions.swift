import ArgumentParser
import Foundation
import MessageAIAssistant
import MessageAIAssistantProvider

/// The language-model endpoint's options. The key is named by a file or an environment
/// variable, never given as a value: a flag's value shows in `ps` and in shell history.
struct ProviderOptions: ParsableArguments {
    @Option(help: "The OpenAI-compatible endpoint's root, e.g. http://127.0.0.1:8080 (the engine posts to /v1/chat/completions).")
    var baseURL: String?

    @Option(help: "The model name sent to the endpoint.")
    var model: String = "default"

    @Option(help: "A file (mode 0600) whose first line is the API key.")
    var apiKeyFile: String?

    @Option(help: "The name of an environment variable holding the API key.")
    var apiKeyEnv: String?

    @Option(help: "Seconds a whole call may take, retry included, before the local engine answers instead.")
    var timeout: Double = 10

    @Option(help: "The most prompt tokens a thread may use; longer threads keep their newest messages.")
    var threadTokenBudget: Int = 3000

    func validate() throws {
        if apiKeyFile != nil && apiKeyEnv != nil { throw ValidationError("give --api-key-file or --api-key-env, not both") }
        if !(timeout > 0) { throw ValidationError("--timeout must be a positive number of seconds") }
        if threadTokenBudget < 1 { throw ValidationError("--thread-token-budget must be positive") }
    }

    func engine() throws -> ProviderEngine {
        guard let base = baseURL else { throw ValidationError("--engine provider needs --base-url") }
        guard let url = URL(string: base), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme), url.host != nil else {
            throw ValidationError("--base-url must be an http:// or https:// URL")
        }
        let key: APIKey?
        do {
            if let file = apiKeyFile { key = try APIKey.fromFile(file) } else if let name = apiKeyEnv { key = try APIKey.fromEnvironment(name) } else { key = nil }
        } catch let e as APIKey.LoadError {
            throw ValidationError(e.description)
        }
        return ProviderEngine(ProviderConfiguration(baseURL: url, model: model, apiKey: key, timeout: timeout,
                                                    threadTokenBudget: threadTokenBudget, maxInFlight: 1))
    }
}

/// Counts who answered, for the line printed to stderr at the end of an evaluation run.
struct AnswerTally {
    private(set) var answered = 0
    private(set) var fallbacks: [String: Int] = [:]

    mutating func note(_ info: EngineInfo) {
        if let reason = info.fallbackReason { fallbacks[reason, default: 0] += 1 } else { answered += 1 }
    }

    var report: String {
        let total = answered + fallbacks.values.reduce(0, +)
        var text = "engine answered \(answered) of \(total)"
        for (reason, n) in fallbacks.sorted(by: { $0.value > $1.value }) { text += "\n  \(n) fell back: \(reason)" }
        return text
    }
}
