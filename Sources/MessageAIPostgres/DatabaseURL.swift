/// Where the PostgreSQL store connects, as given to `--database` or `MESSAGEAI_DATABASE_URL`:
///
///     postgres://USER@HOST:PORT/DB?sslmode=verify-full&sslrootcert=/etc/ca.pem
///     postgresql://messageai@/chat?host=/var/run/postgresql        (a unix socket directory)
///     postgres://messageai@%2Fvar%2Frun%2Fpostgresql/chat            (the same, libpq's other way)
///
/// libpq's URI form (PostgreSQL docs, "Connection URIs") with the parameters a server needs.
/// A pure parser: no file is read and no name resolved here. A password in the URL is refused,
/// because a flag's value is visible to every user of the machine (`ps`, /proc/PID/cmdline):
/// it comes from a file or the environment (`ConnectionSettings`).
public struct DatabaseURL: Sendable, Equatable, CustomStringConvertible {
    /// libpq's `sslmode` values this store supports (`allow` is not: PostgresNIO cannot try
    /// plain text first and TLS second, and `allow` protects nothing anyway).
    public enum SSLMode: String, Sendable, CaseIterable {
        case disable
        case prefer
        case require
        case verifyCA = "verify-ca"
        case verifyFull = "verify-full"
    }

    public var user: String
    /// A host name or IP address for TCP (brackets of an IPv6 literal removed).
    public var host: String
    /// The directory holding the server's socket (`.s.PGSQL.PORT`), when connecting through one.
    public var socketDirectory: String?
    public var port: Int
    public var database: String
    /// libpq's default is `prefer`; see `TLSPolicy` for what each mode does here.
    public var sslMode: SSLMode
    /// `sslrootcert`: the CA certificate(s), PEM, that the server's certificate must chain to.
    public var sslRootCert: String?
    /// `passfile`: a pgpass file to look the password up in, instead of `PGPASSFILE`/`~/.pgpass`.
    public var passfile: String?
    /// `connect_timeout` in seconds (libpq's unit); nil for the store's default.
    public var connectTimeout: Int?

    /// libpq's default socket directory on Debian; a pgpass line for `localhost` matches it.
    public static let defaultSocketDirectory = "/var/run/postgresql"

    /// The socket file when connecting through a unix socket.
    public var socketPath: String? { socketDirectory.map { "\($0)/.s.PGSQL.\(port)" } }

    /// The URL again, normalised; it holds nothing secret (a password is never accepted).
    public var description: String {
        var text = "postgres://\(Self.escape(user))@"
        if socketDirectory == nil { text += host.contains(":") ? "[\(host)]" : Self.escape(host) }
        text += ":\(port)/\(Self.escape(database))?sslmode=\(sslMode.rawValue)"
        if let socketDirectory { text += "&host=\(Self.escape(socketDirectory))" }
        if let sslRootCert { text += "&sslrootcert=\(Self.escape(sslRootCert))" }
        if let passfile { text += "&passfile=\(Self.escape(passfile))" }
        if let connectTimeout { text += "&connect_timeout=\(connectTimeout)" }
        return text
    }

    public init(user: String, host: String = "localhost", socketDirectory: String? = nil, port: Int = 5432,
                database: String, sslMode: SSLMode = .prefer) {
        self.user = user
        self.host = host
        self.socketDirectory = socketDirectory
        self.port = port
        self.database = database
        self.sslMode = sslMode
    }

    /// Parses `text`; every failure names what is wrong and never repeats a password.
    public static func parse(_ text: String) throws(DatabaseURLError) -> DatabaseURL {
        let rest: Substring
        if text.hasPrefix("postgres://") {
            rest = text.dropFirst("postgres://".count)
        } else if text.hasPrefix("postgresql://") {
            rest = text.dropFirst("postgresql://".count)
        } else {
            throw DatabaseURLError.notAPostgresURL
        }
        let (beforeQuery, query) = split(rest, at: "?")
        if beforeQuery.contains("#") || (query?.contains("#") ?? false) { throw DatabaseURLError.invalid("a fragment (#) has no meaning here") }
        let (authority, path) = split(beforeQuery, at: "/")

        var user: String?
        var hostPort = authority
        if let at = authority.lastIndex(of: "@") {
            let userInfo = authority[..<at]
            hostPort = authority[authority.index(after: at)...]
            if userInfo.contains(":") { throw DatabaseURLError.passwordInURL }
            user = try decode(userInfo, "user name")
        }
        var url = DatabaseURL(user: "", database: "")
        try url.setHostPort(hostPort)
        if let path { url.database = try decode(path, "database name") }
        if let user, !user.isEmpty { url.user = user }

        for pair in (query ?? "").split(separator: "&", omittingEmptySubsequences: true) {
            let (rawName, rawValue) = split(pair, at: "=")
            let name = try decode(rawName, "parameter name")
            guard let rawValue else { throw DatabaseURLError.invalid("parameter '\(name)' has no value") }
            try url.set(name, try decode(rawValue, "value of '\(name)'"))
        }
        guard !url.user.isEmpty else { throw DatabaseURLError.invalid("no user name (postgres://USER@HOST/DB)") }
        if url.database.isEmpty { url.database = url.user }  // libpq's default too
        return url
    }

