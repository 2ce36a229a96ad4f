import Foundation
import MessageAIProtocol

/// /send-file, /files, /save
enum FileCommands {
    static let specs: [CommandSpec] = [
        CommandSpec("/send-file", "/send-file PATH [CAPTION...]",
                    "send a file (images too) with an optional caption; queued offline, resumed after a restart",
                    args: 1...Int.max, run: sendFile),
        CommandSpec("/files", "/files", "the files of the current conversation (works offline)", sync: true, run: files),
        CommandSpec("/save", "/save ID|#SEQ [PATH]",
                    "download a file (by the id /files shows, or its message) to PATH or the current directory; cached for offline use",
                    sync: true, args: 1...2, run: save),
    ]

    static func sendFile(_ inv: Invocation) {
        let path = (inv.args[0] as NSString).expandingTildeInPath
        switch inv.client.queueFile(path, caption: inv.rest(from: 1)) {
        case .success: inv.succeed("ok", [:], plain: nil)
        case .failure(let e): inv.fail(e)
        }
    }

    static func files(_ inv: Invocation) {
        guard let cid = MessageCommands.currentConversation(inv), let store = inv.client.store,
              let all = try? store.attachments(in: cid) else { return }
        if all.isEmpty { inv.succeed("ok", ["count": 0], plain: "no files in this conversation"); return }
        for a in all {
            let cached = inv.client.cachePath(a.fileIDHex).map { FileManager.default.fileExists(atPath: $0) } ?? false
            inv.output.emit(FileEvent.listed(a, cached: cached))
        }
        inv.succeed("ok", ["count": all.count], plain: nil)
    }

    /// The one attachment `key` (a file id prefix or #SEQ) names, or nil after failing `inv`.
    static func attachment(_ inv: Invocation, _ key: String) -> StoredAttachment? {
        guard let store = inv.client.store, let found = try? store.attachments(matching: key, conversationID: inv.client.currentConversation) else {
            inv.fail(.notLoggedIn); return nil
        }
        guard found.count == 1, let a = found.first else {
            inv.fail(found.isEmpty ? ClientError("not_found", "no file \(key) here: /files lists them")
                                   : ClientError("ambiguous", "\(key) matches \(found.count) files: give more of the id"))
            return nil
        }
        return a
    }

    static func save(_ inv: Invocation) {
        guard let a = attachment(inv, inv.args[0]) else { return }
        let safe = FileNames.safe(a.attachment.name)
        let destination: String
        if inv.args.count == 2 {
            let given = (inv.args[1] as NSString).expandingTildeInPath
            var isDir: ObjCBool = false
            if FileManager.default.fileExists(atPath: given, isDirectory: &isDir) {
                guard isDir.boolValue else { inv.fail("exists", "\(given) exists; /save does not overwrite"); return }
                destination = FileNames.unused(safe, in: given)
            } else {
                destination = given
            }
        } else {
            destination = FileNames.unused(safe, in: FileManager.default.currentDirectoryPath)
        }
        inv.client.fetch(a) { result in
            switch result {
            case .failure(let e): inv.fail(e)
            case .success(let cache):
                do { try FileManager.default.copyItem(atPath: cache, toPath: destination) } catch {
                    inv.fail("storage", "cannot write \(destination): \(error.localizedDescription)"); return
                }
                inv.succeed(FileEvent.saved(a, path: destination))
            }
        }
    }
}
