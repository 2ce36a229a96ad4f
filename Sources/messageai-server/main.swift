import ArgumentParser
import Foundation
import Logging
import MessageAIServer

/// `messageai-server`: parses flags into a `ServerConfiguration` and hands off to `ServerProcess`.
struct ServerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "messageai-server",
        abstract: "The MessageAI messaging server.",
        discussion: """
            Prints 'listening on HOST:PORT' to stderr once it accepts connections; SIGTERM or SIGINT stop it cleanly (exit 0). \
            Every connection is TLS: with --tls-cert/--tls-key those files, else a self-signed certificate made on first start \
            in the data directory (its fingerprint is logged and printed by --print-fingerprint). SIGHUP reloads the certificate.
            """,
        version: "messageai-server 0.4.1",
        subcommands: [AdminCommand.self, BackupCommand.self, RestoreCommand.self])

    @Option(help: "Address to listen on: IPv4 or IPv6 (::1).") var host = "127.0.0.1"
    @Option(help: "TCP port; 0 picks a free one.") var port = 7878
    @Option(help: "Directory of the database (default $XDG_DATA_HOME/messageai-server or ~/.local/share/messageai-server).")
    var dataDir: String?
    @Option(help: ArgumentHelp("""
        Run on PostgreSQL instead of the SQLite database in the data directory (also MESSAGEAI_DATABASE_URL),         e.g. postgres://USER@HOST:5432/DB?sslmode=verify-full. Never a password here: see --database-password-file.
        """, valueName: "url"))
    var database: String?
    @Option(help: ArgumentHelp("""
        File holding the database password (mode 0600 or stricter, else refused); without it PGPASSWORD, then         PGPASSFILE or ~/.pgpass are used.
        """, valueName: "path"))
    var databasePasswordFile: String?
    @Option(help: ArgumentHelp("""
        Several nodes: close this node's client connections (so that they move to another node) after this many         seconds without reaching the database; 0 or off: never.
        """, valueName: "seconds"))
    var databaseCutoff = "10"
    @Option(help: "Messages a user may send per window (token bucket).") var rateLimit = 100
    @Option(help: "The rate limit's window, in seconds.") var rateWindow = 60.0
    @Option(help: "Close a connection that sent nothing for this many seconds.") var idleTimeout = 45.0
    @Option(help: "How long after sending a message its sender may edit it, in seconds (announced to clients).")
    var editWindow = 86_400.0
    @Option(help: "Clients ping after this many seconds without sending.") var pingInterval = 15.0
    @Option(help: "Log level: trace, debug, info, notice, warning, error, critical. SIGHUP re-reads it from --config.")
    var logLevel = "info"
    @Option(help: "text: swift-log's lines; json: one JSON object per line (journald, Loki).") var logFormat = "text"
    @Option(help: ArgumentHelp("""
        A YAML file with any of these settings under the flags' own names (also MESSAGEAI_SERVER_CONFIG);         the command line wins. None is read unless named. SIGHUP re-reads its log level and rate limits.
        """, valueName: "file"))
    var config: String?
    @Flag(help: "Check the settings (flags and --config), print them with secrets shown as set or unset, and exit.")
    var checkConfig = false
    @Option(help: "Largest frame accepted, in bytes (at least 65536).") var maxFrame = 1 << 20
    @Option(help: "Largest frame accepted before login, in bytes.") var maxPreloginFrame = 8 * 1024
    @Option(help: "Close a connection whose frame is not complete this many seconds after its first byte.") var frameTimeout = 30.0
    @Option(help: "Close a connection not logged in this many seconds after connecting (bytes and PINGs do not extend it).")
    var loginTimeout = 60.0
    @Option(help: "Output queued for one client before it is cut off as not reading, in bytes.") var maxOutput = 4 << 20
    @Option(help: "zlib level of compressed answers (sync batches, history pages): 1 fastest ... 9 smallest.") var zlibLevel = 1
    @Option(help: "always: fsync every commit (survives power loss); normal: survives a process crash. On PostgreSQL: synchronous_commit on (always) or local (normal), both a WAL flush.") var fsync = "normal"
    @Option(help: "PBKDF2-SHA256 rounds for new password hashes (at least 600000).") var pbkdf2Rounds = 600_000
    @Option(help: "Accounts one address may register per hour; 0: no limit.") var registerLimit = 20
    @Option(help: "Password hashes running or queued at once; past it, server_busy (default: 16, or 4 per core).")
    var maxPasswordHashes: Int?
    @Option(help: "TLS certificate chain to serve (PEM, leaf first, e.g. Let's Encrypt's fullchain.pem); SIGHUP reloads it.")
    var tlsCert: String?
    @Option(help: "Private key of --tls-cert (PEM).") var tlsKey: String?
    @Option(help: ArgumentHelp("Extra host name for the generated self-signed certificate (repeatable).", valueName: "name"))
    var tlsName: [String] = []
    @Option(help: "Largest file accepted, in MiB.") var maxFileSize = 100
    @Option(help: "Bytes of files one user may store, in MiB.") var fileQuota = 1024
    @Option(help: "Unfinished uploads one user may have at once.") var maxUploads = 4
    @Option(help: "Directory of uploaded files (default DATA-DIR/files). With several nodes on one PostgreSQL database, the same directory for every node (NFS or one machine's disk).")
    var filesDirectory: String?
    @Option(help: "Images with more pixels are refused before decoding.") var maxImagePixels = 32_000_000
    @Option(help: "Bytes per file chunk, in KiB: a message sent during an upload waits behind one chunk at most (default 256, or less to leave 4 KiB of --max-frame).")
    var fileChunk: Int?
    @Flag(help: "Print the SHA-256 fingerprint of the certificate a server with the same flags serves, and exit (writes nothing).")
    var printFingerprint = false
    @Option(help: ArgumentHelp("Serve Prometheus metrics at http://HOST:PORT/metrics and a health check at /healthz (off by default; e.g. 127.0.0.1:9464).", valueName: "host:port"))
    var metricsListen: String?
    @Option(help: ArgumentHelp("A load balancer whose connections begin with a PROXY protocol v2 header giving the client's address (HAProxy's send-proxy-v2): an address or CIDR range, repeatable. Its connections without the header are refused.", valueName: "address"))
    var trustedProxy: [String] = []
    @Flag(help: "Serve the plain protocol without TLS (loopback and tests only).") var plaintext = false
    @Flag(help: "Allow --plaintext on an address other machines can reach.") var allowRemotePlaintext = false
    @OptionGroup(title: "Assistant") var assistant: AssistantOptions

    /// `--database-cutoff` in milliseconds: `.some(nil)` for never (0 or off), nil when it is
    /// no number of seconds the node can keep to (below the event log's 1 s probe, or not a
    /// finite number).
    var databaseCutoffMillis: UInt64?? {
        let text = databaseCutoff.trimmingCharacters(in: .whitespaces).lowercased()
        if text == "off" { return .some(nil) }
        guard let seconds = Double(text), seconds.isFinite, seconds >= 0 else { return nil }
        if seconds == 0 { return .some(nil) }
        guard seconds >= 1, seconds <= 86_400 else { return nil }
        return .some(UInt64((seconds * 1000).rounded()))
    }

    /// `--file-chunk`, or the default: 256 KiB, or less so that a chunk and its frame fit
    /// `--max-frame` (the smallest frame limit, 64 KiB, used to refuse to start without it).
    var chunkKiB: Int { fileChunk ?? min(256, (maxFrame - 4096) / 1024) }

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be 0...65535") }
        guard editWindow > 0 else { throw ValidationError("--edit-window must be positive") }
        guard rateLimit >= 1, rateWindow > 0 else { throw ValidationError("--rate-limit and --rate-window must be positive") }
        guard idleTimeout > 0, pingInterval > 0, pingInterval < idleTimeout else {
            throw ValidationError("--ping-interval must be positive and below --idle-timeout")
        }
        guard maxFrame >= 64 * 1024 else { throw ValidationError("--max-frame must be at least 65536") }
        guard maxPreloginFrame >= 1024, maxPreloginFrame <= maxFrame else {
            throw ValidationError("--max-prelogin-frame must be between 1024 and --max-frame")
        }
        guard frameTimeout > 0, loginTimeout > 0 else { throw ValidationError("--frame-timeout and --login-timeout must be positive") }
        guard maxOutput >= 2 * maxFrame else { throw ValidationError("--max-output must be at least twice --max-frame") }
        guard (1...9).contains(zlibLevel) else { throw ValidationError("--zlib-level must be 1...9") }
        guard maxFileSize >= 1, fileQuota >= 1, maxUploads >= 1, maxImagePixels >= 1 else {
            throw ValidationError("--max-file-size, --file-quota, --max-uploads and --max-image-pixels must be positive")
        }
        guard chunkKiB >= 16, chunkKiB * 1024 + 4096 <= maxFrame else {
            throw ValidationError("--file-chunk must be at least 16 KiB and leave 4 KiB of --max-frame for the frame around it")
        }
        guard ["always", "normal"].contains(fsync) else { throw ValidationError("--fsync is 'always' or 'normal'") }
        guard Logger.Level(rawValue: logLevel) != nil else { throw ValidationError("unknown --log-level '\(logLevel)'") }
        guard ["text", "json"].contains(logFormat) else { throw ValidationError("--log-format is 'text' or 'json'") }
        guard pbkdf2Rounds >= 600_000 else { throw ValidationError("--pbkdf2-rounds must be at least 600000") }
        guard databaseCutoffMillis != nil else {
            throw ValidationError("--database-cutoff takes seconds, at least 1 (e.g. 10 or 2.5), or 0 or off for never; not '\(databaseCutoff)'")
        }
        guard registerLimit >= 0 else { throw ValidationError("--register-limit must be 0 or more") }
        guard (maxPasswordHashes ?? 1) >= 1 else { throw ValidationError("--max-password-hashes must be at least 1") }
        if let metricsListen, ServerProcess.parseListenAddress(metricsListen) == nil {
            throw ValidationError("--metrics-listen takes HOST:PORT, e.g. 127.0.0.1:9464 or [::1]:9464")
        }
        try validateDatabase()
        do { _ = try TrustedProxies(trustedProxy) } catch { throw ValidationError("--trusted-proxy: \(error)") }
        guard (tlsCert == nil) == (tlsKey == nil) else { throw ValidationError("--tls-cert and --tls-key go together") }
        if plaintext {
            guard tlsCert == nil else { throw ValidationError("--plaintext and --tls-cert exclude each other") }
            guard ServerProcess.isLoopback(host) || allowRemotePlaintext else {
                throw ValidationError("--plaintext on \(host) would send passwords and messages in clear over the network; "
                                      + "add --allow-remote-plaintext if that is really meant")
            }
        }
    }

    func run() throws {
        var config = ServerConfiguration()
        config.host = host
        config.port = port
        config.rateLimit = rateLimit
        config.rateWindowSeconds = rateWindow
        config.editWindowMillis = UInt64(editWindow * 1000)
        config.idleTimeoutMillis = UInt64(idleTimeout * 1000)
        config.pingIntervalMillis = UInt64(pingInterval * 1000)
        config.maxFrameLength = maxFrame
        config.preLoginMaxFrameLength = maxPreloginFrame
        config.frameTimeoutMillis = UInt64(frameTimeout * 1000)
        config.loginTimeoutMillis = UInt64(loginTimeout * 1000)
        config.maxOutputBytes = maxOutput
        config.compressionLevel = Int32(zlibLevel)
        config.pbkdf2Rounds = pbkdf2Rounds
        config.registrationsPerAddressPerHour = registerLimit
        config.databaseCutoffMillis = databaseCutoffMillis ?? nil
        if let maxPasswordHashes { config.maxPasswordHashesInFlight = maxPasswordHashes }
        config.maxFileSize = UInt64(maxFileSize) << 20
        config.fileQuota = UInt64(fileQuota) << 20
        config.maxUploadsInFlight = maxUploads
        config.filesDirectory = filesDirectory
        config.maxImagePixels = UInt64(maxImagePixels)
        config.fileChunkSize = chunkKiB * 1024
        config.trustedProxies = try TrustedProxies(trustedProxy)
        let level = LogOutput.Level(Logger.Level(rawValue: logLevel)!)
        LogOutput.bootstrap(format: logFormat, level: level)
        var options = ServerProcess.Options(
            configuration: config, dataDirectory: dataDir ?? ServerProcess.defaultDataDirectory,
            synchronous: fsync == "always" ? .full : .normal)
        options.metricsListen = metricsListen
        options.database = databaseSettings()
        if plaintext {
            options.tls = .plaintext
        } else if let tlsCert, let tlsKey {
            options.tls = .files(TLSFiles(certificatePath: tlsCert, keyPath: tlsKey))
        } else {
            options.tls = .selfSigned(extraNames: tlsName)
        }
        let logger = Logger(label: "messageai-server")
        // Outcomes only (task, attempt, status, ms): never message text, never the key.
        options.configuration.assistant = try assistant.configuration { line in Logger(label: "messageai-assistant").info("\(line)") }
        if let p = options.configuration.assistant.provider { logger.info("assistant: provider at \(p.baseURL.host ?? "?"):\(p.baseURL.port.map(String.init) ?? "default port") model \(p.model), key \(p.apiKey == nil ? "none" : "set")") }
        if printFingerprint { ServerProcess.printFingerprint(options) }
        if checkConfig { printSettings(options); return }
        if let path = self.config { options.onHangup = reloadSettings(from: path, level: level) }
        ServerProcess.run(options, logger: logger)
    }
}

var arguments = Array(CommandLine.arguments.dropFirst())
if let status = runToolCommand(arguments) { exit(status) }
if let path = ConfigFile.path(in: arguments) {
    do {
        arguments = try ConfigFile.arguments(fromFile: path, commandLine: arguments) + arguments
    } catch {
        StandardError.write("messageai-server: \(error)\n")
        exit(64)
    }
    // Named by MESSAGEAI_SERVER_CONFIG only: the server still needs to know it for SIGHUP.
    if !CommandLine.arguments.contains(where: { $0 == "--config" || $0.hasPrefix("--config=") }) {
        arguments += ["--config", path]
    }
}
ServerCommand.main(arguments)