    private mutating func setHostPort(_ text: Substring) throws(DatabaseURLError) {
        var hostText = text
        var portText: Substring?
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { throw DatabaseURLError.invalid("unclosed '[' in the host") }
            hostText = text[text.index(after: text.startIndex)..<close]
            let after = text[text.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { throw DatabaseURLError.invalid("unexpected text after ']'") }
                portText = after.dropFirst()
            }
        } else if let colon = text.lastIndex(of: ":") {
            hostText = text[..<colon]
            portText = text[text.index(after: colon)...]
        }
        if hostText.contains(",") { throw DatabaseURLError.invalid("several hosts are not supported") }
        let host = try Self.decode(hostText, "host")
        if host.hasPrefix("/") { socketDirectory = host } else if !host.isEmpty { self.host = host }
        if let portText, !portText.isEmpty { try setPort(String(portText)) }
    }

    private mutating func setPort(_ text: String) throws(DatabaseURLError) {
        guard let port = Int(text), (1...65535).contains(port) else { throw DatabaseURLError.invalid("port '\(text)' is not 1-65535") }
        self.port = port
    }

    private mutating func set(_ name: String, _ value: String) throws(DatabaseURLError) {
        switch name {
        case "host":
            if value.hasPrefix("/") { socketDirectory = value } else { host = value; socketDirectory = nil }
        case "port": try setPort(value)
        case "user": user = value
        case "dbname": database = value
        case "sslmode":
            if value == "allow" { throw DatabaseURLError.invalid("sslmode=allow is not supported; use disable, prefer, require, verify-ca or verify-full") }
            guard let mode = SSLMode(rawValue: value) else {
                throw DatabaseURLError.invalid("sslmode '\(value)' is not one of disable, prefer, require, verify-ca, verify-full")
            }
            sslMode = mode
        case "sslrootcert": sslRootCert = value
        case "passfile": passfile = value
        case "connect_timeout":
            guard let seconds = Int(value), seconds >= 0 else { throw DatabaseURLError.invalid("connect_timeout '\(value)' is not a number of seconds") }
            connectTimeout = seconds == 0 ? nil : max(seconds, 2)  // libpq: 0 is none, 1 counts as 2
        case "password":
            throw DatabaseURLError.passwordInURL
        default:
            throw DatabaseURLError.invalid("unknown parameter '\(name)' (known: host, port, user, dbname, sslmode, sslrootcert, passfile, connect_timeout)")
        }
    }

    // MARK: Pieces

    private static func split<S: StringProtocol>(_ text: S, at separator: Character) -> (Substring, Substring?) where S.SubSequence == Substring {
        guard let i = text.firstIndex(of: separator) else { return (text[...], nil) }
        return (text[..<i], text[text.index(after: i)...])
    }

    /// Percent-decoding; the bytes must be UTF-8. `+` is a plus sign, as libpq has it.
    static func decode(_ text: Substring, _ what: String) throws(DatabaseURLError) -> String {
        var bytes: [UInt8] = []
        var utf8 = text.utf8.makeIterator()
        while let byte = utf8.next() {
            guard byte == UInt8(ascii: "%") else { bytes.append(byte); continue }
            guard let high = utf8.next().flatMap(hexValue), let low = utf8.next().flatMap(hexValue) else {
                throw DatabaseURLError.invalid("bad percent-encoding in the \(what)")
            }
            bytes.append(high << 4 | low)
        }
        if bytes.contains(0) { throw DatabaseURLError.invalid("the \(what) holds a NUL byte") }
        guard let decoded = String(validating: bytes, as: UTF8.self) else { throw DatabaseURLError.invalid("the \(what) is not UTF-8") }
        return decoded
    }

    private static func hexValue(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// Percent-encodes all but unreserved characters (RFC 3986), so `description` parses back.
    static func escape(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = String(byte, radix: 16, uppercase: true)
                out += "%" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        return out
    }
}

/// Why connection settings were refused. The text is for the operator and holds no password.
public enum DatabaseURLError: Error, Equatable, Sendable, CustomStringConvertible {
    case notAPostgresURL
    case passwordInURL
    case invalid(String)
    /// The password file cannot be used (missing, unreadable, or readable by others).
    case passwordFile(String)
    /// No URL: neither `--database` nor `MESSAGEAI_DATABASE_URL`.
    case missing

    public var description: String {
        switch self {
        case .notAPostgresURL:
            "the database URL must start with postgres:// or postgresql://"
        case .passwordInURL:
            "the database URL must not hold a password (anyone on the machine can read a command line); "
                + "put it in a file of mode 0600 (--database-password-file), PGPASSFILE, or PGPASSWORD"
        case .invalid(let why):
            "bad database URL: \(why)"
        case .passwordFile(let why):
            why
        case .missing:
            "no database URL: pass --database postgres://USER@HOST:PORT/DB or set MESSAGEAI_DATABASE_URL"
        }
    }
}
