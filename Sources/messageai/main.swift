import ArgumentParser
import MessageAIClient
import MessageAITLS
#if canImport(Glibc)
import Glibc
#endif

/// `messageai`: the terminal client. Flags become a `ClientConfiguration`; everything else
/// lives in MessageAIClient.
struct MessageAICommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "messageai",
        abstract: "Terminal messaging client: a line-editing REPL on a terminal, line-by-line commands from a pipe.",
        discussion: """
            Type text to send it to the current conversation; commands start with / (/help lists them). \
            With stdin not a terminal, lines are read as commands and results printed as plain lines \
            (or JSON objects with --json); the exit status is 0 only if every line succeeded and \
            every message was acknowledged before --drain-timeout. \
            Connections use TLS: a certificate from a trusted CA is accepted; otherwise its fingerprint is shown \
            and, on a terminal, you are asked once (saved in $XDG_CONFIG_HOME/messageai/known_servers); a changed \
            certificate is refused.
            """,
        version: "messageai \(ClientConfiguration.version)")

    @Option(name: .long, help: "Server address HOST:PORT, or several nodes of one service as HOST:PORT,HOST:PORT (each reconnect starts at a random one and moves to the next on failure).")
    var server = "127.0.0.1:7878"

    @Option(name: .long, help: "Data directory (default $XDG_DATA_HOME/messageai or ~/.local/share/messageai).")
    var dataDir: String?

    @Flag(name: .long, help: "Print one JSON object per line.")
    var json = false

    @Option(name: .long, help: "At end of input, seconds to wait for queued messages to be sent.")
    var drainTimeout: Double = 10

    @Option(name: .long, help: "Program run with a notification's text as its argument (e.g. notify-send).")
    var notifyCommand: String?

    @Flag(name: .long, help: "Do not ring the terminal bell for messages in other conversations (setting: bell).")
    var noBell = false

    @Option(name: .long, help: ArgumentHelp("Settings file (default $XDG_CONFIG_HOME/messageai/config or ~/.config/messageai/config); flags given on the command line win over it.", valueName: "path"))
    var config: String?

    @Option(name: .long, help: ArgumentHelp("Trust exactly the server certificate with this SHA-256 fingerprint (for scripts).", valueName: "sha256"))
    var tlsFingerprint: String?

    @Option(name: .long, help: "Verify the server against this CA bundle (PEM) instead of the system's CAs.")
    var caFile: String?

    @Flag(name: .long, help: "Speak the plain protocol without TLS (only for a server started with --plaintext).")
    var plaintext = false

    @Flag(name: .long, help: "In the terminal, print every state change of sent messages (sending, sent, delivered, read) as a line; by default the prompt shows the last one's state. Piped output always prints them (setting: verbose).")
    var verbose = false

    @Option(name: .long, help: "In the terminal, how many of a conversation's last messages /open, /dm and /next show (0: none; default 10; setting: recap).")
    var openHistory: Int?

    @Option(name: .long, help: "Colour usernames, own messages and mentions: never, auto (a terminal, NO_COLOR unset; the default) or always (setting: colour).")
    var color: String?

    @Option(name: .long, help: "Check drafts before sending (clarity, tone): off, warn (show why and send) or confirm (hold a flagged draft: Enter sends it as is). Default: confirm at a terminal, off for piped input.")
    var check: String?

    func validate() throws {
        if let check, DraftCheckMode(rawValue: check) == nil { throw ValidationError("--check must be off, warn or confirm") }
        guard ServerAddress.parseList(server) != nil else {
            throw ValidationError("--server must be HOST:PORT or a comma-separated list of them, for example 127.0.0.1:7878 or node1:7878,node2:7878")
        }
        if let color, Palette.Mode(rawValue: color) == nil { throw ValidationError("--color must be never, auto or always") }
        guard drainTimeout >= 0 else { throw ValidationError("--drain-timeout must be 0 or more seconds") }
        if let tlsFingerprint, Fingerprint.normalize(tlsFingerprint) == nil {
            throw ValidationError("--tls-fingerprint must be a SHA-256 fingerprint: 64 hex digits, colons allowed")
        }
        if plaintext && (tlsFingerprint != nil || caFile != nil) {
            throw ValidationError("--plaintext excludes --tls-fingerprint and --ca-file")
        }
    }

    func run() throws {
        var config = ClientConfiguration()
        config.servers = ServerAddress.parseList(server)!
        if let dataDir { config.dataDir = dataDir }
        config.json = json
        config.drainTimeout = drainTimeout
        // The settings file first, then the flags given, which win.
        if let path = self.config { config.settingsPath = path }
        ClientApp.loadSettings(&config)
        if let notifyCommand { config.notifyCommand = notifyCommand }
        if noBell { config.bell = false }
        if verbose { config.verbose = true }
        if let openHistory { config.openHistory = max(0, openHistory) }
        if let color { config.color = Palette.Mode(rawValue: color) ?? .auto }
        if let check { config.draftCheck = DraftCheckMode(rawValue: check) }
        config.tls.plaintext = plaintext
        config.tls.pinnedFingerprint = tlsFingerprint.flatMap(Fingerprint.normalize)
        config.tls.caFile = caFile
        TrustPrompt.ensureTrusted(config, interactive: isatty(0) == 1)
        ClientApp.run(config)
    }
}

MessageAICommand.main()
