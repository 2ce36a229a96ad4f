import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Copying for backup and restore: files 0600, directories 0700, never over an existing file,
/// each file fsynced before the copy is reported done.
enum BackupFiles {
    static let databaseName = ServerProcess.databaseFileName
    static let tlsNames = [ServerProcess.generatedCertificateName, ServerProcess.generatedKeyName]
    /// Written last into a backup: a directory without it is not a finished backup.
    static let markerName = "messageai-backup.txt"

    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    static func makeDirectory(_ path: String) throws {
        if mkdir(path, 0o700) != 0 && errno != EEXIST {
            throw Failure("cannot create \(path): \(String(cString: strerror(errno)))")
        }
        chmod(path, 0o700)
    }

    static func size(_ path: String) -> UInt64 {
        var st = stat()
        return stat(path, &st) == 0 ? UInt64(st.st_size) : 0
    }

    static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

    /// Regular files directly in `directory` (blobs: one level, named by their SHA-256).
    static func files(in directory: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted().filter {
            var st = stat()
            return stat(directory + "/" + $0, &st) == 0 && (st.st_mode & S_IFMT) == S_IFREG
        }
    }

    /// Copies `from` to a new file `to` (mode 0600); `progress` gets the bytes copied so far.
    /// Returns false when `from` vanished (a blob reclaimed before the backup paused reclaim).
    @discardableResult
    static func copy(_ from: String, _ to: String, progress: (UInt64) -> Void = { _ in }) throws -> Bool {
        let input = open(from, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else {
            if errno == ENOENT { return false }
            throw Failure("cannot read \(from): \(String(cString: strerror(errno)))")
        }
        defer { close(input) }
        let output = open(to, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard output >= 0 else { throw Failure("cannot create \(to): \(String(cString: strerror(errno)))") }
        defer { close(output) }
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        var total: UInt64 = 0
        while true {
            let n = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n >= 0 else { throw Failure("cannot read \(from): \(String(cString: strerror(errno)))") }
            if n == 0 { break }
            var written = 0
            while written < n {
                let w = buffer.withUnsafeBytes { write(output, $0.baseAddress! + written, n - written) }
                guard w > 0 else { throw Failure("cannot write \(to): \(String(cString: strerror(errno)))") }
                written += w
            }
            total += UInt64(n)
            progress(total)
        }
        guard fsync(output) == 0 else { throw Failure("cannot write \(to): \(String(cString: strerror(errno)))") }
        return true
    }

    /// Makes the directory entries of `directory` durable (after its files were written).
    static func syncDirectory(_ directory: String) {
        let fd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        _ = fsync(fd)
        close(fd)
    }
}
