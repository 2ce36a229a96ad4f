import Crypto
import Foundation
import MessageAIProtocol

/// Thumbnails in the terminal: drawn under a message's line when it arrives (a live MESSAGE
/// carries its thumbnail) and in /history. History pages and sync batches leave thumbnails
/// out, so they are fetched (FILE_GET thumbnail) and kept in the attachment's record in the
/// local store: /history shows them offline afterwards.
extension Client {
    /// The drawing of `a`'s thumbnail for this terminal, or nil (previews off, not an image,
    /// no thumbnail held, or it does not decode).
    func thumbnailArt(_ a: Attachment) -> String? {
        guard previewMode != .none, !a.thumbnail.isEmpty else { return nil }
        let cells = ImagePreview.thumbnailCells()
        return ImagePreview.render(jpeg: a.thumbnail, maxColumns: cells.columns, maxRows: cells.rows, mode: previewMode)
    }

    /// Draws `a`'s thumbnail above the prompt, after the line that announced it.
    func showThumbnail(_ a: Attachment) {
        if let art = thumbnailArt(a) { output.drawImage(art) }
    }

    /// Fetches the missing thumbnails of `list` one after another and stores each; `done` gets
    /// the list with what arrived filled in. Offline, with previews off or nothing missing, at
    /// once. A thumbnail that fails (gone, refused) is skipped: the message still shows.
    func fetchThumbnails(_ list: [StoredAttachment], _ done: @escaping ([StoredAttachment]) -> Void) {
        var result = list
        let missing = list.indices.filter { list[$0].attachment.width > 0 && list[$0].attachment.thumbnail.isEmpty }
        guard previewMode != .none, authenticated, !missing.isEmpty else { done(list); return }
        var remaining = missing[...]
        func next() {
            guard let i = remaining.popFirst() else { done(result); return }
            fetchThumbnail(result[i].attachment.fileID) { [weak self] bytes in
                if let bytes, let self {
                    result[i].attachment.thumbnail = bytes
                    try? self.store?.updateAttachment(result[i])
                }
                next()
            }
        }
        next()
    }

    /// One thumbnail, by offset until whole, checked against the server's SHA-256; nil on
    /// any failure.
    func fetchThumbnail(_ fileID: [UInt8], _ done: @escaping ([UInt8]?) -> Void) {
        var have: [UInt8] = []
        func next() {
            link.request(FileGet(fileID: fileID, offset: UInt64(have.count), thumbnail: true)) { result in
                guard case .success(let f) = result, f.type == .fileData, let d = try? f.decode(FileData.self),
                      d.offset == UInt64(have.count), d.size <= Client.thumbnailLimit else { done(nil); return true }
                have += d.data
                if UInt64(have.count) < d.size && !d.data.isEmpty { next(); return true }
                done(UInt64(have.count) == d.size && Array(SHA256.hash(data: have)) == d.sha256 ? have : nil)
                return true
            }
        }
        next()
    }

    /// The largest thumbnail taken: the server makes ~320 px JPEGs of tens of KiB.
    static let thumbnailLimit: UInt64 = 1 << 20

    /// After a sync: the thumbnails of the newest images it brought, so /history shows them
    /// offline later. Bounded, so a first sync of a long history does not fetch thousands.
    func prefetchThumbnails(of messages: [ChatMessage]) {
        guard previewMode != .none, let store else { return }
        var wanted: [StoredAttachment] = []
        for m in messages.reversed() where wanted.count < Client.prefetchLimit {
            guard let a = m.attachment, a.width > 0, a.thumbnail.isEmpty,
                  let held = try? store.attachments(in: m.conversationID, seqs: m.seq...m.seq).first,
                  held.attachment.thumbnail.isEmpty else { continue }
            wanted.append(held)
        }
        fetchThumbnails(wanted) { _ in }
    }

    static let prefetchLimit = 50
}
