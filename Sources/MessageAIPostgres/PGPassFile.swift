/// libpq's password file (PostgreSQL docs, "The Password File"), parsed the way libpq reads it:
///
///     hostname:port:database:username:password
///
/// one entry a line, the first line that matches wins; each of the first four fields may be
/// `*` to match anything; `\:` and `\\` stand for a colon and a backslash in any field (and
/// `\*` for a literal star); `#` starts a comment line; a line with fewer than five fields is
/// skipped. Pure: the caller reads the file (and checks its mode, see `ConnectionSettings`).
public struct PGPassFile: Sendable, Equatable {
    public struct Entry: Sendable, Equatable {
        /// nil: the field was `*`.
        public var host: String?
        public var port: String?
        public var database: String?
        public var user: String?
        public var password: String
        /// 1-based, for telling the operator which line was used (never the password).
        public var line: Int
    }

    public var entries: [Entry]

    public init(parsing text: String) {
        var entries: [Entry] = []
        // "\r\n" is one Character in Swift: a CRLF file's lines end at either.
        let lines = text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" }
        for (index, rawLine) in lines.enumerated() {
            var line = rawLine
            if line.hasSuffix("\r") { line = line.dropLast() }
            if line.isEmpty || line.hasPrefix("#") { continue }
            guard let fields = Self.fields(line) else { continue }
            entries.append(Entry(host: fields[0], port: fields[1], database: fields[2], user: fields[3],
                                 password: fields[4] ?? "*", line: index + 1))
        }
        self.entries = entries
    }

    /// The first entry for this connection. `host` is what libpq compares: the host name for
    /// TCP, `localhost` for the default socket directory, otherwise the socket directory.
    public func entry(host: String, port: Int, database: String, user: String) -> Entry? {
        entries.first { entry in
            Self.matches(entry.host, host) && Self.matches(entry.port, String(port))
                && Self.matches(entry.database, database) && Self.matches(entry.user, user)
        }
    }

    /// What libpq matches the host field against for these settings.
    public static func hostKey(for url: DatabaseURL) -> String {
        guard let directory = url.socketDirectory else { return url.host }
        return directory == DatabaseURL.defaultSocketDirectory ? "localhost" : directory
    }

    private static func matches(_ field: String?, _ value: String) -> Bool {
        field.map { $0 == value } ?? true
    }

    /// The five fields, unescaped, a wildcard as nil (the password field is never a wildcard:
    /// `*` there is the password `*`); nil for a line with fewer than five fields.
    private static func fields(_ line: Substring) -> [String?]? {
        var fields: [String?] = []
        var current = ""
        var sawEscape = false  // `\*` is a literal star, not the wildcard
        var chars = line.makeIterator()
        while let c = chars.next() {
            if fields.count == 4 {
                // The password: the rest of the line, with escapes; colons need not be escaped.
                if c == "\\", let next = chars.next() { current.append(next) } else { current.append(c) }
                continue
            }
            switch c {
            case "\\":
                sawEscape = true
                if let next = chars.next() { current.append(next) }
            case ":":
                fields.append(current == "*" && !sawEscape ? nil : current)
                current = ""
                sawEscape = false
            default:
                current.append(c)
            }
        }
        guard fields.count == 4 else { return nil }
        fields.append(current)
        return fields
    }
}
