import Foundation

/// One message the user typed that the server has not acknowledged yet.
public struct OutboxEntry: Codable, Equatable, Sendable {
    /// 16 random bytes as 32 lowercase hex digits: the server dedupes resends by it.
    public var clientID: String
    public var conversationID: UInt64
    public var text: String
    /// Milliseconds since the epoch when the user typed it.
    public var created: UInt64

    enum CodingKeys: String, CodingKey {
        case clientID = "client_id", conversationID = "conversation_id", text, created
    }

    public init(clientID: String, conversationID: UInt64, text: String, created: UInt64) {
        self.clientID = clientID; self.conversationID = conversationID; self.text = text; self.created = created
    }

    public var clientIDBytes: [UInt8] { Hex.decode(clientID) ?? [] }
    var isValid: Bool { clientID.count == 32 && Hex.decode(clientID) != nil && conversationID != 0 }
}

/// The durable queue of unacknowledged messages, a JSON file in the account's directory.
///
/// A message is written here (temp file, fsync, rename) before it is shown as sending, and
/// leaves only after SEND_ACK, once the acked message is in the local store. So it survives
/// `kill -9`; a resend after a crash is stored once because the server dedupes by client id.
/// A file that does not parse is moved aside (never deleted) and the outbox starts empty.
public final class Outbox {
    struct FileFormat: Codable {
        var version: Int
        var entries: [OutboxEntry]
    }

    public let path: String
    public private(set) var entries: [OutboxEntry] = []
    /// Set when the file on disk was corrupt: says where it was moved. Shown to the user once.
    public private(set) var recoveryNotice: String?

    public init(path: String) throws {
        self.path = path
        guard let data = FileManager.default.contents(atPath: path) else { return }
        if let file = try? JSONDecoder().decode(FileFormat.self, from: data), file.entries.allSatisfy(\.isValid) {
            entries = file.entries
            return
        }
        let aside = Outbox.corruptPath(for: path)
        guard rename(path, aside) == 0 else {
            throw AtomicFile.WriteError(path: path, step: "rename of the corrupt outbox", errno: errno)
        }
        AtomicFile.syncDirectory(of: path)
        recoveryNotice = "the outbox file \(path) was corrupt; it was moved to \(aside) and the outbox starts empty"
    }

    public var isEmpty: Bool { entries.isEmpty }

    public func entries(in conversationID: UInt64) -> [OutboxEntry] {
        entries.filter { $0.conversationID == conversationID }
    }

    /// Durable before it returns: the caller shows the message as sending only afterwards.
    public func append(_ entry: OutboxEntry) throws {
        try save(entries + [entry])
    }

    public func remove(clientID: String) throws {
        guard entries.contains(where: { $0.clientID == clientID }) else { return }
        try save(entries.filter { $0.clientID != clientID })
    }

    private func save(_ new: [OutboxEntry]) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = try encoder.encode(FileFormat(version: 1, entries: new))
        try AtomicFile.write(data, to: path)
        entries = new
    }

    /// `outbox.json.corrupt-20261122T052100Z`, with a counter when that name is taken.
    static func corruptPath(for path: String) -> String {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = TimeZone(identifier: "UTC")
        f.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        let base = path + ".corrupt-" + f.string(from: Date())
        var candidate = base
        var n = 1
        while FileManager.default.fileExists(atPath: candidate) {
            n += 1
            candidate = base + "-\(n)"
        }
        return candidate
    }

    /// A fresh client id: random UUID bytes.
    public static func newClientID() -> String {
        let u = UUID().uuid
        return Hex.encode([u.0, u.1, u.2, u.3, u.4, u.5, u.6, u.7, u.8, u.9, u.10, u.11, u.12, u.13, u.14, u.15])
    }
}

enum Hex {
    static func encode(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        out.reserveCapacity(bytes.count * 2)
        for b in bytes { out.append(digits[Int(b >> 4)]); out.append(digits[Int(b & 0xF)]) }
        return String(decoding: out, as: UTF8.self)
    }

    static func decode(_ s: String) -> [UInt8]? {
        let u = Array(s.utf8)
        guard u.count % 2 == 0 else { return nil }
        var out = [UInt8]()
        out.reserveCapacity(u.count / 2)
        var i = 0
        while i < u.count {
            guard let hi = nibble(u[i]), let lo = nibble(u[i + 1]) else { return nil }
            out.append(hi << 4 | lo)
            i += 2
        }
        return out
    }

    private static func nibble(_ c: UInt8) -> UInt8? {
        switch c {
        case 48...57: return c - 48
        case 97...102: return c - 87
        case 65...70: return c - 55
        default: return nil
        }
    }
}
