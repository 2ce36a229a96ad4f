import XCTest
@testable import MessageAIServer
import MessageAIProtocol

/// Changes, contacts and blocking, files and the quota's bookkeeping, and assistant items, one
/// body each on every backend (`StoreBackendTestCase`): what the handlers rely on from any store.
final class StoreSharedBehaviourTests: StoreBackendTestCase {
    /// Reactions, edits and deletes take positions from the messages' sequence; a change that
    /// changes nothing takes none; a delete empties the text for every reader and search, and
    /// the work it leaves owed (`runDeferred(.purgeDeleted)`) runs to its end.
    func testChangesShareTheSequenceAndADeleteIsGoneEverywhere() async {
        await forEachBackend { store, backend in
            let ann = try await store.addUser("ann"), ben = try await store.addUser("ben")
            let dm = try await store.directConversation(ann.id, ben.id, now: 1).0
            _ = try await store.post(ann, dm.id, "zanzibar plans for friday", time: 10)
            func change(_ action: ChangeAction, by user: UserRecord, emoji: String = "", text: String = "",
                        id: [UInt8] = newClientID()) async throws -> ChangeOutcome {
                try await store.apply(NewChange(conversationID: dm.id, actorID: user.id, clientID: id, targetSeq: 1, action: action,
                                                emoji: emoji, text: text, serverTime: 20))
            }
            let reactID = newClientID()
            guard case .stored(let react) = try await change(.react, by: ben, emoji: "👍🏽", id: reactID) else { return XCTFail("\(backend)") }
            XCTAssertEqual([react.seq, react.action], [2, ChangeAction.react.rawValue], "\(backend)")
            let again = try await change(.react, by: ben, emoji: "👍🏽")
            XCTAssertEqual(again, .unchanged, "\(backend): a reaction already there")
            let resent = try await store.change(actorID: ben.id, clientID: reactID)
            XCTAssertEqual(resent?.seq, 2)
            let reused = try await change(.unreact, by: ben, emoji: "👍🏽", id: reactID)
            XCTAssertEqual(reused, .clientIDReused, "\(backend)")
            let page = try await store.withReactions(try await store.messages(conversationID: dm.id, afterSeq: 0, limit: 10))
            XCTAssertEqual(page.first?.reactions.map(\.emoji), ["👍🏽"], "\(backend)")
            guard case .stored(let edit) = try await change(.edit, by: ann, text: "zanzibar plans for monday") else { return XCTFail() }
            XCTAssertEqual(edit.seq, 3, "\(backend): the unchanged change took no seq")
            let next = try await store.post(ben, dm.id, "ok", time: 30)
            XCTAssertEqual(next.message.seq, 4, "messages and changes share one sequence")
            let byNewWord = try await store.search(userID: ben.id, query: "monday", conversationID: nil, offset: 0, limit: 10)
            let byOldWord = try await store.search(userID: ben.id, query: "friday", conversationID: nil, offset: 0, limit: 10)
            XCTAssertEqual([byNewWord.map(\.seq), byOldWord.map(\.seq)], [[1], []], "\(backend): search follows the edit")

            guard case .stored(let delete) = try await change(.delete, by: ann) else { return XCTFail() }
            XCTAssertEqual(delete.seq, 5)
            while try await store.runDeferred(.purgeDeleted) {}
            let deleted = try await store.message(conversationID: dm.id, seq: 1)
            XCTAssertEqual(deleted?.deleted, true, "\(backend)")
            XCTAssertEqual(deleted?.text, "")
            let found = try await store.search(userID: ben.id, query: "zanzibar", conversationID: nil, offset: 0, limit: 10)
            XCTAssertEqual(found, [], "\(backend): the deleted text is in no search")
            let synced = try await store.changes(conversationID: dm.id, afterSeq: 0, limit: 10)
            XCTAssertEqual(synced.map(\.seq), [2, 3, 5], "\(backend)")
            XCTAssertEqual(synced[1].text, "", "\(backend): an edit carries the text as it is now (deleted)")
            let deletedMessage = try XCTUnwrap(deleted)
            let reactionsLeft = try await store.withReactions([deletedMessage])
            XCTAssertEqual(reactionsLeft.first?.reactions, [], "\(backend)")
        }
    }

