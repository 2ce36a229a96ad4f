import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The known-servers file: one `HOST:PORT FINGERPRINT` line per server the user trusted,
/// like SSH's known_hosts. Mode 0600 in a 0700 directory. Lines starting with # are comments.
enum KnownServers {
    static func key(host: String, port: UInt16) -> String {
        host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }

    static func lookup(_ path: String, host: String, port: UInt16) -> String? {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
        let k = key(host: host, port: port)
        for line in text.split(separator: "\n") {
            let words = line.split(separator: " ", omittingEmptySubsequences: true)
            if words.count >= 2, !line.hasPrefix("#"), words[0] == k { return String(words[1]) }
        }
        return nil
    }

    /// Adds (or replaces) the server's line; written to a temp file and renamed.
    static func save(_ path: String, host: String, port: UInt16, fingerprint: String) throws {
        let dir = (path as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        let k = key(host: host, port: port)
        var lines = ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "")
            .split(separator: "\n").map(String.init)
            .filter { $0.split(separator: " ").first.map(String.init) != k }
        lines.append("\(k) \(fingerprint)")
        let temp = path + ".tmp"
        let fd = open(temp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw ClientError("known_servers", "cannot write \(temp): \(String(cString: strerror(errno)))") }
        fchmod(fd, 0o600)
        let data = Array((lines.joined(separator: "\n") + "\n").utf8)
        let written = data.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        fsync(fd)
        close(fd)
        guard written == data.count, rename(temp, path) == 0 else {
            throw ClientError("known_servers", "cannot write \(path): \(String(cString: strerror(errno)))")
        }
    }
}
