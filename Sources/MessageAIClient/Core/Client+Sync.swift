import Foundation
import MessageAIProtocol

extension Client {
    /// SYNC with the last seq held per conversation; batches arrive compressed. New messages
    /// are reported per conversation after SYNC_DONE (a summary line when there are many),
    /// then the outbox drains.
    func startSync() {
        guard let store else { return }
        synced = false
        resetGapFill()
        let positions = syncPositionsWithFloors()
        let usedFloors = (try? store.syncFloors()) ?? [:]
        var fresh: [UInt64: [ChatMessage]] = [:]
        var order: [UInt64] = []
        var images: [ChatMessage] = []
        link.request(SyncRequest(positions: positions), timeout: 60) { [weak self] result in
            guard let self, self.store === store else { return true }
            switch result {
            case .failure:
                return true
            case .success(let frame) where frame.type == .syncBatch:
                guard let batch = try? frame.decode(SyncBatch.self) else {
                    self.output.error(command: "", ClientError("bad_request", "an unreadable SYNC_BATCH from the server"))
                    return false
                }
                for c in batch.conversations { try? store.upsert(c) }
                let sentHere = Set(self.outbox?.entries.map(\.clientID) ?? [])
                let added = (try? store.insert(batch.messages, sentHere: sentHere)) ?? []
                images += added.filter { ($0.attachment?.width ?? 0) > 0 }
                for m in added where m.senderID != store.userID {
                    if fresh[m.conversationID] == nil { order.append(m.conversationID) }
                    fresh[m.conversationID, default: []].append(m)
                }
                for r in batch.receipts { self.applyReceipt(r, announce: false) }
                // After the batch's messages: a change may name one of them.
                for c in batch.changes { self.handleChange(c, live: false) }
                return false
            case .success(let frame) where frame.type == .syncDone:
                self.synced = true
                self.clearFloors(usedFloors)
                self.syncAssistant()
                // The catch-up's own thumbnails first, then the rest of the newest images.
                self.reportCatchUp(order.map { ($0, fresh[$0] ?? []) }) { [weak self] in
                    self?.releaseHeldAfterSync()
                    self?.prefetchThumbnails(of: images)
                }
                // Else after the assistant's items (syncAssistant).
                if !self.assistantOnline { self.considerAwayCatchUp() }
                self.pushMarkers()
                self.fetchPresence()
                self.drainOutbox()
                self.onChange()
                return true
            case .success(let frame):
                let e = (try? frame.decode(ErrorFrame.self)).map(ClientError.init) ?? ClientError("bad_request", "unexpected \(frame.type) during sync")
                self.output.error(command: "", ClientError(e.code, "sync failed: \(e.message)"))
                return true
            }
        }
    }

    /// After a catch-up: each new unread message, or one summary line per conversation when
    /// there are more than `summaryThreshold` (JSON mode always gets every message event).
    /// A shown message with an image gets its thumbnail under it (`Client+Illustrated`): the
    /// lines wait for the thumbnails the sync left out, then `then` runs.
    private func reportCatchUp(_ batches: [(UInt64, [ChatMessage])], then: @escaping () -> Void) {
        guard let store else { then(); return }
        var events: [(event: ClientEvent, image: MessageKey?)] = []
        var notices: [String] = []
        for (cid, messages) in batches {
            let read = (try? store.marker(cid, userID: store.userID))?.read ?? 0
            let unread = messages.filter { $0.seq > read }
            guard !unread.isEmpty else { continue }
            let name = conversationName(cid, fallback: unread.last?.senderUsername ?? "")
            let summary = unread.count > config.summaryThreshold
            for m in unread {
                var line = self.line(StoredMessage(m, sentHere: false), conversation: name)
                line.via = "sync"
                let image = !summary && (m.attachment?.width ?? 0) > 0 ? MessageKey(conversationID: cid, seq: m.seq) : nil
                events.append((summary ? MessageEvent.summarised(line) : MessageEvent.shown(line), image))
            }
            if summary {
                events.append((Notice("\(name): \(unread.count) new messages", conversation: cid), nil))
            }
            let muted = (try? store.isMuted(cid)) ?? false
            let mentioned = unread.contains { Mention.matches($0.text, session?.username ?? "") }
            if cid != currentConversation && (!muted || mentioned) { notices.append("\(name): \(unread.count) new") }
        }
        if let cur = currentConversation { markRead(cur) }
        if !notices.isEmpty { notifier.notify(notices.joined(separator: ", ")) }
        images(of: events.compactMap(\.image)) { [weak self] images in
            guard let self else { return }
            for (event, key) in events {
                output.emit(event)
                if let key, let a = images[key], let art = thumbnailArt(a) { output.drawImage(art) }
            }
            then()
        }
    }

    /// Tells the server what this client holds and has read, for every conversation. Markers
    /// set while offline reach the server here; it ignores ones that do not move forward.
    func pushMarkers() {
        guard let store, let ids = try? store.conversationIDs() else { return }
        for cid in ids {
            let last = (try? store.lastSeq(in: cid)) ?? 0
            guard last > 0 else { continue }
            let read = (try? store.marker(cid, userID: store.userID))?.read ?? 0
            _ = try? store.raiseMarker(cid, userID: store.userID, username: session?.username ?? "", delivered: last, read: 0)
            link.sendNoReply(Mark(conversationID: cid, deliveredSeq: last, readSeq: read))
        }
    }

    /// Marks everything held in a conversation as read (the user has it open). With
    /// `confirm`, waits for the server's OK so a script that exits right after is safe.
    func markRead(_ cid: UInt64, confirm: ((ClientError?) -> Void)? = nil) {
        guard let store, let last = try? store.lastSeq(in: cid), last > 0 else { confirm?(nil); return }
        _ = try? store.raiseMarker(cid, userID: store.userID, username: session?.username ?? "", delivered: last, read: last)
        onChange()
        guard authenticated else { confirm?(nil); return }
        let mark = Mark(conversationID: cid, deliveredSeq: last, readSeq: last)
        guard let confirm else { link.sendNoReply(mark); return }
        link.request(mark) { result in
            switch result {
            case .success(let f) where f.type == .error:
                confirm((try? f.decode(ErrorFrame.self)).map(ClientError.init))
            default:
                confirm(nil)
            }
            return true
        }
    }

    func conversationName(_ cid: UInt64, fallback: String) -> String {
        if let c = try? store?.conversation(cid) { return c.name }
        return fallback.isEmpty ? "#\(cid)" : fallback
    }
}
