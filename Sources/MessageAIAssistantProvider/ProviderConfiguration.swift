import Foundation

/// Where the language model lives and how much of it one caller may use. The API key is read
/// from a file or an environment variable only (a flag value would show in `ps` and shell
/// history), is never logged, and never appears in an error message or a description.
public struct ProviderConfiguration: Sendable {
    /// The endpoint's root, e.g. `http://127.0.0.1:8080` or `https://api.openai.com`; the engine
    /// posts to `{baseURL}/v1/chat/completions`.
    public var baseURL: URL
    public var model: String
    /// Sent as `Authorization: Bearer ...`; nil for local servers that need none.
    public var apiKey: APIKey?
    /// The whole call's deadline, retry included: a slower answer falls back to the local engine.
    public var timeout: TimeInterval
    /// The most prompt tokens a thread's messages (or a message and its context) may use, the
    /// instructions not counted; longer threads keep their newest messages.
    public var threadTokenBudget: Int
    /// The most requests in flight at once; a caller finding none free within its deadline gets
    /// the local engine's answer instead of queueing without bound.
    public var maxInFlight: Int
    /// The most tokens the model may answer with.
    public var maxAnswerTokens: Int
    /// Receives one line per call outcome (task, attempt, status, milliseconds). Never message
    /// text, never the key.
    public var log: (@Sendable (String) -> Void)?

    public init(baseURL: URL, model: String, apiKey: APIKey? = nil, timeout: TimeInterval = 10,
                threadTokenBudget: Int = 3000, maxInFlight: Int = 2, maxAnswerTokens: Int = 700,
                log: (@Sendable (String) -> Void)? = nil) {
        self.baseURL = baseURL; self.model = model; self.apiKey = apiKey; self.timeout = timeout
        self.threadTokenBudget = threadTokenBudget; self.maxInFlight = max(1, maxInFlight)
        self.maxAnswerTokens = maxAnswerTokens; self.log = log
    }

    var completionsURL: URL {
        var base = baseURL.absoluteString
        while base.hasSuffix("/") { base.removeLast() }
        // Accept a base given with its /v1 already, as OpenAI's own documentation writes it.
        if base.hasSuffix("/v1") { base.removeLast(3) }
        return URL(string: base + "/v1/chat/completions")!
    }
}

/// A secret that cannot be printed by accident: its description is a fixed placeholder.
public struct APIKey: Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    let value: String
    public var description: String { "<api key>" }
    public var debugDescription: String { "<api key>" }

    public struct LoadError: Error, CustomStringConvertible {
        public let description: String
    }

    init(value: String) { self.value = value }

    /// The first line of a file, trimmed. Refuses a file others can read, as ssh does: a key
    /// file belongs at mode 0600.
    public static func fromFile(_ path: String) throws -> APIKey {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
              let data = FileManager.default.contents(atPath: path) else {
            throw LoadError(description: "cannot read the API key file \(path)")
        }
        if let mode = attributes[.posixPermissions] as? Int, mode & 0o077 != 0 {
            throw LoadError(description: "the API key file \(path) is readable by others (mode \(String(mode, radix: 8))); run chmod 600 \(path)")
        }
        let text = String(decoding: data, as: UTF8.self)
        let key = text.split(whereSeparator: \.isNewline).first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
        guard !key.isEmpty else { throw LoadError(description: "the API key file \(path) is empty") }
        return APIKey(value: key)
    }

    /// The value of an environment variable, trimmed.
    public static func fromEnvironment(_ name: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws -> APIKey {
        let key = (environment[name] ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        guard !key.isEmpty else { throw LoadError(description: "the environment variable \(name) is not set or empty") }
        return APIKey(value: key)
    }
}
