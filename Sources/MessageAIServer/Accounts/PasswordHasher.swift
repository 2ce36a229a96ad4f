import Crypto
import _CryptoExtras
import Foundation

/// Slow salted password hashes: PBKDF2-HMAC-SHA256, 600,000 rounds or more, 16-byte random salt.
/// Stored as `pbkdf2-sha256$ROUNDS$SALT_B64$HASH_B64`, so the rounds can rise later and old
/// hashes still verify. Slow on purpose (~0.3 s): callers run it off the hub queue.
public enum PasswordHasher {
    public static let minimumRounds = 600_000
    static let scheme = "pbkdf2-sha256"

    public static func hash(_ password: String, rounds: Int = minimumRounds) -> String {
        var salt = [UInt8](repeating: 0, count: 16)
        var rng = SystemRandomNumberGenerator()
        for i in salt.indices { salt[i] = UInt8.random(in: .min ... .max, using: &rng) }
        let key = derive(password, salt: salt, rounds: max(rounds, minimumRounds))
        return "\(scheme)$\(max(rounds, minimumRounds))$\(Data(salt).base64EncodedString())$\(Data(key).base64EncodedString())"
    }

    /// Constant-time comparison of the derived key; false for a malformed stored hash.
    public static func verify(_ password: String, against stored: String) -> Bool {
        let parts = stored.split(separator: "$", omittingEmptySubsequences: false)
        guard parts.count == 4, parts[0] == scheme, let rounds = Int(parts[1]), rounds >= minimumRounds,
              let salt = Data(base64Encoded: String(parts[2])), let expected = Data(base64Encoded: String(parts[3])),
              !expected.isEmpty else { return false }
        let key = derive(password, salt: [UInt8](salt), rounds: rounds, length: expected.count)
        var diff: UInt8 = 0
        for (a, b) in zip(key, expected) { diff |= a ^ b }
        return diff == 0 && key.count == expected.count
    }

    private static func derive(_ password: String, salt: [UInt8], rounds: Int, length: Int = 32) -> [UInt8] {
        let key = try! KDF.Insecure.PBKDF2.deriveKey(
            from: Array(password.utf8), salt: salt, using: .sha256, outputByteCount: length, rounds: rounds)
        return key.withUnsafeBytes { Array($0) }
    }
}

/// Session tokens: 32 random bytes given to the client once; the server keeps only SHA-256.
enum SessionToken {
    static func generate() -> [UInt8] {
        var rng = SystemRandomNumberGenerator()
        return (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &rng) }
    }

    static func hash(_ token: [UInt8]) -> [UInt8] { Array(SHA256.hash(data: token)) }
}

/// A valid hash of a random password with the server's configured rounds: verifying an unknown
/// user's password against it costs the same time as for a real account, so timing does not
/// tell which usernames exist. Computed once at start on the password queue (never on the
/// hub); `value` waits for it, and is only read on the password queue.
final class DecoyHash: @unchecked Sendable {
    private let ready = DispatchSemaphore(value: 0)
    private var hash = ""

    init(rounds: Int, queue: DispatchQueue) {
        queue.async { [self] in
            hash = PasswordHasher.hash(UUID().uuidString, rounds: rounds)
            ready.signal()
        }
    }

    /// Blocks until computed (the first ~0.3 s after start only).
    var value: String {
        ready.wait()
        defer { ready.signal() }
        return hash
    }

    /// Whether the hash is computed (for tests and logs), without waiting.
    var isReady: Bool {
        guard ready.wait(timeout: .now()) == .success else { return false }
        ready.signal()
        return true
    }

    /// One decoy per rounds value per process: a second server in the same process (tests)
    /// reuses it instead of hashing again at its start.
    static func shared(rounds: Int, queue: DispatchQueue) -> DecoyHash {
        cacheLock.lock()
        defer { cacheLock.unlock() }
        if let d = cache[rounds] { return d }
        let d = DecoyHash(rounds: rounds, queue: queue)
        cache[rounds] = d
        return d
    }
    private static let cacheLock = NSLock()
    nonisolated(unsafe) private static var cache: [Int: DecoyHash] = [:]
}
