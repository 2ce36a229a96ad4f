import Foundation
import MessageAIAssistant

/// Why the provider gave no answer, in words a person can act on. Never holds message text,
/// the endpoint's body or the key.
public enum ProviderFailure: Error, Equatable, Sendable {
    case busy(Int)
    case timedOut(TimeInterval)
    case http(Int)
    case connection(String)
    case malformed
    case unchanged

    public var reason: String {
        switch self {
        case .busy(let n): return "was busy (\(n) requests already in flight)"
        case .timedOut(let s): return "did not answer within \(Self.seconds(s))"
        case .http(401), .http(403): return "refused the API key (HTTP 401/403)"
        case .http(429): return "is rate limited (HTTP 429)"
        case .http(let code): return "answered HTTP \(code)"
        case .connection(let why): return "could not be reached: \(why)"
        case .malformed: return "did not answer in the JSON asked for"
        case .unchanged: return "suggested no change"
        }
    }

    /// Worth one more try: a momentary overload, a dropped connection, a garbled answer.
    var isRetryable: Bool {
        switch self {
        case .http(let code): return code == 429 || code == 408 || code >= 500
        case .connection, .malformed: return true
        case .busy, .timedOut, .unchanged: return false
        }
    }

    static func seconds(_ s: TimeInterval) -> String {
        s == s.rounded() ? "\(Int(s)) s" : String(format: "%.1f s", s)
    }
}

extension ProviderEngine {
    /// One task: a slot within the deadline, then up to two attempts within the same deadline.
    func call<T>(_ task: String, _ prompt: Prompts.Prompt, maxTokens: Int, decode: ([String: Any]) -> T?) -> Result<T, ProviderFailure> {
        let started = DispatchTime.now()
        let deadline = started + config.timeout
        guard slots.wait(timeout: deadline) == .success else {
            log(task, "no free slot", started)
            return .failure(.busy(config.maxInFlight))
        }
        defer { slots.signal() }
        var last = ProviderFailure.malformed
        for attempt in 1...2 {
            let result = attemptOnce(prompt, maxTokens: maxTokens, deadline: deadline).flatMap { obj in
                decode(obj).map { Result<T, ProviderFailure>.success($0) } ?? .failure(.malformed)
            }
            switch result {
            case .success:
                log(task, "attempt \(attempt) answered", started)
                return result
            case .failure(let f):
                log(task, "attempt \(attempt) failed: \(f.reason)", started)
                last = f
                if !f.isRetryable || DispatchTime.now() >= deadline { return .failure(f) }
            }
        }
        return .failure(last)
    }

    /// One request (two if the endpoint refuses `response_format`), decoded to a JSON object.
    private func attemptOnce(_ prompt: Prompts.Prompt, maxTokens: Int, deadline: DispatchTime) -> Result<[String: Any], ProviderFailure> {
        // A request with almost no time left cannot be answered; don't load the model with it.
        let floor = min(0.25, config.timeout / 4)
        guard DispatchTime.now() + floor < deadline else { return .failure(.timedOut(config.timeout)) }
        let jsonMode = !formatRefused
        var response = post(prompt, maxTokens: maxTokens, jsonMode: jsonMode, deadline: deadline)
        if jsonMode, case .success(let r) = response, r.status == 400 {
            formatRefused = true
            response = post(prompt, maxTokens: maxTokens, jsonMode: false, deadline: deadline)
        }
        switch response {
        case .failure(.timedOut): return .failure(.timedOut(config.timeout))
        case .failure(.connection(let why)): return .failure(.connection(why))
        case .success(let r) where !(200..<300).contains(r.status): return .failure(.http(r.status))
        case .success(let r):
            guard let content = AnswerParser.content(ofCompletion: r.body), let obj = AnswerParser.object(in: content) else {
                return .failure(.malformed)
            }
            return .success(obj)
        }
    }

    private func post(_ prompt: Prompts.Prompt, maxTokens: Int, jsonMode: Bool, deadline: DispatchTime) -> Result<ChatTransport.Response, ChatTransport.Failure> {
        var body: [String: Any] = [
            "model": config.model,
            "messages": [["role": "system", "content": prompt.system], ["role": "user", "content": prompt.user]],
            "temperature": 0,
            "max_tokens": maxTokens,
            "stream": false,
        ]
        if jsonMode { body["response_format"] = ["type": "json_object"] }
        var headers = ["Content-Type": "application/json", "Accept": "application/json"]
        if let key = config.apiKey { headers["Authorization"] = "Bearer \(key.value)" }
        let data = (try? JSONSerialization.data(withJSONObject: body)) ?? Data()
        return transport.post(config.completionsURL, body: data, headers: headers, deadline: deadline)
    }

    /// Task, outcome and milliseconds only: no message text, no key, no answer.
    private func log(_ task: String, _ outcome: String, _ started: DispatchTime) {
        guard let sink = config.log else { return }
        let ms = (DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1_000_000
        sink("assistant provider \(config.model): \(task) \(outcome) after \(ms) ms")
    }
}
