import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Turning a whole partial upload into a served blob. Runs off the hub (hashing 100 MiB takes
/// ~0.3 s, an image a little more); the partial stays in place until the database says the file
/// is complete, so a crash anywhere in here leaves the upload resumable (at its full length: the
/// next FILE_STATUS finishes it again).
extension FileVault {
    enum Finished {
        case stored(StoredContent)
        case hashMismatch
        case imageTooLarge(pixels: UInt64)
        case failed(String)
    }

    func finish(_ file: FileRecord, maxImagePixels: UInt64) -> Finished {
        let partial = partialPath(file.id)
        FileVault.fsync(path: partial)
        let upload: (sha256: [UInt8], size: UInt64)
        do { upload = try FileVault.digest(path: partial) } catch { return .failed("\(error)") }
        guard upload.sha256 == file.uploadSHA256, upload.size == file.uploadSize else { return .hashMismatch }
        if let image = ImageProcessor.header(path: partial) {
            let pixels = UInt64(image.width) * UInt64(image.height)
            guard pixels <= maxImagePixels else { return .imageTooLarge(pixels: pixels) }
            do { return .stored(try storeImage(file, image)) } catch { return .failed("\(error)") }
        }
        // Not an image: the announced type stands, except that nothing unrecognised may pass
        // for an image (a client would try to decode and preview it).
        let type = file.mediaType.lowercased().hasPrefix("image/") || file.mediaType.isEmpty
            ? "application/octet-stream" : file.mediaType
        do { try claimBlob(upload.sha256, from: partial) } catch { return .failed("\(error)") }
        inFlight.insert(upload.sha256)
        return .stored(StoredContent(size: upload.size, sha256: upload.sha256, mediaType: type))
    }

    /// Cleans the image into a temporary file, then renames it to its blob by its own hash.
    private func storeImage(_ file: FileRecord, _ image: ImageProcessor.Header) throws -> StoredContent {
        let temp = blobDirectory + "/tmp-" + FileVault.hex(file.id) + image.format.suffix
        defer { unlink(temp) }
        try ImageProcessor.clean(partialPath(file.id), to: temp)
        FileVault.fsync(path: temp)
        let served = try FileVault.digest(path: temp)
        guard rename(temp, blobPath(served.sha256)) == 0 else { throw VaultError.io("rename", errno) }
        FileVault.fsync(path: blobDirectory)
        inFlight.insert(served.sha256)
        let upright = ImageProcessor.header(path: blobPath(served.sha256))
        let thumbnail = (try? ImageProcessor.thumbnail(blobPath(served.sha256))) ?? []
        return StoredContent(size: served.size, sha256: served.sha256, mediaType: image.format.mediaType,
                             width: UInt64(upright?.width ?? image.width), height: UInt64(upright?.height ?? image.height),
                             thumbnail: thumbnail)
    }

    /// Deletes partial uploads whose file was last written longer ago than `age` seconds, and
    /// partial files no row knows (a crash between deleting the row and the file).
    func expire(_ partials: [FileRecord], olderThan age: Double, now: Date = Date()) -> [[UInt8]] {
        var expired: [[UInt8]] = []
        for file in partials {
            var st = stat()
            let path = partialPath(file.id)
            let modified = stat(path, &st) == 0 ? Double(st.st_mtim.tv_sec) : Double(file.createdAt) / 1000
            if now.timeIntervalSince1970 - modified > age {
                unlink(path)
                expired.append(file.id)
            }
        }
        let known = Set(partials.map { FileVault.hex($0.id) })
        for name in (try? FileManager.default.contentsOfDirectory(atPath: partialDirectory)) ?? [] where !known.contains(name) {
            // Another node makes the partial file just before its row: only an old one is an orphan.
            var st = stat()
            let path = partialDirectory + "/" + name
            if shared, stat(path, &st) == 0, now.timeIntervalSince1970 - Double(st.st_mtim.tv_sec) < Self.sharedGrace { continue }
            unlink(path)
        }
        return expired
    }
}
