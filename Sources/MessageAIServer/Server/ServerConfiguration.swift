import Foundation
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
    /// A compressed frame inflates to at most this (announced in WELCOME): 4 × the frame limit.
    public var maxInflatedLength: Int { maxFrameLength * 4 }
    /// Longest message text, in Unicode scalars. Default 10,000.
    public var maxMessageLength = 10_000
    /// A client pings after this long without sending (announced in WELCOME). Default 15 s.
    public var pingIntervalMillis: UInt64 = 15_000
    /// A connection that sends nothing for this long is closed (idle_timeout); this also bounds
    /// how long a connection may stay without sending HELLO. Default 45 s.
    public var idleTimeoutMillis: UInt64 = 45_000
    /// Largest frame `length` accepted before login (HELLO, LOGIN, REGISTER, RESUME need ~6 KiB
    /// at most); a slow client cannot make the server hold more for it. Default 8 KiB.
    public var preLoginMaxFrameLength = 8 * 1024
    /// A frame must be complete this long after its first byte; trickled bytes do not extend
    /// it (a 1 MiB frame needs only ~35 KB/s). Default 30 s.
    public var frameTimeoutMillis: UInt64 = 30_000
    /// A connection must have logged in this long after it connected (or logged out), however
    /// many bytes or PINGs it sends meanwhile. Default 60 s.
    public var loginTimeoutMillis: UInt64 = 60_000
    /// Frames read from one connection per turn of the hub before it yields to the others
    /// (at most ~2 ms of work too). Default 64.
    public var framesPerTurn = 64
    /// Messages per user per `rateWindowSeconds` (token bucket). Default 100.
    public var rateLimit = 100
    /// The rate limit's window. Default 60 s.
    public var rateWindowSeconds = 60.0
    /// zlib level of compressed answers (SYNC_BATCH, HISTORY_PAGE, ...), 1-9. Default 1: on a
    /// 10,000-message sync it halves the server's time against level 6 for 8.1× instead of 8.8×
    /// fewer bytes (BENCHMARKS.md E5).
    public var compressionLevel: Int32 = 1
    /// Output buffered for one connection before it is cut off as not reading. Default 4 MiB.
    public var maxOutputBytes = 4 << 20
    /// PBKDF2-SHA256 rounds for new password hashes; never below 600,000. Default 600,000.
    public var pbkdf2Rounds = PasswordHasher.minimumRounds
    /// Free failed logins per (address, account) before growing delays (`throttled`). Default 5.
    public var loginFailuresPerAccountAtAddress = 5
    /// Free failed logins per account from addresses it never logged in from. Default 20.
    public var loginFailuresPerAccount = 20
    /// Free failed logins per address over all accounts (one NAT may hide an office). Default 50.
    public var loginFailuresPerAddress = 50
    /// REGISTERs per address per hour (token bucket); 0: no limit. Default 20.
    public var registrationsPerAddressPerHour = 20
    /// Password hashes (REGISTER, LOGIN, PASSWORD_CHANGE) queued or running at once; past it,
    /// `server_busy` with a retry hint. Default 16, or 4 per core on larger machines.
    public var maxPasswordHashesInFlight = max(16, 4 * ProcessInfo.processInfo.activeProcessorCount)
    /// Certificate and key to serve TLS with; nil serves the plain protocol (what in-process
    /// tests use). The executable always sets it unless told `--plaintext`.
    public var tls: TLSFiles?
    /// How long after sending a message its sender may edit it (announced in WELCOME). Default 24 h.
    public var editWindowMillis: UInt64 = 24 * 3_600_000
    /// Where uploaded files live (`partial/`, `blobs/`); nil: no file sharing (the `files`
    /// capability is not offered). The executable sets DATA_DIR/files.
    public var filesDirectory: String?
    /// The data directory (set by ServerProcess), for the admin commands' sizes and backups.
    public var dataDirectory: String?
    /// Largest file accepted (announced in WELCOME). Default 100 MiB.
    public var maxFileSize: UInt64 = 100 << 20
    /// Bytes of files one user may store, partial uploads counted at their announced size. Default 1 GiB.
    public var fileQuota: UInt64 = 1 << 30
    /// Unfinished uploads one user may have at once. Default 4.
    public var maxUploadsInFlight = 4
    /// Bytes per FILE_CHUNK and FILE_DATA: a SEND queued behind one waits for one chunk at most
    /// (~1 ms on a LAN, ~20 ms on 100 Mbit/s). Default 256 KiB.
    public var fileChunkSize = 256 * 1024
    /// Images with more pixels are refused from their header, before decoding (a decompression
    /// bomb costs nothing). Default 32 million, as Matrix's `max_image_pixels`.
    public var maxImagePixels: UInt64 = 32_000_000
    /// Partial uploads untouched this long are deleted. Default 24 h.
    public var partialExpirySeconds: Double = 24 * 3600
    /// Load balancers whose connections begin with a PROXY protocol v2 header naming the
    /// client's address (`--trusted-proxy`). Empty (the default): no header is read from anyone.
    public var trustedProxies = TrustedProxies()
    /// Several nodes: how long this node goes without reaching the database before it closes
    /// its clients' connections so that they move to another node (`--database-cutoff`,
    /// ChatServer+DatabaseCutoff.swift). Default 10 s; nil: never, the clients stay and get
    /// `database_unavailable` for what needs a commit until the database is back.
    public var databaseCutoffMillis: UInt64? = 10_000
    /// Text of WELCOME's `server` field.
    public var serverName = "messageai-server/0.4.1"
    /// The assistant: extraction, summaries, checks, the optional provider.
    public var assistant = AssistantConfiguration()
    /// Test and measurement only: every call of the asynchronous store interface first waits
    /// this long, as a database across a network would (`LatencyStore`). 0 (the default): none.
    /// The server process takes it from `MESSAGEAI_STORE_LATENCY_MS`; no flag, not for production.
    public var storeLatencyMillis: UInt64 = 0

    public init() {}
}
