import ArgumentParser
import Logging
import MessageAIServer

/// `messageai-server`: parses flags into a `ServerConfiguration` and hands off to `ServerProcess`.
struct ServerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "messageai-server",
        abstract: "The MessageAI messaging server.",
        discussion: "Prints 'listening on HOST:PORT' to stderr once it accepts connections; SIGTERM or SIGINT stop it cleanly (exit 0).",
        version: "messageai-server 0.1.0")

    @Option(help: "Address to listen on.") var host = "127.0.0.1"
    @Option(help: "TCP port; 0 picks a free one.") var port = 7878
    @Option(help: "Directory of the database (default $XDG_DATA_HOME/messageai-server or ~/.local/share/messageai-server).")
    var dataDir: String?
    @Option(help: "Messages a user may send per window (token bucket).") var rateLimit = 100
    @Option(help: "The rate limit's window, in seconds.") var rateWindow = 60.0
    @Option(help: "Close a connection that sent nothing for this many seconds.") var idleTimeout = 45.0
    @Option(help: "Clients ping after this many seconds without sending.") var pingInterval = 15.0
    @Option(help: "Log level: trace, debug, info, notice, warning, error, critical.") var logLevel = "info"
    @Option(help: "Largest frame accepted, in bytes (at least 65536).") var maxFrame = 1 << 20
    @Option(help: "Largest frame accepted before login, in bytes.") var maxPreloginFrame = 8 * 1024
    @Option(help: "Close a connection whose frame is not complete this many seconds after its first byte.") var frameTimeout = 30.0
    @Option(help: "Close a connection not logged in this many seconds after connecting (bytes and PINGs do not extend it).")
    var loginTimeout = 60.0
    @Option(help: "Output queued for one client before it is cut off as not reading, in bytes.") var maxOutput = 4 << 20
    @Option(help: "always: fsync every commit (survives power loss); normal: survives a process crash.") var fsync = "normal"
    @Option(help: "PBKDF2-SHA256 rounds for new password hashes (at least 600000).") var pbkdf2Rounds = 600_000
    @Option(help: "Accounts one address may register per hour; 0: no limit.") var registerLimit = 20
    @Option(help: "Password hashes running or queued at once; past it, server_busy (default: 16, or 4 per core).")
    var maxPasswordHashes: Int?

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be 0...65535") }
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
        guard ["always", "normal"].contains(fsync) else { throw ValidationError("--fsync is 'always' or 'normal'") }
        guard Logger.Level(rawValue: logLevel) != nil else { throw ValidationError("unknown --log-level '\(logLevel)'") }
        guard pbkdf2Rounds >= 600_000 else { throw ValidationError("--pbkdf2-rounds must be at least 600000") }
        guard registerLimit >= 0 else { throw ValidationError("--register-limit must be 0 or more") }
        guard (maxPasswordHashes ?? 1) >= 1 else { throw ValidationError("--max-password-hashes must be at least 1") }
    }

    func run() throws {
        var config = ServerConfiguration()
        config.host = host
        config.port = port
        config.rateLimit = rateLimit
        config.rateWindowSeconds = rateWindow
        config.idleTimeoutMillis = UInt64(idleTimeout * 1000)
        config.pingIntervalMillis = UInt64(pingInterval * 1000)
        config.maxFrameLength = maxFrame
        config.preLoginMaxFrameLength = maxPreloginFrame
        config.frameTimeoutMillis = UInt64(frameTimeout * 1000)
        config.loginTimeoutMillis = UInt64(loginTimeout * 1000)
        config.maxOutputBytes = maxOutput
        config.pbkdf2Rounds = pbkdf2Rounds
        config.registrationsPerAddressPerHour = registerLimit
        if let maxPasswordHashes { config.maxPasswordHashesInFlight = maxPasswordHashes }
        let level = Logger.Level(rawValue: logLevel)!
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        let options = ServerProcess.Options(
            configuration: config, dataDirectory: dataDir ?? ServerProcess.defaultDataDirectory,
            synchronous: fsync == "always" ? .full : .normal)
        ServerProcess.run(options, logger: Logger(label: "messageai-server"))
    }
}

ServerCommand.main()
