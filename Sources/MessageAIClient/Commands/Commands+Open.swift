import Foundation
import MessageAIProtocol

/// /open FILE-ID (or /open file ID|#SEQ): the file from the download cache (fetched first when
/// needed), handed to the system's opener under its own name, and for an image in a terminal
/// that shows images, the image itself, larger than the thumbnail.
extension FileCommands {
    static func openFile(_ inv: Invocation, _ key: String) {
        guard let a = attachment(inv, key) else { return }
        let client = inv.client
        client.fetch(a) { result in
            switch result {
            case .failure(let e): inv.fail(e)
            case .success(let cache):
                let path = namedCopy(cache, a)
                showImage(client, a, path) {
                    guard let opener = Opener.program() else {
                        let wanted = ProcessInfo.processInfo.environment["OPENER"] ?? ""
                        inv.fail("no_opener", (wanted.isEmpty ? "no program to open files here (install xdg-utils, or set OPENER to a program)"
                                                              : "OPENER names no program found on PATH (it takes one program, not a command line)")
                                              + "; the file is at \(path)")
                        return
                    }
                    guard Opener.run(opener.path, path, exited: { status in
                        // Reported late: the command has finished once the opener started.
                        if status != 0 {
                            inv.output.error(command: "/open", ClientError("opener_failed", "\(opener.name) could not open \(path) (exit status \(status))"))
                        }
                    }) else {
                        inv.fail("no_opener", "cannot start \(opener.path); the file is at \(path)"); return
                    }
                    inv.succeed(FileEvent.opened(a, path: path, opener: opener.name))
                }
            }
        }
    }

    /// The cached file under its own (made safe) name, so the opener picks the right viewer by
    /// its extension and shows a real name: a copy `files/open/ID/NAME`, made once; the cache
    /// itself if that fails. A copy, not a hard link: a viewer that edits in place must not
    /// change the verified cache that /save reads.
    static func namedCopy(_ cache: String, _ a: StoredAttachment) -> String {
        let dir = (cache as NSString).deletingLastPathComponent + "/open/" + a.fileIDHex
        let name = FileNames.safe(a.attachment.name).replacingOccurrences(of: "/", with: "_")
        let path = dir + "/" + (name.isEmpty || name == "." || name == ".." ? a.fileIDHex : name)
        if FileManager.default.fileExists(atPath: path) { return path }
        do {
            try AtomicFile.makeDirectory(dir)
            try FileManager.default.copyItem(atPath: cache, toPath: path)
            return path
        } catch {
            return cache
        }
    }

    /// Draws the full image (decoded off the main queue: a large photo takes a moment), then `done`.
    static func showImage(_ client: Client, _ a: StoredAttachment, _ path: String, _ done: @escaping () -> Void) {
        let mode = client.previewMode
        guard mode != .none, a.attachment.width > 0 else { done(); return }
        let cells = ImagePreview.fullCells()
        DispatchQueue.global().async {
            let art = ImagePreview.render(file: path, maxColumns: cells.columns, maxRows: cells.rows, mode: mode)
            DispatchQueue.main.async {
                if let art { client.output.drawImage(art) }
                done()
            }
        }
    }
}
