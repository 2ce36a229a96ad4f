import Logging
import MessageAIStore
import PostgresNIO

/// The event log's wake-ups: one connection of its own (a pooled one would be handed to
/// queries) that `LISTEN`s on `messageai_events`. Lost or late wake-ups only delay: the reader
/// also polls, and after every (re)connection the stream yields once so the reader catches
/// up with what was committed while nobody listened.
extension PostgresStore {
    /// The listening connection's `application_name`, for an operator (and a test) to find it.
    public static let listenApplicationName = "messageai-listen"
    static let listenChannel = "messageai_events"

    public func wakeUps() -> AsyncStream<Void> {
        let (stream, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        guard let configuration = listenConfiguration else {
            continuation.finish()
            return stream
        }
        let logger = self.logger
        let task = Task {
            var attempt = 0
            while !Task.isCancelled {
                do {
                    let connection = try await PostgresConnection.connect(configuration: configuration, id: 1, logger: logger)
                    attempt = 0
                    do {
                        try await connection.listen(on: Self.listenChannel) { notifications in
                            continuation.yield()
                            for try await _ in notifications { continuation.yield() }
                        }
                    } catch {
                        if !Task.isCancelled { logger.notice("event log: LISTEN connection lost: \(String(reflecting: type(of: error)))") }
                    }
                    try? await connection.close()
                } catch {
                    if !Task.isCancelled { logger.notice("event log: cannot connect to LISTEN") }
                }
                attempt += 1
                // A quick retry, then at most every 2 s: the reader polls meanwhile.
                try? await Task.sleep(for: .milliseconds(attempt == 1 ? 50 : 2_000))
            }
            continuation.finish()
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }
}
