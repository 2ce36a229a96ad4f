import Foundation
import MessageAISocket

/// Everything the `messageai` command line sets. Defaults are what a user gets with no flags.
public struct ClientConfiguration {
    public static let version = "0.4.1"

    /// The server's addresses (`--server HOST:PORT[,HOST:PORT...]`). Default 127.0.0.1:7878.
    /// Several are nodes of one service: each (re)connect starts at a random one and moves to
    /// the next on failure.
    public var servers = [ServerAddress(host: "127.0.0.1", port: 7878)]
    /// The first address's host and port (the trust probe at start, older callers).
    public var host: String {
        get { servers[0].host }
        set { servers = [ServerAddress(host: newValue, port: port)] }
    }
    public var port: UInt16 {
        get { servers[0].port }
        set { servers = [ServerAddress(host: host, port: newValue)] }
    }
    /// Where session, local caches, outboxes and input history live. Default
    /// `$XDG_DATA_HOME/messageai`, else `~/.local/share/messageai` (`--data-dir`).
    public var dataDir = ClientConfiguration.defaultDataDir()
    /// One JSON object per output line instead of plain text (`--json`). Default off.
    public var json = false
    /// At end of input, how long to wait for the outbox to drain before exiting. Default 10 s.
    public var drainTimeout: Double = 10
    /// A program run with a notification's text as its argument (never through a shell),
    /// e.g. `notify-send`. Default none.
    public var notifyCommand: String?
    /// Ring the terminal bell for messages outside the current conversation. Default on
    /// (only when stdout is a terminal); `--no-bell` turns it off.
    public var bell = true
    /// Reconnect backoff: first delay and cap, in seconds (jitter: 50-100 % of the value).
    public var backoffBase = 0.1
    public var backoffCap = 2.0
    /// How long a command that needs the server waits for a connection in progress. 5 s.
    public var connectWait: Double = 5
    /// Catch-up after a disconnect: more new messages than this in one conversation print
    /// one summary line instead of each message (plain mode). Default 3.
    public var summaryThreshold = 3
    /// TLS: `--plaintext`, `--tls-fingerprint`, `--ca-file`; trusted servers in
    /// `$XDG_CONFIG_HOME/messageai/known_servers` (else ~/.config/messageai).
    public var tls = TLSSettings(knownServersPath: TLSSettings.defaultConfigDir() + "/known_servers")
    /// In the REPL, print each state change of a sent message as its own line (`--verbose`).
    /// Off: the message is printed once and the prompt shows the last one's state. Piped
    /// plain output and `--json` print every change regardless. Default off.
    public var verbose = false
    /// In the REPL, how many of a conversation's last messages /open, /dm and /next show
    /// (`--open-history`, 0 for none). Default 10.
    public var openHistory = 10
    /// Colour in plain output (`--color never|auto|always`). Default auto.
    public var color = Palette.Mode.auto
    /// How message times are shown: a Unicode date pattern, or "off" (`timestamps` setting).
    /// Default HH:mm.
    public var timestampFormat = "HH:mm"
    /// `time-zone`: "auto" (TZ, else /etc/localtime, else UTC) or a zone the user chose (an
    /// IANA name or "+09:00"): due dates are shown in it and the profile carries it.
    public var timeZone = "auto"
    /// Images in the terminal (`preview` setting): on (the terminal's best way: kitty, iTerm2,
    /// sixels, else block art), blocks (always block art) or off. Never with --json or piped
    /// output. Default on.
    public var preview = PreviewSetting.on
    /// At a terminal, the catch-up across conversations when the user comes back after 6 hours
    /// without typing here (`catchup` setting). Never for scripts. Default on.
    public var catchUpAtStart = true
    /// "This would be quicker as a call": a dim one-line note when a DM or small group goes back
    /// and forth on an unsettled question (`callhint` setting). Default on.
    public var callHint = true
    /// The config file (`--config`). Default `$XDG_CONFIG_HOME/messageai/config`, else
    /// `~/.config/messageai/config`.
    public var settingsPath = SettingsFile.defaultPath()
    /// Set by the app when stdin is a terminal (not a flag): commands that need the server
    /// fail at once while offline instead of waiting `connectWait` for a reconnect.
    public var interactive = false
    /// The pre-send check of drafts (`--check off|warn|confirm`); nil: confirm in the REPL,
    /// off for piped input. `/check mode` changes it for the session.
    public var draftCheck: DraftCheckMode?

    public init() {}

    /// `notifyCommand` as the `notify` setting reads and writes it: empty for none.
    public var notifyText: String {
        get { notifyCommand ?? "" }
        set { notifyCommand = newValue.isEmpty ? nil : newValue }
    }

    public static func defaultDataDir() -> String {
        let env = ProcessInfo.processInfo.environment
        if let xdg = env["XDG_DATA_HOME"], !xdg.isEmpty { return xdg + "/messageai" }
        let home = env["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return home + "/.local/share/messageai"
    }

    /// Parses `HOST:PORT` (also `[v6]:PORT`); nil when malformed.
    public static func parseServer(_ s: String) -> (String, UInt16)? {
        SocketAddress.parse(s).map { ($0.host, $0.port) }
    }
}
