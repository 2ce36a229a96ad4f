import Foundation
import MessageAIAssistant

/// The optional language-model engine: an OpenAI-compatible `/v1/chat/completions` endpoint
/// (OpenAI, Ollama, llama.cpp's llama-server, vLLM). Every call is bounded: at most
/// `maxInFlight` requests at once, each whole call (retry included) within `timeout`. Whatever
/// goes wrong (timeout, HTTP error, lost connection, an answer that is not the JSON asked for)
/// the answer comes from the local engine, and its EngineInfo says so and why.
///
/// Synchronous and thread-safe: the server calls it from a worker queue, never its hub queue.
public final class ProviderEngine: AssistantEngine, @unchecked Sendable {
    public static let name = "provider"
    /// Bumped whenever a prompt or the decoding changes, so cached answers are not reused.
    public static let version = "0.1.0"

    public let info: EngineInfo
    let config: ProviderConfiguration
    let fallback: AssistantEngine
    let transport: ChatTransport
    let slots: DispatchSemaphore
    private let lock = NSLock()
    /// Set once the endpoint answered 400 to `response_format` (older llama.cpp, some vLLM).
    private var formatRefusedFlag = false
    var formatRefused: Bool {
        get { lock.lock(); defer { lock.unlock() }; return formatRefusedFlag }
        set { lock.lock(); formatRefusedFlag = newValue; lock.unlock() }
    }

    public init(_ config: ProviderConfiguration, fallback: AssistantEngine = LocalEngine()) {
        self.config = config
        self.fallback = fallback
        self.info = EngineInfo(name: ProviderEngine.name, version: "\(ProviderEngine.version) \(config.model)")
        self.transport = ChatTransport(timeout: config.timeout, maxInFlight: config.maxInFlight)
        self.slots = DispatchSemaphore(value: config.maxInFlight)
    }

    public func judge(_ message: MessageToJudge) -> Judgement {
        let prompt = Prompts.judge(message, budget: config.threadTokenBudget)
        switch call("judge", prompt, maxTokens: config.maxAnswerTokens, decode: {
            AnswerDecoder.judgement($0, for: message, shown: prompt.shown, engine: self.info)
        }) {
        case .success(let j): return j
        case .failure(let f):
            var j = fallback.judge(message)
            j.engine = fallbackInfo(f)
            return j
        }
    }

    public func summarize(_ thread: ThreadToSummarize) -> ThreadSummary {
        guard !thread.messages.isEmpty else { return fallback.summarize(thread) }
        let prompt = Prompts.summarize(thread, budget: config.threadTokenBudget)
        switch call("summarize", prompt, maxTokens: config.maxAnswerTokens, decode: {
            AnswerDecoder.summary($0, for: thread, shown: prompt.shown, engine: self.info)
        }) {
        case .success(let s): return s
        case .failure(let f):
            var s = fallback.summarize(thread)
            s.engine = fallbackInfo(f)
            return s
        }
    }

    /// A clearer or kinder version of the draft, or nil when the model gave none (the local
    /// engine cannot rewrite, so there is nothing to fall back to); `rewriteResult` says why.
    public func rewrite(_ message: MessageToJudge) -> Rewrite? {
        try? rewriteResult(message).get()
    }

    public func rewriteResult(_ message: MessageToJudge) -> Result<Rewrite, ProviderFailure> {
        let local = fallback.judge(message)
        let prompt = Prompts.rewrite(message, problems: (local.clarity + local.tone).map(\.reason))
        let budget = max(200, (message.text.utf8.count + 2) / 3 * 2 + 60)
        return call("rewrite", prompt, maxTokens: budget, decode: { AnswerDecoder.rewrite($0, draft: message.text, engine: self.info) })
            .flatMap { r in r.text == message.text ? .failure(.unchanged) : .success(r) }
    }

    private func fallbackInfo(_ failure: ProviderFailure) -> EngineInfo {
        EngineInfo(name: fallback.info.name, version: fallback.info.version,
                   fallbackReason: "the language model (\(config.model)) \(failure.reason); answered by the local rules")
    }
}
