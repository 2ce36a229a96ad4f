import Crypto
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The bytes of uploaded files, under the files directory:
/// - `partial/ID`: an unfinished upload, appended chunk by chunk. Its length is the upload's
///   offset, so nothing else has to be kept in step with it: after `kill -9` the next FILE_STATUS
///   reads the length and the client goes on from there.
/// - `blobs/SHA256`: complete, verified content, shared by every file row with that content.
///   A blob appears only by a rename (or link) of a file already fsynced and checked, so a
///   crash at any point leaves either a complete blob or none, never a torn one that is served.
///
/// With several nodes (`--database postgres`), every node is given the same directory
/// (`--files-directory`, shared by NFS or one machine's disk): `shared` is then set, and since
/// `inFlight` only knows this process's blobs, deleting one goes by its age as well
/// (FileVault+Blobs.swift, `sharedGrace`).
struct FileVault {
    let root: String
    /// Other processes write into this directory (several nodes on one database).
    var shared = false
    /// Blobs made but not yet recorded (FileVault+Blobs.swift).
    let inFlight = BlobsInFlight()
    var partialDirectory: String { root + "/partial" }
    var blobDirectory: String { root + "/blobs" }

    init(root: String, shared: Bool = false) throws {
        self.root = root
        self.shared = shared
        for dir in [root, root + "/partial", root + "/blobs"] {
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        }
    }

    func partialPath(_ id: [UInt8]) -> String { partialDirectory + "/" + FileVault.hex(id) }
    func blobPath(_ sha256: [UInt8]) -> String { blobDirectory + "/" + FileVault.hex(sha256) }

    /// Bytes received so far (0 when the partial file does not exist).
    func partialSize(_ id: [UInt8]) -> UInt64 {
        var st = stat()
        return stat(partialPath(id), &st) == 0 ? UInt64(st.st_size) : 0
    }

    func createPartial(_ id: [UInt8]) throws {
        let fd = open(partialPath(id), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw VaultError.io("create", errno) }
        close(fd)
    }

    /// Writes a chunk at `offset` if that is still the partial's length, under an exclusive
    /// `flock` on the file (NFS maps it to a lock the server holds): when every node shares the
    /// directory, two nodes given the same chunk (a client's old connection and its new one)
    /// cannot both append it; the second finds the length moved and returns false. A short
    /// write (disk full) is cut back, so the length stays the offset of the last whole chunk.
    func append(_ id: [UInt8], _ data: [UInt8], at offset: UInt64) throws -> Bool {
        let fd = open(partialPath(id), O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { throw VaultError.io("open", errno) }
        defer { close(fd) }  // also releases the lock
        guard flock(fd, LOCK_EX) == 0 else { throw VaultError.io("lock", errno) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw VaultError.io("stat", errno) }
        guard UInt64(st.st_size) == offset else { return false }
        let written = data.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, off_t(offset)) }
        if written != data.count {
            let e = errno
            ftruncate(fd, off_t(offset))
            throw VaultError.io("write", e)
        }
        return true
    }

    func removePartial(_ id: [UInt8]) { unlink(partialPath(id)) }

    /// Reads up to `length` bytes of a blob from `offset`.
    func read(_ sha256: [UInt8], offset: UInt64, length: Int) throws -> [UInt8] {
        let fd = open(blobPath(sha256), O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw VaultError.io("open", errno) }
        defer { close(fd) }
        var out = [UInt8](repeating: 0, count: length)
        let n = out.withUnsafeMutableBytes { pread(fd, $0.baseAddress, length, off_t(offset)) }
        guard n >= 0 else { throw VaultError.io("read", errno) }
        out.removeLast(length - n)
        return out
    }

    enum VaultError: Error, CustomStringConvertible {
        case io(String, Int32)
        var description: String {
            switch self { case let .io(what, e): return "\(what): \(String(cString: strerror(e)))" }
        }
    }

    static func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    /// SHA-256 and length of a file, read in 1 MiB pieces.
    static func digest(path: String) throws -> (sha256: [UInt8], size: UInt64) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw VaultError.io("open", errno) }
        defer { close(fd) }
        var hasher = SHA256()
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        var size: UInt64 = 0
        while true {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            guard n >= 0 else { throw VaultError.io("read", errno) }
            if n == 0 { break }
            hasher.update(data: buffer[0..<n])
            size += UInt64(n)
        }
        return (Array(hasher.finalize()), size)
    }

    static func fsync(path: String) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return }
        Glibc.fsync(fd)
        close(fd)
    }
}