    /// Contacts by consent, declines, blocks, and what they mean for presence and membership.
    func testContactsAndBlocking() async {
        await forEachBackend { store, backend in
            let ann = try await store.addUser("ann"), ben = try await store.addUser("ben"), cal = try await store.addUser("cal")
            let asked = try await store.addContact(owner: ann.id, contact: ben.id, now: 1)
            let askedTwice = try await store.addContact(owner: ann.id, contact: ben.id, now: 2)
            XCTAssertEqual([asked, askedTwice], [true, false], "\(backend)")
            let pending = try await store.contactLink(ben.id, ann.id)
            XCTAssertEqual(pending, ContactLink(theyWant: true), "\(backend)")
            let noAudience = try await store.presenceAudience(userID: ann.id)
            XCTAssertEqual(noAudience, [], "\(backend): a request shares no presence")
            try await store.addContact(owner: ben.id, contact: ann.id, now: 3)
            let accepted = try await store.contactLink(ann.id, ben.id)
            XCTAssertTrue(accepted.accepted, "\(backend)")
            let audience = try await store.presenceAudience(userID: ann.id)
            XCTAssertEqual(audience, [ben.id], "\(backend)")
            let contacts = try await store.contacts(owner: ann.id).map(\.username)
            XCTAssertEqual(contacts, ["ben"])

            try await store.addContact(owner: cal.id, contact: ann.id, now: 4)
            let declined = try await store.declineContact(owner: ann.id, requester: cal.id)
            XCTAssertTrue(declined, "\(backend)")
            let calLink = try await store.contactLink(ann.id, cal.id)
            XCTAssertTrue(calLink.declinedByMe, "\(backend)")

            let (dm, _) = try await store.directConversation(ann.id, ben.id, now: 5)
            let blocked = try await store.block(blocker: ben.id, blocked: ann.id, now: 6)
            XCTAssertTrue(blocked, "\(backend)")
            let standing = try await store.membership(conversationID: dm.id, userID: ann.id)
            XCTAssertEqual(standing?.blockedPartner, ben.id, "\(backend): SEND's check sees the block")
            let afterBlock = try await store.presenceAudience(userID: ann.id)
            XCTAssertEqual(afterBlock, [], "\(backend): a block hides presence")
            let blockers = try await store.blockers(of: ann.id, among: [ben.id, cal.id])
            XCTAssertEqual(blockers, [ben.id])
            let list = try await store.blockedUsers(blocker: ben.id).map(\.username)
            XCTAssertEqual(list, ["ann"])
            let unblocked = try await store.unblock(blocker: ben.id, blocked: ann.id)
            XCTAssertTrue(unblocked)
            let free = try await store.membership(conversationID: dm.id, userID: ann.id)
            XCTAssertEqual(free, Membership(pending: false, blockedPartner: nil), "\(backend)")
            let outsider = try await store.membership(conversationID: dm.id, userID: cal.id)
            XCTAssertNil(outsider, "\(backend): not a member")
        }
    }

