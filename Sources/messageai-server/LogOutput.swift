import Foundation
import Logging

/// The server's log lines on stderr: swift-log's text lines (`--log-format text`), or one JSON
/// object per line (`--log-format json`) for journald or Loki. The level is shared by every
/// logger and can change while the server runs (SIGHUP re-reads `--config`).
enum LogOutput {
    /// The level in force; read on every log call, written by the reload.
    final class Level: @unchecked Sendable {
        private let lock = NSLock()
        private var value: Logger.Level
        init(_ value: Logger.Level) { self.value = value }
        var current: Logger.Level {
            get { lock.lock(); defer { lock.unlock() }; return value }
            set { lock.lock(); value = newValue; lock.unlock() }
        }
    }

    static func bootstrap(format: String, level: Level) {
        LoggingSystem.bootstrap { label in
            format == "json" ? JSONLineHandler(label: label, level: level) as LogHandler
                : LevelFollowingHandler(inner: StreamLogHandler.standardError(label: label), level: level)
        }
    }
}

/// swift-log's text handler, with the level read from the shared `LogOutput.Level`.
struct LevelFollowingHandler: LogHandler {
    var inner: StreamLogHandler
    let level: LogOutput.Level

    var logLevel: Logger.Level {
        get { level.current }
        set { level.current = newValue }
    }
    var metadata: Logger.Metadata {
        get { inner.metadata }
        set { inner.metadata = newValue }
    }
    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { inner[metadataKey: key] }
        set { inner[metadataKey: key] = newValue }
    }

    func log(event: LogEvent) {
        var inner = inner
        inner.logLevel = .trace  // the check against `logLevel` above already passed
        inner.log(event: event)
    }
}

/// One JSON object per line on stderr: `{"time":…,"level":…,"label":…,"message":…,…metadata}`.
/// The messages are the same as the text format's: never a password, token or message text.
struct JSONLineHandler: LogHandler {
    let label: String
    let level: LogOutput.Level
    var metadata: Logger.Metadata = [:]

    var logLevel: Logger.Level {
        get { level.current }
        set { level.current = newValue }
    }
    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    private static let lock = NSLock()

    func log(event: LogEvent) {
        var object: [String: String] = [:]
        for (key, value) in metadata.merging(event.metadata ?? [:], uniquingKeysWith: { $1 }) { object[key] = "\(value)" }
        object["time"] = ISO8601DateFormatter().string(from: Date())
        object["level"] = event.level.rawValue
        object["label"] = label
        object["source"] = event.source
        object["message"] = "\(event.message)"
        guard var data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) else { return }
        data.append(10)
        Self.lock.lock()
        FileHandle.standardError.write(data)
        Self.lock.unlock()
    }
}
