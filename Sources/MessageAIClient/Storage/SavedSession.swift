import Foundation

/// The login the client resumes on its next start: who, and the session token.
/// Kept in `<data dir>/session.json` with mode 0600; the token is never printed or logged.
public struct SavedSession: Codable, Equatable {
    public var username: String
    public var userID: UInt64
    /// The 32-byte token as hex.
    public var token: String

    enum CodingKeys: String, CodingKey { case username, userID = "user_id", token }

    public static func path(in dataDir: String) -> String { dataDir + "/session.json" }

    /// nil when there is no file or it does not parse (then the user logs in again).
    public static func load(dataDir: String) -> SavedSession? {
        guard let data = FileManager.default.contents(atPath: path(in: dataDir)) else { return nil }
        return try? JSONDecoder().decode(SavedSession.self, from: data)
    }

    public func save(dataDir: String) throws {
        try AtomicFile.write(try JSONEncoder().encode(self), to: SavedSession.path(in: dataDir), mode: 0o600)
    }

    public static func remove(dataDir: String) {
        unlink(path(in: dataDir))
    }
}

/// Where one account's files live: `<data dir>/accounts/<username lowercased>/`.
public struct AccountPaths {
    public let directory: String
    public init(dataDir: String, username: String) {
        let safe = username.lowercased().filter { $0.isLetter || $0.isNumber || "._-".contains($0) }
        directory = dataDir + "/accounts/" + (safe.isEmpty ? "_" : safe)
    }
    public var store: String { directory + "/store.sqlite" }
    public var outbox: String { directory + "/outbox.json" }
    /// Who has which profile picture (`AvatarBook`), for the pictures shown offline.
    public var avatars: String { directory + "/avatars.json" }
}