    /// A file's charge is what it takes (announced while partial, stored once complete), given
    /// back when it goes; a file referred to by a message is kept and readable by the members.
    func testFileUsageFollowsTheFilesLife() async {
        await forEachBackend { store, backend in
            let files = try XCTUnwrap(store.files, "\(backend)")
            let ann = try await store.addUser("ann"), ben = try await store.addUser("ben"), cal = try await store.addUser("cal")
            let dm = try await store.directConversation(ann.id, ben.id, now: 1).0
            let content: [UInt8] = Array(repeating: 7, count: 32)
            let a = FileRecord(id: Array(repeating: 1, count: 16), ownerID: ann.id, name: "photo 日本.jpg", mediaType: "image/jpeg",
                               uploadSize: 500, uploadSHA256: content, createdAt: 1)
            let b = FileRecord(id: Array(repeating: 2, count: 16), ownerID: ann.id, name: "b.bin", mediaType: "application/octet-stream",
                               uploadSize: 300, uploadSHA256: Array(repeating: 8, count: 32), createdAt: 2)
            try await files.createFile(a)
            try await files.createFile(b)
            let partial = try await files.fileUsage(ownerID: ann.id)
            XCTAssertTrue(partial == (800, 2), "\(backend): \(partial)")
            try await files.completeFile(id: a.id, StoredContent(size: 420, sha256: content, mediaType: "image/jpeg", width: 640, height: 480))
            let complete = try await files.fileUsage(ownerID: ann.id)
            XCTAssertTrue(complete == (720, 1), "\(backend): \(complete)")
            let fetched = try await files.file(id: a.id)
            let stored = try XCTUnwrap(fetched)
            XCTAssertEqual([stored.size, stored.width], [420, 640])
            let dedupe = try await files.completeFile(uploadSHA256: content, uploadSize: 500)
            XCTAssertEqual(dedupe?.id, a.id, "\(backend)")
            let partials = try await files.partialFiles().map(\.id)
            XCTAssertEqual(partials, [b.id])

            var attachment = stored.attachment
            attachment.caption = "the view"
            let sent = try await store.append([NewMessage(conversationID: dm.id, senderID: ann.id, clientID: newClientID(), text: "pic",
                                                          serverTime: 3, attachment: attachment)])[0].message
            let readBack = try await store.message(conversationID: dm.id, seq: sent.seq)
            XCTAssertEqual(readBack?.attachment, attachment, "\(backend): the attachment as sent, caption included")
            let reads = [try await files.canRead(fileID: a.id, userID: ben.id), try await files.canRead(fileID: a.id, userID: cal.id)]
            XCTAssertEqual(reads, [true, false], "\(backend)")
            let released = try await files.releaseFile(id: a.id)
            XCTAssertFalse(released, "\(backend): a message still refers to it")
            try await files.deleteFile(id: b.id)
            let afterDelete = try await files.fileUsage(ownerID: ann.id)
            XCTAssertTrue(afterDelete == (420, 0), "\(backend): \(afterDelete)")
            let served = try await files.isServed(sha256: content)
            XCTAssertTrue(served)
        }
    }

    /// Items stored once per message and place, every change a new rev, visible to members only.
    func testAssistantItemsAndRevs() async {
        await forEachBackend { store, backend in
            let assistant = try XCTUnwrap(store.assistant, "\(backend)")
            let ann = try await store.addUser("ann"), ben = try await store.addUser("ben"), eve = try await store.addUser("eve")
            let dm = try await store.directConversation(ann.id, ben.id, now: 1).0
            _ = try await store.post(ann, dm.id, "ben, please tag the branch by 5pm")
            let item = NewAssistItem(conversationID: dm.id, seq: 1, kind: .action, ordinal: 0, text: "tag the branch",
                                     who: "ben", due: "5pm", senderID: ann.id, engine: "local", engineVersion: "0.1.0")
            let first = try await assistant.insertItems([item], now: 2)
            XCTAssertEqual(first.map(\.rev), [1], "\(backend)")
            XCTAssertEqual(first.first?.from, "ann")
            let second = try await assistant.insertItems([item], now: 3)
            XCTAssertEqual(second, [], "\(backend): a second extraction of the same message stores nothing")
            let id = first[0].itemID
            let bens = try await assistant.items(userID: ben.id, conversationID: nil, filter: .mine, kind: nil, limit: 10).map(\.itemID)
            XCTAssertEqual(bens, [id])
            let eves = try await assistant.item(id: id, visibleTo: eve.id)
            XCTAssertNil(eves, "\(backend): not a member")
            let done = try await assistant.setItemDone(id: id, by: ben.id, done: true, now: 5)
            XCTAssertTrue(done.changed)
            XCTAssertEqual([done.item.rev, done.item.doneAt], [2, 5], "\(backend)")
            XCTAssertEqual(done.item.doneBy, "ben")
            let twice = try await assistant.setItemDone(id: id, by: ann.id, done: true, now: 6)
            XCTAssertFalse(twice.changed, "\(backend)")
            let changed = try await assistant.itemsChanged(userID: ben.id, sinceRev: 1, limit: 10).map(\.rev)
            XCTAssertEqual(changed, [2])
            let cursor = try await assistant.assistantCursor()
            XCTAssertEqual(cursor, 2, "\(backend)")
        }
    }
}
