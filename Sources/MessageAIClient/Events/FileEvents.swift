import Foundation
import MessageAIProtocol

/// Files (issue 11): queued, transfer progress, uploaded, arrived on a message, listed, saved.
/// Names from others reach the terminal only through `FileNames.safe` (no escape codes or
/// bidirectional overrides); JSON carries the name as sent and its safe form.
public enum FileEvent: ClientEvent {
    /// /send-file wrote the entry to the outbox ("state" sending, like a text message).
    case queued(OutboxEntry, OutboxFile)
    /// Bytes moved so far of an upload or download: JSON only (the terminal's prompt shows it).
    case progress(direction: String, name: String, bytes: UInt64, size: UInt64, clientID: String?)
    /// The server holds the whole file, verified; its SEND is next.
    case uploaded(OutboxEntry, OutboxFile, fileID: [UInt8])
    /// A message that arrived carries this attachment: what to type to get it.
    case arrived(ChatMessage, Attachment)
    /// A row of /files.
    case listed(StoredAttachment, cached: Bool)
    /// /save wrote the file to `path`.
    case saved(StoredAttachment, path: String)
    /// /open handed the cached file at `path` to `opener`.
    case opened(StoredAttachment, path: String, opener: String)

    public var type: String {
        switch self {
        case .queued: return "state"
        case .progress: return "progress"
        case .uploaded, .listed: return "file"
        case .arrived: return "attachment"
        case .saved: return "saved"
        case .opened: return "opened"
        }
    }

    public var jsonFields: [String: Any] {
        switch self {
        case let .queued(e, f):
            return ["conversation_id": e.conversationID, "client_id": e.clientID, "seq": 0, "state": "sending",
                    "text": Attachment(fileID: [], name: f.name, size: f.size, caption: e.text).fallbackText]
        case let .progress(direction, name, bytes, size, clientID):
            var out: [String: Any] = ["direction": direction, "name": name, "bytes": bytes, "size": size]
            if let clientID { out["client_id"] = clientID }
            return out
        case let .uploaded(e, f, fileID):
            return ["direction": "upload", "client_id": e.clientID, "name": f.name, "size": f.size, "file_id": Hex.encode(fileID)]
        case let .arrived(m, a):
            var out = FileEvent.fields(a)
            out["conversation_id"] = m.conversationID
            out["seq"] = m.seq
            out["sender"] = m.senderUsername
            return out
        case let .listed(s, cached):
            var out = FileEvent.fields(s.attachment)
            out["conversation_id"] = s.conversationID
            out["seq"] = s.seq
            out["sender"] = s.sender
            out["cached"] = cached
            return out
        case let .saved(s, path):
            var out = FileEvent.fields(s.attachment)
            out["conversation_id"] = s.conversationID
            out["seq"] = s.seq
            out["path"] = path
            return out
        case let .opened(s, path, opener):
            var out = FileEvent.fields(s.attachment)
            out["conversation_id"] = s.conversationID
            out["seq"] = s.seq
            out["path"] = path
            out["opener"] = opener
            return out
        }
    }

    public var terminalLine: [Segment]? {
        switch self {
        case let .queued(_, f):
            return Segment.line("* queued \(FileNames.safe(f.name)) (\(Attachment.humanSize(f.size)))")
        case .progress:
            return nil
        case let .uploaded(_, f, _):
            return Segment.line("* uploaded \(FileNames.safe(f.name)) (\(Attachment.humanSize(f.size)))")
        case let .arrived(_, a):
            let id = Hex.encode(a.fileID).prefix(8)
            return Segment.line("  ↳ /save \(id) or /open \(id)  \(FileEvent.describe(a))")
        case let .listed(s, cached):
            let caption = s.attachment.caption.isEmpty ? "" : " — " + s.attachment.caption
            return Segment.line("#\(s.seq) \(s.fileIDHex.prefix(8)) \(FileEvent.describe(s.attachment)) from \(s.sender)"
                                + caption + (cached ? " [cached]" : ""))
        case let .saved(s, path):
            return Segment.line("saved \(FileNames.safe(s.attachment.name)) (\(Attachment.humanSize(s.attachment.size))) to \(path)")
        case let .opened(s, path, opener):
            return Segment.line("opened \(FileNames.safe(s.attachment.name)) (\(Attachment.humanSize(s.attachment.size))) with \(opener): \(path)")
        }
    }

    /// "photo.png (1.2 MiB, image 800×600)"
    static func describe(_ a: Attachment) -> String {
        let image = a.width > 0 ? ", image \(a.width)×\(a.height)" : ""
        return "\(FileNames.safe(a.name)) (\(Attachment.humanSize(a.size))\(image))"
    }

    static func fields(_ a: Attachment) -> [String: Any] {
        ["file_id": Hex.encode(a.fileID), "name": a.name, "safe_name": FileNames.safe(a.name), "size": a.size,
         "media_type": a.mediaType, "caption": a.caption, "width": a.width, "height": a.height,
         "thumbnail_bytes": a.thumbnail.count]
    }
}
