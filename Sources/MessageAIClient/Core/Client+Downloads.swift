import Crypto
import Foundation
import MessageAIProtocol

/// Downloads: by offset into `files/ID.part` in the account directory (resumable after a
/// restart), verified against the server's SHA-256, then renamed to `files/ID`, the cache
/// that /save reads offline.
extension Client {
    func cachePath(_ fileIDHex: String) -> String? { accountDirectory.map { $0 + "/files/" + fileIDHex } }

    /// The verified cached file, fetching it first when needed.
    func fetch(_ a: StoredAttachment, _ done: @escaping (Result<String, ClientError>) -> Void) {
        guard let cache = cachePath(a.fileIDHex) else { done(.failure(.notLoggedIn)); return }
        if FileManager.default.fileExists(atPath: cache) { done(.success(cache)); return }
        guard authenticated else { done(.failure(offlineError())); return }
        do { try AtomicFile.makeDirectory((cache as NSString).deletingLastPathComponent) } catch {
            done(.failure(ClientError("storage", "cannot make the download cache: \(error)"))); return
        }
        let part = cache + ".part"
        if !FileManager.default.fileExists(atPath: part) { _ = FileManager.default.createFile(atPath: part, contents: nil, attributes: [.posixPermissions: 0o600]) }
        let name = a.attachment.name
        var lastShown = -1
        func next() {
            let offset = (try? FileManager.default.attributesOfItem(atPath: part)[.size] as? UInt64) ?? 0
            link.request(FileGet(fileID: a.attachment.fileID, offset: offset)) { [weak self] result in
                guard let self else { return true }
                switch result {
                case .failure(let e): done(.failure(e))
                case .success(let f) where f.type == .error:
                    done(.failure((try? f.decode(ErrorFrame.self)).map(ClientError.init) ?? ClientError("error", "download refused")))
                case .success(let f):
                    guard let d = try? f.decode(FileData.self), d.offset == offset else {
                        done(.failure(ClientError("bad_answer", "unexpected \(f.type)"))); break
                    }
                    guard let h = FileHandle(forWritingAtPath: part) else { done(.failure(ClientError("storage", "cannot write \(part)"))); break }
                    h.seekToEndOfFile()
                    h.write(Data(d.data))
                    try? h.close()
                    let have = offset + UInt64(d.data.count)
                    let percent = d.size == 0 ? 100 : Int(have * 100 / d.size)
                    if percent != lastShown {
                        lastShown = percent
                        self.output.emit(FileEvent.progress(direction: "download", name: name, bytes: have, size: d.size, clientID: nil))
                        self.showProgress("download", name, have, d.size)
                    }
                    if have < d.size && !d.data.isEmpty { next(); break }
                    guard let got = try? Client.digest(path: part), got.sha256 == d.sha256, got.size == d.size else {
                        try? FileManager.default.removeItem(atPath: part)
                        done(.failure(ClientError("hash_mismatch", "the download of \(FileNames.safe(name)) does not have the server's SHA-256; it was discarded, try again")))
                        break
                    }
                    guard rename(part, cache) == 0 else { done(.failure(ClientError("storage", "cannot rename \(part)"))); break }
                    done(.success(cache))
                }
                return true
            }
        }
        next()
    }
}
