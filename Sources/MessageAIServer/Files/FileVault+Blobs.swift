import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Blobs made on `filesQueue` that no database row serves yet, and deleting blobs no row serves
/// any more.
///
/// The race this guards against: the hub finds no row serving content X and asks
/// `filesQueue` to delete blob X, while an upload of the same X has just been checked there and
/// found the blob already present (so it kept it instead of linking its own) and waits for the
/// hub to record it. Every blob `finish` or `makeAvatar` hands to the hub is listed here until
/// the hub has recorded it (or given up) and said so on `filesQueue`; `deleteBlob`, also on
/// `filesQueue`, leaves a listed blob alone. Since the hub decides first and `filesQueue`
/// deletes later, a row recorded in between is covered by the listing, and a row recorded
/// before the decision was seen by it.
final class BlobsInFlight: @unchecked Sendable {
    /// Touched only on `filesQueue`.
    private var counts: [[UInt8]: Int] = [:]
    func insert(_ sha256: [UInt8]) { counts[sha256, default: 0] += 1 }
    func remove(_ sha256: [UInt8]) {
        guard let n = counts[sha256] else { return }
        counts[sha256] = n > 1 ? n - 1 : nil
    }
    func contains(_ sha256: [UInt8]) -> Bool { counts[sha256] != nil }
}

extension FileVault {
    /// Deletes blob `sha256` unless an upload or avatar just made is about to be recorded with
    /// it (filesQueue). True if the file went.
    @discardableResult
    func deleteBlob(_ sha256: [UInt8]) -> Bool {
        guard !inFlight.contains(sha256) else { return false }
        guard shared else {
            guard unlink(blobPath(sha256)) == 0 else { return false }
            FileVault.fsync(path: blobDirectory)
            return true
        }
        return deleteSharedBlob(sha256)
    }

    /// How recently a blob must have been made or reused (its mtime; `claimBlob`) to be kept
    /// whatever the rows say, when other nodes share the directory: longer than any node takes
    /// from claiming a blob to committing the row that serves it (one transaction, bounded by
    /// the store's operation timeout). A blob kept for this is reclaimed by a later sweep.
    static let sharedGrace: Double = 600

    /// Another node may be about to record a row serving this blob: it claimed the blob first
    /// (`claimBlob`: a fresh mtime, or a new blob if it is gone). The blob is first renamed
    /// away, atomically, so that a claim can no longer reach it by its name; if a claim touched
    /// it before, its mtime says so and it is put back; else it goes. A claim after the rename
    /// finds no blob and makes its own from its upload.
    private func deleteSharedBlob(_ sha256: [UInt8]) -> Bool {
        let path = blobPath(sha256)
        let doomed = blobDirectory + "/tmp-doomed-" + FileVault.hex(sha256) + "-\(UInt64.random(in: 0...UInt64.max))"
        guard rename(path, doomed) == 0 else { return false }
        var st = stat()
        let age = stat(doomed, &st) == 0 ? Date().timeIntervalSince1970 - Double(st.st_mtim.tv_sec) : 0
        guard age > Self.sharedGrace else {
            // Back under its name; a blob made meanwhile has the same bytes (named by them).
            rename(doomed, path)
            return false
        }
        unlink(doomed)
        FileVault.fsync(path: blobDirectory)
        return true
    }

    /// Makes sure blob `sha256` exists with a fresh mtime before a row is recorded with it:
    /// touched if it is there, else made from `source` by a hard link (filesQueue).
    func claimBlob(_ sha256: [UInt8], from source: String) throws {
        let blob = blobPath(sha256)
        if utimensat(AT_FDCWD, blob, nil, 0) == 0 { return }
        guard link(source, blob) == 0 || errno == EEXIST else { throw VaultError.io("link", errno) }
        // A link keeps the upload's mtime, which may be old (a finish retried long after).
        utimensat(AT_FDCWD, blob, nil, 0)
        FileVault.fsync(path: blobDirectory)
    }

    /// Every blob on disk, by content hash (the startup sweep's candidates).
    func blobHashes() -> [[UInt8]] {
        var names = (try? FileManager.default.contentsOfDirectory(atPath: blobDirectory)) ?? []
        // A node that died between renaming a blob away and deciding (deleteSharedBlob) left it
        // under this name: back under its own, for the rows to decide again.
        for name in names where name.hasPrefix("tmp-doomed-") {
            let hash = name.dropFirst("tmp-doomed-".count).prefix(64)
            if hash.count == 64, rename(blobDirectory + "/" + name, blobDirectory + "/" + hash) == 0 { names.append(String(hash)) }
        }
        return names.compactMap { name in
            guard name.utf8.count == 64 else { return nil }   // not "tmp-..." files
            var bytes: [UInt8] = []
            var i = name.startIndex
            while i < name.endIndex {
                let j = name.index(i, offsetBy: 2)
                guard let b = UInt8(name[i..<j], radix: 16) else { return nil }
                bytes.append(b)
                i = j
            }
            return bytes
        }
    }

    /// Writes an avatar's bytes as a blob by their hash (filesQueue) and lists it in flight.
    func storeBlob(_ bytes: [UInt8], tag: String) throws -> [UInt8] {
        let sha = ChatServer.sha256(bytes)
        let temp = blobDirectory + "/tmp-" + tag
        let fd = open(temp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw VaultError.io("create", errno) }
        let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        let e = errno
        Glibc.fsync(fd)
        close(fd)
        guard written == bytes.count else { unlink(temp); throw VaultError.io("write", e) }
        guard rename(temp, blobPath(sha)) == 0 else { let e = errno; unlink(temp); throw VaultError.io("rename", e) }
        FileVault.fsync(path: blobDirectory)
        inFlight.insert(sha)
        return sha
    }
}
