import Foundation
import Logging
import MessageAIServer

extension ServerCommand {
    /// `--check-config`: the settings in force after the file and the command line, one per line
    /// as `name: value` (the file's own syntax). Secrets are never printed: the API key shows as
    /// set or unset, with where it comes from.
    func printSettings(_ options: ServerProcess.Options) {
        let a = assistant
        var rows: [(String, String)] = [
            ("config", config ?? "(none)"),
            ("host", host), ("port", "\(port)"), ("data-dir", options.dataDirectory),
            ("rate-limit", "\(rateLimit)"), ("rate-window", "\(rateWindow)"), ("edit-window", "\(editWindow)"),
            ("idle-timeout", "\(idleTimeout)"), ("ping-interval", "\(pingInterval)"),
            ("log-level", logLevel), ("log-format", logFormat),
            ("max-frame", "\(maxFrame)"), ("max-prelogin-frame", "\(maxPreloginFrame)"), ("frame-timeout", "\(frameTimeout)"),
            ("login-timeout", "\(loginTimeout)"), ("max-output", "\(maxOutput)"), ("zlib-level", "\(zlibLevel)"),
            ("fsync", fsync), ("pbkdf2-rounds", "\(pbkdf2Rounds)"), ("register-limit", "\(registerLimit)"),
            ("max-password-hashes", maxPasswordHashes.map(String.init) ?? "(default)"),
            ("max-file-size", "\(maxFileSize)"), ("file-quota", "\(fileQuota)"), ("max-uploads", "\(maxUploads)"), ("files-directory", filesDirectory ?? "DATA-DIR/files"),
            ("max-image-pixels", "\(maxImagePixels)"), ("file-chunk", fileChunk.map(String.init) ?? "(default)"),
            ("metrics-listen", metricsListen ?? "(off)"),
            ("trusted-proxy", trustedProxy.isEmpty ? "(none: no PROXY header is read)" : trustedProxy.joined(separator: ", ")),
            ("database", options.database.map { "\($0)" } ?? "SQLite in the data directory"),
            ("database-cutoff", options.configuration.databaseCutoffMillis.map { "\(Double($0) / 1000) s" } ?? "off"),
        ]
        switch options.tls {
        case .plaintext: rows.append(("plaintext", "true (no TLS)"))
        case .files(let f): rows += [("tls-cert", f.certificatePath), ("tls-key", f.keyPath + " (key: set)")]
        case .selfSigned(let names):
            rows.append(("tls", "self-signed in the data directory" + (names.isEmpty ? "" : ", extra names " + names.joined(separator: ", "))))
        }
        rows += [("assistant", a.enabled), ("assistant-extract", a.extract)]
        if let url = a.baseURL {
            let key = options.configuration.assistant.provider?.apiKey == nil ? "unset" : "set"
            let from = a.apiKeyFile.map { "from file \($0)" } ?? a.apiKeyEnv.map { "from $\($0)" } ?? "none given"
            rows += [("assistant-base-url", url), ("assistant-model", a.model), ("assistant-api-key", "\(key) (\(from))")]
        }
        for (name, value) in rows { print("\(name): \(value)") }
        StandardError.write("messageai-server: the settings are valid\n")
    }

    /// SIGHUP: re-reads the config file (the command line still wins) and applies what can
    /// change while the server runs: the log level and the send rate limit. Anything else that
    /// changed needs a restart, and the log says so. A file that no longer parses changes nothing.
    func reloadSettings(from path: String, level: LogOutput.Level) -> @Sendable (ChatServer) -> Void {
        let commandLine = Array(CommandLine.arguments.dropFirst())
        let base = self
        return { server in
            let logger = Logger(label: "messageai-server")
            let reloaded: ServerCommand
            do {
                let fileArguments = try ConfigFile.arguments(fromFile: path, commandLine: commandLine)
                reloaded = try ServerCommand.parse(fileArguments + commandLine)
                try reloaded.validate()
            } catch {
                logger.error("SIGHUP: \(path) not applied: \(ServerCommand.message(for: error))")
                return
            }
            if let newLevel = Logger.Level(rawValue: reloaded.logLevel), newLevel != level.current {
                logger.notice("SIGHUP: log level \(level.current) -> \(newLevel)")
                level.current = newLevel
            }
            server.updateRateLimit(limit: reloaded.rateLimit, windowSeconds: reloaded.rateWindow)
            let restartOnly = base.restartSettings(comparedWith: reloaded)
            if !restartOnly.isEmpty {
                logger.warning("SIGHUP: \(restartOnly.joined(separator: ", ")) changed in \(path); they take effect at the next start")
            }
        }
    }

    /// The settings a reload does not apply, by name, that differ between two parses.
    private func restartSettings(comparedWith other: ServerCommand) -> [String] {
        var changed: [String] = []
        if host != other.host { changed.append("host") }
        if port != other.port { changed.append("port") }
        if dataDir != other.dataDir { changed.append("data-dir") }
        if database != other.database || databasePasswordFile != other.databasePasswordFile { changed.append("database") }
        if metricsListen != other.metricsListen { changed.append("metrics-listen") }
        if logFormat != other.logFormat { changed.append("log-format") }
        if fsync != other.fsync { changed.append("fsync") }
        if maxFileSize != other.maxFileSize || fileQuota != other.fileQuota { changed.append("file limits") }
        return changed
    }
}
