import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One HTTP POST with a hard deadline. URLSession's own timeouts are idle timeouts (a server
/// trickling a byte a second never trips them), so the caller's deadline is enforced here: the
/// wait gives up at the deadline and cancels the task, whatever the connection is doing.
final class ChatTransport: @unchecked Sendable {
    struct Response {
        var status: Int
        var body: Data
    }

    enum Failure: Error, Equatable {
        case timedOut
        /// Refused, reset, closed mid-body, DNS, TLS: anything where no whole answer arrived.
        case connection(String)
    }

    private let session: URLSession

    init(timeout: TimeInterval, maxInFlight: Int) {
        let config = URLSessionConfiguration.ephemeral
        config.timeoutIntervalForRequest = timeout
        config.timeoutIntervalForResource = timeout
        config.httpMaximumConnectionsPerHost = maxInFlight
        config.urlCache = nil
        config.requestCachePolicy = .reloadIgnoringLocalCacheData
        config.httpShouldSetCookies = false
        session = URLSession(configuration: config)
    }

    deinit { session.invalidateAndCancel() }

    func post(_ url: URL, body: Data, headers: [String: String], deadline: DispatchTime) -> Result<Response, Failure> {
        let remaining = Double(deadline.uptimeNanoseconds.subtractingReportingOverflow(DispatchTime.now().uptimeNanoseconds).partialValue) / 1e9
        guard deadline > DispatchTime.now(), remaining > 0 else { return .failure(.timedOut) }
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: remaining)
        request.httpMethod = "POST"
        request.httpBody = body
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }

        let box = ResultBox()
        let task = session.dataTask(with: request) { data, response, error in
            if let error {
                box.set(.failure(Self.failure(error)))
            } else if let http = response as? HTTPURLResponse {
                box.set(.success(Response(status: http.statusCode, body: data ?? Data())))
            } else {
                box.set(.failure(.connection("no HTTP response")))
            }
        }
        task.resume()
        guard box.done.wait(timeout: deadline) == .success, let result = box.result else {
            task.cancel()
            return .failure(.timedOut)
        }
        return result
    }

    /// A reason a person can read, from the error's code only: URLError descriptions can carry
    /// the URL, and nothing of the request belongs in a log line.
    private static func failure(_ error: Error) -> Failure {
        guard let e = error as? URLError else { return .connection("the connection failed") }
        switch e.code {
        case .timedOut: return .timedOut
        case .cannotConnectToHost: return .connection("the connection was refused")
        case .networkConnectionLost: return .connection("the connection was lost mid-answer")
        case .cannotFindHost, .dnsLookupFailed: return .connection("the host name did not resolve")
        case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
             .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot:
            return .connection("the TLS handshake failed")
        case .badServerResponse, .cannotParseResponse: return .connection("the answer was not valid HTTP")
        // What Linux's URLSession reports for a connection closed mid-body (seen: -1, not -1005).
        case .unknown: return .connection("the connection broke off")
        default: return .connection("the connection failed (URLError \(e.code.rawValue))")
        }
    }
}

private final class ResultBox: @unchecked Sendable {
    let done = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var stored: Result<ChatTransport.Response, ChatTransport.Failure>?

    func set(_ r: Result<ChatTransport.Response, ChatTransport.Failure>) {
        lock.lock()
        let first = stored == nil
        if first { stored = r }
        lock.unlock()
        if first { done.signal() }
    }

    var result: Result<ChatTransport.Response, ChatTransport.Failure>? {
        lock.lock(); defer { lock.unlock() }
        return stored
    }
}
