import Crypto
import Foundation
import MessageAIProtocol

/// A SEND that carries a file: the upload it names, as the message will hold it.
extension ChatServer {
    /// The sender's complete upload named by a SEND, as the message will carry it.
    func sentAttachment(_ sent: Attachment, caption: String, _ ctx: RequestContext) async throws -> AttachmentRecord {
        guard ctx.peer.files, fileVault != nil, let files = store.files else {
            throw ServerError.capabilityNotAgreed(.files)
        }
        guard let file = try await files.file(id: sent.fileID), file.ownerID == ctx.user.id, file.complete else {
            throw ServerError.uploadIncomplete(for: .send)
        }
        var attachment = file.attachment
        attachment.caption = caption
        attachment.thumbnail = file.thumbnail
        return attachment
    }
}
