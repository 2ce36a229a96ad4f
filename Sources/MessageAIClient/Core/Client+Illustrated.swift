import Foundation
import MessageAIProtocol

/// Message lines printed in a batch (the catch-up after a sync, the recap on start and on
/// /open, /catchup's mentions) with each image's thumbnail under its line, as the live view and
/// /history draw them. Thumbnails that a sync left out are fetched (and kept) first when online;
/// offline, what the cache holds is drawn. Without a terminal that shows images (--json, piped,
/// TERM=dumb, /set preview off) nothing is fetched or drawn: the line's `[file: NAME (SIZE)]`
/// text is the fallback.
extension Client {
    /// A message by conversation and seq.
    struct MessageKey: Hashable {
        var conversationID: UInt64
        var seq: UInt64
    }

    /// The image attachments of `keys` held in the store, thumbnails filled in where they
    /// could be had; `done` at once with none when previews are off.
    func images(of keys: [MessageKey], _ done: @escaping ([MessageKey: Attachment]) -> Void) {
        guard previewMode != .none, let store, !keys.isEmpty else { done([:]); return }
        let held = keys.compactMap { k in
            (try? store.attachments(in: k.conversationID, seqs: k.seq...k.seq))?.first { $0.attachment.width > 0 }
        }
        fetchThumbnails(held) { filled in
            done(Dictionary(filled.map { (MessageKey(conversationID: $0.conversationID, seq: $0.seq), $0.attachment) },
                            uniquingKeysWith: { a, _ in a }))
        }
    }

    /// Writes `lines` through `emit` in pieces, the thumbnail of `images[i]` drawn under line
    /// i; returns the lines after the last drawing, for the command's own answer. With no
    /// drawing (previews off, nothing decodes), all of `lines` come back and nothing is written.
    func illustrate(_ lines: [String], images: [Int: Attachment], emit: (String) -> Void) -> [String] {
        var pending: [String] = []
        for (i, line) in lines.enumerated() {
            pending.append(line)
            if let a = images[i], let art = thumbnailArt(a) {
                emit(pending.joined(separator: "\n"))
                output.drawImage(art)
                pending = []
            }
        }
        return pending
    }
}
