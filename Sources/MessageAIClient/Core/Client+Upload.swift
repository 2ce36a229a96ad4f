import Foundation
import MessageAIProtocol

/// One upload, pipelined: several FILE_CHUNKs may await their answers at once (`window`), but
/// the next chunk is written into the connection's output buffer only once the previous one
/// has left it for the socket. A SEND (or anything else) queued during an upload therefore
/// waits behind at most one chunk in this client, and the upload no longer waits one round
/// trip per chunk. The server writes only a chunk at the offset it holds and answers each with
/// its offset, so a chunk it refused (after a reconnect, a restart) is sent again from there.
final class Upload {
    struct Source {
        var path: String
        var name: String
        var size: UInt64
        var mediaType: String
        var sha256: [UInt8]
    }

    /// Chunks awaiting an answer at most. Measured (BENCHMARKS.md, "Files"): 4 × 256 KiB keeps
    /// loopback busy; more buys nothing and lengthens what a SEND may queue behind in the server.
    static let window = 4

    let source: Source
    private unowned let client: Client
    private let onFileID: ([UInt8]) -> Void
    private let onProgress: (UInt64) -> Void
    private var done: ((Result<[UInt8], ClientError>) -> Void)?
    private var fileID: [UInt8] = []
    private var chunkSize: UInt64 = 0
    /// The next byte to send, and chunks sent but not answered.
    private var next: UInt64 = 0
    private var inFlight = 0
    /// The server refused a chunk's offset: go on from its offset once the others are answered.
    private var resyncTo: UInt64?
    private var waitingForDrain = false

    init(_ source: Source, client: Client, onFileID: @escaping ([UInt8]) -> Void, onProgress: @escaping (UInt64) -> Void,
         done: @escaping (Result<[UInt8], ClientError>) -> Void) {
        self.source = source; self.client = client; self.onFileID = onFileID; self.onProgress = onProgress; self.done = done
    }

    func start() {
        let s = source
        client.link.request(FileAnnounce(name: s.name, size: s.size, mediaType: s.mediaType, sha256: s.sha256)) { [self] in
            answered($0, expected: nil)
            return true
        }
    }

    private func finish(_ result: Result<[UInt8], ClientError>) {
        guard let d = done else { return }
        done = nil
        d(result)
    }

    /// `expected`: for a chunk's answer, the offset after that chunk.
    private func answered(_ result: Result<Frame, ClientError>, expected: UInt64?) {
        if expected != nil { inFlight -= 1 }
        guard done != nil else { return }
        let u: FileUpload
        switch result {
        case .failure(let e): finish(.failure(e)); return
        case .success(let f) where f.type == .error:
            finish(.failure((try? f.decode(ErrorFrame.self)).map(ClientError.init) ?? ClientError("error", "upload refused"))); return
        case .success(let f):
            guard let decoded = try? f.decode(FileUpload.self) else { finish(.failure(ClientError("bad_answer", "unexpected \(f.type)"))); return }
            u = decoded
        }
        if fileID != u.fileID { fileID = u.fileID; onFileID(u.fileID) }
        chunkSize = max(1, u.chunkSize)
        onProgress(u.offset)
        if u.complete { finish(.success(u.fileID)); return }
        if let expected {
            if u.offset != expected, resyncTo.map({ u.offset < $0 }) ?? true { resyncTo = u.offset }
        } else {
            next = u.offset
        }
        guard inFlight == 0 || resyncTo == nil else { return }
        if let r = resyncTo { next = r; resyncTo = nil }
        if u.offset >= source.size && inFlight == 0 {
            // The server is checking the whole file: ask again shortly.
            DispatchQueue.main.asyncAfter(deadline: .now() + 0.2) { [self] in
                client.link.request(FileStatus(fileID: fileID)) { [self] in answered($0, expected: nil); return true }
            }
            return
        }
        pump()
    }

    /// Sends chunks while the window has room and the previous chunk has left the buffer.
    private func pump() {
        while done != nil, resyncTo == nil, inFlight < Upload.window, next < source.size {
            guard client.link.outputEmpty else {
                if !waitingForDrain {
                    waitingForDrain = true
                    client.link.whenOutputDrained { [self] in waitingForDrain = false; pump() }
                }
                return
            }
            let length = Int(min(chunkSize, source.size - next))
            guard let data = Client.read(source.path, offset: next, length: length), data.count == length else {
                finish(.failure(ClientError("storage", "cannot read \(source.path)"))); return
            }
            inFlight += 1
            let end = next + UInt64(length)
            client.link.request(FileChunk(fileID: fileID, offset: next, data: data)) { [self] in answered($0, expected: end); return true }
            next = end
        }
    }
}
