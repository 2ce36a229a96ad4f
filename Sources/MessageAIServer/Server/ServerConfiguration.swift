import MessageAIProtocol

/// Everything the server can be told at start. The executable fills it from flags; tests
/// build it directly. Defaults are the documented production values.
public struct ServerConfiguration: Sendable {
    /// Address to listen on. Default 127.0.0.1.
    public var host = "127.0.0.1"
    /// TCP port; 0 picks a free one. Default 7878.
    public var port = 7878
    /// Largest frame `length` accepted (bytes). Default 1 MiB.
    public var maxFrameLength = Frame.defaultMaxLength
    /// Longest message text, in Unicode scalars. Default 10,000.
    public var maxMessageLength = 10_000
    /// A client pings after this long without sending (announced in WELCOME). Default 15 s.
    public var pingIntervalMillis: UInt64 = 15_000
    /// A connection that sends nothing for this long is closed (idle_timeout); this also bounds
    /// how long a connection may stay without sending HELLO. Default 45 s.
    public var idleTimeoutMillis: UInt64 = 45_000
    /// Messages per user per `rateWindowSeconds` (token bucket). Default 100.
    public var rateLimit = 100
    /// The rate limit's window. Default 60 s.
    public var rateWindowSeconds = 60.0
    /// Output buffered for one connection before it is cut off as not reading. Default 4 MiB.
    public var maxOutputBytes = 4 << 20
    /// PBKDF2-SHA256 rounds for new password hashes; never below 600,000. Default 600,000.
    public var pbkdf2Rounds = PasswordHasher.minimumRounds
    /// Failed logins per account and per address within a minute before `throttled`. Default 5.
    public var loginFailuresPerMinute = 5
    /// Certificate and key to serve TLS with; nil serves the plain protocol (what in-process
    /// tests use). The executable always sets it unless told `--plaintext`.
    public var tls: TLSFiles?
    /// Text of WELCOME's `server` field.
    public var serverName = "messageai-server/0.1.0"

    public init() {}
}
