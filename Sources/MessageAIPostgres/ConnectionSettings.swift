#if canImport(Glibc)
import Glibc
#endif

/// Everything the server needs to reach its database: the URL, the password and where it came
/// from, and the TLS policy. The password is looked up, in this order:
///
/// 1. the file named by the server's `--database-password-file`: the whole file is the password
///    (one trailing newline dropped);
/// 2. `PGPASSWORD`;
/// 3. a pgpass file: the URL's `passfile=`, else `PGPASSFILE`, else `~/.pgpass` if it exists;
/// 4. none (trust or peer authentication).
///
/// Every file holding a password must be a regular file that neither the group nor others may
/// read or write (mode 0600 or 0400): one that is is refused with an error naming the file and
/// its mode, where libpq only warns and ignores it, because a server that silently drops the
/// operator's password would fail later with a less helpful "password authentication failed".
public struct ConnectionSettings: Sendable, CustomStringConvertible {
    public var url: DatabaseURL
    /// Never logged, never part of `description`.
    public var password: String?
    /// Where the password came from, for the start-up log line: "none", "PGPASSWORD", or a
    /// file (and line of a pgpass file). Never the password.
    public var passwordSource: String

    public var description: String { "\(url) (password: \(passwordSource))" }

    /// `url` (from `--database`) or else `MESSAGEAI_DATABASE_URL`; `passwordFile` from
    /// `--database-password-file`. `environment` and `home` are parameters so tests control them.
    public static func resolve(url text: String?, passwordFile: String?, environment: [String: String],
                               home: String?) throws(DatabaseURLError) -> ConnectionSettings {
        guard let text = text ?? environment["MESSAGEAI_DATABASE_URL"], !text.isEmpty else { throw DatabaseURLError.missing }
        let url = try DatabaseURL.parse(text)
        if let passwordFile {
            var password = try readSecretFile(passwordFile, what: "password file")
            if password.hasSuffix("\n") { password.removeLast() }
            if password.hasSuffix("\r") { password.removeLast() }
            return ConnectionSettings(url: url, password: password, passwordSource: "file \(passwordFile)")
        }
        if let password = environment["PGPASSWORD"] {
            return ConnectionSettings(url: url, password: password, passwordSource: "PGPASSWORD")
        }
        let named = url.passfile ?? environment["PGPASSFILE"]
        let path = named ?? home.map { "\($0)/.pgpass" }
        if let path, named != nil || fileExists(path) {
            let file = PGPassFile(parsing: try readSecretFile(path, what: "pgpass file"))
            if let entry = file.entry(host: PGPassFile.hostKey(for: url), port: url.port, database: url.database, user: url.user) {
                return ConnectionSettings(url: url, password: entry.password, passwordSource: "\(path) line \(entry.line)")
            }
            return ConnectionSettings(url: url, password: nil, passwordSource: "none (no line of \(path) matches)")
        }
        return ConnectionSettings(url: url, password: nil, passwordSource: "none")
    }

    /// What the store connects with.
    public func storeConfiguration() throws(DatabaseURLError) -> PostgresStore.Configuration {
        var configuration = PostgresStore.Configuration(username: url.user, database: url.database)
        configuration.host = url.host
        configuration.port = url.port
        configuration.unixSocketPath = url.socketPath
        configuration.password = password
        configuration.tls = TLSPolicy(url)
        if let seconds = url.connectTimeout { configuration.connectTimeout = .seconds(seconds) }
        return configuration
    }

    // MARK: Files

    private static func fileExists(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0
    }

    /// The file's text, after checking on the open descriptor (no race with a rename) that it is
    /// a regular file without group or other permissions.
    static func readSecretFile(_ path: String, what: String) throws(DatabaseURLError) -> String {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            throw DatabaseURLError.passwordFile("cannot open \(what) \(path): \(String(cString: strerror(errno)))")
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            throw DatabaseURLError.passwordFile("\(what) \(path) is not a regular file")
        }
        let mode = info.st_mode & 0o777
        guard mode & 0o077 == 0 else {
            throw DatabaseURLError.passwordFile("\(what) \(path) has mode \(String(mode, radix: 8)): others may read it; "
                                + "run `chmod 600 \(path)` (the password was not used)")
        }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n >= 0 else { throw DatabaseURLError.passwordFile("cannot read \(what) \(path): \(String(cString: strerror(errno)))") }
            if n == 0 { break }
            bytes += buffer[0..<n]
            if bytes.count > 1 << 20 { throw DatabaseURLError.passwordFile("\(what) \(path) is larger than 1 MiB") }
        }
        guard let text = String(validating: bytes, as: UTF8.self) else { throw DatabaseURLError.passwordFile("\(what) \(path) is not UTF-8") }
        return text
    }
}
