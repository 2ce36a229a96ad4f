import ArgumentParser
import Foundation
import MessageAIAssistantProvider
import MessageAIServer

/// The assistant's flags. The API key is never a flag (it would show in `ps` and shell
/// history): it comes from a file of mode 0600 or from an environment variable.
struct AssistantOptions: ParsableArguments {
    @Option(name: .customLong("assistant"), help: "on: offer the assistant (items, summaries, checks); off: not at all.")
    var enabled = "on"
    @Option(name: .customLong("assistant-extract"), help: """
        on: extract action items and decisions from every message after it is delivered (local rules); \
        provider: also let the language model re-extract them, in batches per conversation; off: never.
        """)
    var extract = "on"
    @Option(name: .customLong("assistant-base-url"), help: "An OpenAI-compatible endpoint's root (e.g. http://127.0.0.1:8080); none: the local engine only.")
    var baseURL: String?
    @Option(name: .customLong("assistant-model"), help: "The model name sent to the endpoint.") var model = "default"
    @Option(name: .customLong("assistant-timeout"), help: "Seconds a provider call may take (retry included) before the local engine answers.")
    var timeout = 10.0
    @Option(name: .customLong("assistant-token-budget"), help: "Prompt tokens a thread may use; longer threads keep their newest messages.")
    var tokenBudget = 3000
    @Option(name: .customLong("assistant-api-key-file"), help: "File holding the provider's API key (mode 0600, else refused).")
    var apiKeyFile: String?
    @Option(name: .customLong("assistant-api-key-env"), help: "Environment variable holding the provider's API key.")
    var apiKeyEnv: String?
    @Option(name: .customLong("assistant-requests-per-day"), help: "Provider requests one user may make per day (UTC).")
    var requestsPerDay = 200
    @Option(name: .customLong("assistant-max-calls"), help: "Provider calls in flight at once; more get the local answer.")
    var maxCalls = 4

    func validate() throws {
        guard ["on", "off"].contains(enabled), ["on", "off", "provider"].contains(extract) else {
            throw ValidationError("--assistant is 'on' or 'off'; --assistant-extract is 'on', 'off' or 'provider'")
        }
        guard extract != "provider" || baseURL != nil else {
            throw ValidationError("--assistant-extract provider needs a language model (--assistant-base-url)")
        }
        if let baseURL {
            guard let url = URL(string: baseURL), ["http", "https"].contains(url.scheme ?? "") else {
                throw ValidationError("--assistant-base-url must be an http:// or https:// URL")
            }
        }
        guard baseURL != nil || (apiKeyFile == nil && apiKeyEnv == nil) else {
            throw ValidationError("an API key needs --assistant-base-url")
        }
        guard apiKeyFile == nil || apiKeyEnv == nil else { throw ValidationError("--assistant-api-key-file and --assistant-api-key-env exclude each other") }
        guard timeout > 0, tokenBudget >= 200, requestsPerDay >= 0, maxCalls >= 1 else {
            throw ValidationError("--assistant-timeout > 0, --assistant-token-budget >= 200, --assistant-requests-per-day >= 0, --assistant-max-calls >= 1")
        }
    }

    /// The configuration, reading the key now (a refused key file stops the server at start).
    func configuration(log: @escaping @Sendable (String) -> Void) throws -> AssistantConfiguration {
        var c = AssistantConfiguration()
        c.enabled = enabled == "on"
        c.extract = extract != "off"
        c.providerExtract = extract == "provider"
        c.providerRequestsPerDay = requestsPerDay
        c.maxProviderCalls = maxCalls
        if let baseURL, let url = URL(string: baseURL) {
            let key: APIKey?
            do {
                key = try apiKeyFile.map(APIKey.fromFile) ?? apiKeyEnv.map { try APIKey.fromEnvironment($0) }
            } catch let e as APIKey.LoadError {
                throw ValidationError(e.description)
            }
            c.provider = ProviderConfiguration(baseURL: url, model: model, apiKey: key, timeout: timeout,
                                               threadTokenBudget: tokenBudget, maxInFlight: maxCalls, log: log)
        }
        return c
    }
}
