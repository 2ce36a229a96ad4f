import Foundation

/// How the client secures and trusts its connection (`--plaintext`, `--tls-fingerprint`,
/// `--ca-file`, the known-servers file).
public struct TLSSettings {
    /// `--plaintext`: the plain protocol, for a server started with `--plaintext`.
    public var plaintext = false
    /// `--tls-fingerprint`: trust exactly the certificate with this SHA-256 fingerprint
    /// (normalized, see `Fingerprint.normalize`), whatever CAs say. For scripts.
    public var pinnedFingerprint: String?
    /// `--ca-file`: verify against this CA bundle instead of the system's.
    public var caFile: String?
    /// Fingerprints the user accepted, per HOST:PORT (trust on first use).
    public var knownServersPath: String
    /// The other addresses of the `--server` list: a certificate known for one of them is
    /// trusted for this one too (every node of one service serves the same certificate).
    public var siblings: [ServerAddress] = []

    public init(knownServersPath: String) { self.knownServersPath = knownServersPath }

    /// $XDG_CONFIG_HOME/messageai, else ~/.config/messageai.
    public static func defaultConfigDir() -> String {
        let env = ProcessInfo.processInfo.environment
        if let xdg = env["XDG_CONFIG_HOME"], !xdg.isEmpty { return xdg + "/messageai" }
        let home = env["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return home + "/.config/messageai"
    }
}

/// What the connection negotiated, for `/server`.
public struct TLSInfo: Equatable {
    public var version: String
    public var cipher: String
    public var fingerprint: String
    public var alpn: String?
    /// "certificate authority", "known server", "--tls-fingerprint".
    public var trustedBy: String
}
