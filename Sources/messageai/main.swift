import ArgumentParser
import MessageAIClient

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
            every message was acknowledged before --drain-timeout.
            """,
        version: "messageai \(ClientConfiguration.version)")

    @Option(name: .long, help: "Server address HOST:PORT.")
    var server = "127.0.0.1:7878"

    @Option(name: .long, help: "Data directory (default $XDG_DATA_HOME/messageai or ~/.local/share/messageai).")
    var dataDir: String?

    @Flag(name: .long, help: "Print one JSON object per line.")
    var json = false

    @Option(name: .long, help: "At end of input, seconds to wait for queued messages to be sent.")
    var drainTimeout: Double = 10

    @Option(name: .long, help: "Program run with a notification's text as its argument (e.g. notify-send).")
    var notifyCommand: String?

    @Flag(name: .long, help: "Do not ring the terminal bell for messages in other conversations.")
    var noBell = false

    @Flag(name: .long, help: "In the terminal, print every state change of sent messages (sending, sent, delivered, read) as a line; by default the prompt shows the last one's state. Piped output always prints them.")
    var verbose = false

    @Option(name: .long, help: "In the terminal, how many of a conversation's last messages /open, /dm and /next show (0: none).")
    var openHistory = 10

    @Option(name: .long, help: "Colour usernames, own messages and mentions: never, auto (a terminal, NO_COLOR unset) or always.")
    var color = "auto"

    func validate() throws {
        guard ClientConfiguration.parseServer(server) != nil else {
            throw ValidationError("--server must be HOST:PORT, for example 127.0.0.1:7878")
        }
        guard Palette.Mode(rawValue: color) != nil else { throw ValidationError("--color must be never, auto or always") }
        guard drainTimeout >= 0 else { throw ValidationError("--drain-timeout must be 0 or more seconds") }
    }

    func run() throws {
        var config = ClientConfiguration()
        let (host, port) = ClientConfiguration.parseServer(server)!
        config.host = host
        config.port = port
        if let dataDir { config.dataDir = dataDir }
        config.json = json
        config.drainTimeout = drainTimeout
        config.notifyCommand = notifyCommand
        config.bell = !noBell
        config.verbose = verbose
        config.openHistory = max(0, openHistory)
        config.color = Palette.Mode(rawValue: color) ?? .auto
        ClientApp.run(config)
    }
}

MessageAICommand.main()
