import Configuration
import Foundation
import SystemPackage
import Yams

/// `--config FILE` (or `MESSAGEAI_SERVER_CONFIG`): every flag's value under the flag's own name,
/// in YAML, e.g.
///
///     host: 0.0.0.0
///     port: 7878
///     tls-cert: /etc/letsencrypt/live/chat.example.com/fullchain.pem
///     tls-name: [chat.example.com]
///     plaintext: false
///
/// The file's settings become command-line arguments placed before the real ones, so the command
/// line wins and one parser (ArgumentParser) validates both. No file is ever read implicitly: a
/// stray file in /etc would otherwise change every server on the machine, test servers included.
enum ConfigFile {
    enum Kind { case value, flag, list }

    /// Every option a file may set, by its long name. `config` itself and the one-shot actions
    /// (`print-fingerprint`, `check-config`) are not settings.
    static let options: [String: Kind] = [
        "host": .value, "port": .value, "data-dir": .value, "rate-limit": .value, "rate-window": .value,
        "idle-timeout": .value, "edit-window": .value, "ping-interval": .value, "log-level": .value, "log-format": .value,
        "max-frame": .value, "max-prelogin-frame": .value, "frame-timeout": .value, "login-timeout": .value,
        "max-output": .value, "zlib-level": .value, "fsync": .value, "pbkdf2-rounds": .value, "register-limit": .value,
        "max-password-hashes": .value, "tls-cert": .value, "tls-key": .value, "tls-name": .list,
        "max-file-size": .value, "file-quota": .value, "max-uploads": .value, "max-image-pixels": .value, "files-directory": .value,
        "file-chunk": .value, "metrics-listen": .value, "database": .value, "database-password-file": .value, "database-cutoff": .value, "plaintext": .flag, "allow-remote-plaintext": .flag,
        "trusted-proxy": .list,
        "assistant": .value, "assistant-extract": .value, "assistant-base-url": .value, "assistant-model": .value,
        "assistant-timeout": .value, "assistant-token-budget": .value, "assistant-api-key-file": .value,
        "assistant-api-key-env": .value, "assistant-requests-per-day": .value, "assistant-max-calls": .value,
    ]

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// The config file named on the command line (`--config FILE`, `--config=FILE`) or by
    /// `MESSAGEAI_SERVER_CONFIG`; nil when neither names one.
    static func path(in arguments: [String]) -> String? {
        for (i, word) in arguments.enumerated() {
            if word == "--config", i + 1 < arguments.count { return arguments[i + 1] }
            if word.hasPrefix("--config=") { return String(word.dropFirst("--config=".count)) }
        }
        let env = ProcessInfo.processInfo.environment["MESSAGEAI_SERVER_CONFIG"] ?? ""
        return env.isEmpty ? nil : env
    }

    /// The file's settings as arguments, leaving out those `commandLine` sets itself.
    static func arguments(fromFile path: String, commandLine: [String]) throws -> [String] {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw Failure(description: "cannot read the config file \(path)")
        }
        // Yams for the list of keys (an unknown one is a typo to report, not to ignore) ...
        let parsed: Any?
        do { parsed = try Yams.load(yaml: text) } catch { throw Failure(description: "\(path) is not valid YAML: \(error)") }
        guard let top = (parsed ?? [String: Any]()) as? [String: Any] else {
            throw Failure(description: "\(path): expected 'name: value' lines at the top level")
        }
        if let unknown = top.keys.sorted().first(where: { options[$0] == nil }) {
            throw Failure(description: "\(path): unknown setting '\(unknown)' (settings are the flags' long names, see --help)")
        }
        // ... and swift-configuration for the values, typed as each flag takes them.
        let reader = ConfigReader(provider: try wait { try await FileProvider<YAMLSnapshot>(filePath: FilePath(path)) })
        var out: [String] = []
        for key in top.keys.sorted() {
            let flag = "--" + key
            if commandLine.contains(where: { $0 == flag || $0.hasPrefix(flag + "=") }) { continue }
            switch options[key]! {
            case .flag:
                guard let on = reader.bool(forKey: ConfigKey(key)) else { throw Failure(description: "\(path): '\(key)' is true or false") }
                if on { out.append(flag) }
            case .list:
                let values = reader.stringArray(forKey: ConfigKey(key)) ?? reader.string(forKey: ConfigKey(key)).map { [$0] }
                guard let values else { throw Failure(description: "\(path): '\(key)' is a list of strings") }
                for v in values { out += [flag, v] }
            case .value:
                guard let value = reader.string(forKey: ConfigKey(key)) else {
                    throw Failure(description: "\(path): '\(key)' needs one value")
                }
                out += [flag, value]
            }
        }
        return out
    }

    /// Runs async work (swift-configuration's file provider) from the synchronous start-up code.
    private static func wait<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
        let done = DispatchSemaphore(value: 0)
        let answer = Answer<T>()
        Task {
            do { answer.result = .success(try await body()) } catch { answer.result = .failure(error) }
            done.signal()
        }
        done.wait()
        return try answer.result!.get()
    }
}

/// The task's result in `ConfigFile.wait`. @unchecked Sendable: written once before
/// `done.signal()` and read only after `done.wait()`, so the semaphore orders the two.
private final class Answer<T>: @unchecked Sendable {
    var result: Result<T, Error>?
}
