import ArgumentParser
import Foundation
import MessageAIPostgres
import MessageAIServer

/// `--database` and its password (issue 25): PostgreSQL instead of the data directory's
/// SQLite file. The URL never holds a password (refused with the reason); the password comes
/// from `--database-password-file` (mode 0600 or stricter), `PGPASSWORD`, or a pgpass file, and
/// is never printed: `--check-config` and the log show the URL and where the password came from.
extension ServerCommand {
    /// `--database`, else `MESSAGEAI_DATABASE_URL`; nil: SQLite as before.
    var databaseURL: String? {
        if let database, !database.isEmpty { return database }
        let env = ProcessInfo.processInfo.environment["MESSAGEAI_DATABASE_URL"] ?? ""
        return env.isEmpty ? nil : env
    }

    /// The URL's syntax, at validation (and so by `--check-config`): a bad URL is a usage error.
    func validateDatabase() throws {
        guard let text = databaseURL else {
            if databasePasswordFile != nil { throw ValidationError("--database-password-file needs --database") }
            return
        }
        do {
            _ = try DatabaseURL.parse(text)
        } catch {
            throw ValidationError("--database: \(error)")
        }
    }

    /// The settings with the password looked up; nil without a database URL. A password file
    /// that others may read, or cannot be read, is refused here, before anything starts, with
    /// one line naming the file (never its content) and exit status 1.
    func databaseSettings() -> ConnectionSettings? {
        guard let text = databaseURL else { return nil }
        let environment = ProcessInfo.processInfo.environment
        do {
            return try ConnectionSettings.resolve(url: text, passwordFile: databasePasswordFile, environment: environment,
                                                  home: environment["HOME"])
        } catch {
            StandardError.write("messageai-server: \(error)\n")
            Foundation.exit(1)
        }
    }
}
