import Foundation
import MessageAIProtocol

/// The admin commands, run on the hub (they read who is online and close connections).
/// Reached only through the admin socket; each action is logged with the admin's uid and the
/// words typed, which never hold a secret (reset-password makes its password here).
extension ServerProcess {
    /// The admin commands, as `messageai-server admin --help` lists them.
    public static var adminUsage: String { ChatServer.adminUsage }
}

extension ChatServer {
    static let adminUsage = """
        usage: messageai-server admin [--data-dir DIR] COMMAND
          users list                 accounts: last seen, connections, state
          users show USER            one account and its sessions
          users disable USER         close its connections; refuse logins, resumes
          users enable USER          allow it again (saved sessions resume)
          users reset-password USER  new random password (shown once); ends sessions
          users delete USER --yes    free name and email; sent messages stay (deleted-ID)
          sessions list USER         sessions: device, created, last used, online
          sessions revoke ID         end one session; its connections close now
          sessions revoke-all USER   end every session of a user
          online                     who is connected, from where, since when
          stats                      users, conversations, messages, files, sizes
        """

    struct AdminFailure: Error {
        let message: String
        let status: Int32
    }

    /// Runs `words` for the admin `uid`; `send` gets the answer lines, the last one `.exit`.
    func runAdmin(_ words: [String], uid: UInt32, send: @escaping @Sendable (AdminLine) -> Void) {
        queue.async { [self] in
            onHub { [self] in
                do {
                    guard let admin = store.admin else { throw AdminFailure(message: "this store has no admin commands", status: AdminStatus.failed) }
                    logger.notice("admin (uid \(uid)): \(words.joined(separator: " "))")
                    try await adminCommand(words, admin, send: send)
                } catch let failure as AdminFailure {
                    send(.err(failure.message)); send(.exit(failure.status))
                } catch {
                    logger.error("admin (uid \(uid)): \(words.first ?? "") failed: \(error)")
                    send(.err("failed: \(error)")); send(.exit(AdminStatus.failed))
                }
            }
        }
    }

    private func adminCommand(_ words: [String], _ admin: any AdminStore, send: @escaping @Sendable (AdminLine) -> Void) async throws {
        func arg(_ i: Int, _ what: String) throws -> String {
            guard words.count > i else { throw AdminFailure(message: "missing \(what)\n" + Self.adminUsage, status: AdminStatus.usage) }
            return words[i]
        }
        func account(_ i: Int) async throws -> AccountRecord {
            let name = try arg(i, "USER")
            guard let a = try await admin.account(username: name) else { throw AdminFailure(message: "no user '\(name)'", status: AdminStatus.notFound) }
            return a
        }
        switch (words.first ?? "", words.count > 1 ? words[1] : "") {
        case ("users", "list"): send(.out(usersTable(try await admin.accounts())))
        case ("users", "show"):
            let a = try await account(2)
            send(.out(accountDetails(a) + "\n" + sessionsTable(try await store.sessions(userID: a.user.id))))
        case ("users", "disable"):
            let a = try await account(2)
            _ = try await admin.setDisabled(userID: a.user.id, at: max(a.disabledAt, Clock.nowMillis()))
            let closed = closeConnections(of: a.user.id, .accountDisabled(.adminDisabling))
            send(.out("\(a.user.username) is disabled: \(closed) connection(s) closed; logins and resumes are refused"))
        case ("users", "enable"):
            let a = try await account(2)
            _ = try await admin.setDisabled(userID: a.user.id, at: 0)
            send(.out("\(a.user.username) is enabled"))
        case ("users", "delete"):
            let a = try await account(2)
            guard words.count > 3 && words[3] == "--yes" else {
                throw AdminFailure(message: """
                    deleting \(a.user.username) cannot be undone: their sessions, contacts and blocks go, their name and \
                    email are freed, and the messages they sent stay in their conversations as sent by 'deleted-\(a.user.id)'. \
                    Run again with --yes to do it, or 'users disable' to keep the account.
                    """, status: AdminStatus.usage)
            }
            guard let name = try await admin.deleteAccount(userID: a.user.id, now: Clock.nowMillis()) else {
                throw AdminFailure(message: "no user '\(a.user.username)'", status: AdminStatus.notFound)
            }
            let closed = closeConnections(of: a.user.id, .accountDisabled(.adminDeleting))
            send(.out("\(a.user.username) is deleted (now \(name)): \(closed) connection(s) closed; the messages they sent stay"))
        case ("users", "reset-password"):
            return try await resetPassword(try await account(2), admin, send: send)
        case ("sessions", "list"): send(.out(sessionsTable(try await store.sessions(userID: try await account(2).user.id))))
        case ("sessions", "revoke"):
            let text = try arg(2, "session ID")
            guard let id = UInt64(text), let session = try await admin.session(id: id),
                  try await store.deleteSession(id: id, userID: session.userID) else {
                throw AdminFailure(message: "no session \(text)", status: AdminStatus.notFound)
            }
            let online = delivery.connections(of: session.userID).filter { $0.sessionID == id }.count
            closeSessions([id], of: session.userID, except: nil)
            send(.out("session \(id) revoked; \(online) connection(s) closed"))
        case ("sessions", "revoke-all"):
            let a = try await account(2)
            let ids = try await admin.deleteAllSessions(userID: a.user.id)
            let online = delivery.connections(of: a.user.id).count
            closeSessions(ids, of: a.user.id, except: nil)
            send(.out("\(ids.count) session(s) of \(a.user.username) revoked; \(online) connection(s) closed"))
        case ("backup", _): return try backup(to: try arg(1, "DEST"), admin, send: send)
        case ("online", _): send(.out(onlineTable()))
        case ("stats", _): return statistics(try await admin.statistics(), send: send)
        default:
            throw AdminFailure(message: (words.isEmpty ? "" : "unknown command '\(words.joined(separator: " "))'\n") + Self.adminUsage,
                               status: AdminStatus.usage)
        }
        send(.exit(AdminStatus.ok))
    }

    /// Closes every connection of a user with `error` (pushed with `closes`); returns how many.
    func closeConnections(of userID: UInt64, _ reason: ServerError) -> Int {
        var error = reason.frame
        error.closes = true
        let peers = delivery.connections(of: userID)
        for p in peers {
            detachUser(p)
            p.connection.close(after: error)
        }
        return peers.count
    }

    /// A random password from an alphabet without look-alikes (no 0/O, 1/l/I): 16 characters,
    /// about 90 bits. Printed once to the admin; only its hash is kept.
    static func oneTimePassword() -> String {
        let alphabet = Array("abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789")
        var generator = SystemRandomNumberGenerator()
        return String((0..<16).map { _ in alphabet[Int(generator.next(upperBound: UInt64(alphabet.count)))] })
    }

    /// The hash runs off the hub (the admin's command is the only one waiting for it).
    private func resetPassword(_ a: AccountRecord, _ admin: any AdminStore, send: @escaping @Sendable (AdminLine) -> Void) async throws {
        let password = Self.oneTimePassword()
        let rounds = configuration.pbkdf2Rounds
        let hash = await withCheckedContinuation { (done: CheckedContinuation<String, Never>) in
            passwordQueue.async { done.resume(returning: PasswordHasher.hash(password, rounds: rounds)) }
        }
        try await store.setPasswordHash(userID: a.user.id, hash)
        let ids = try await admin.deleteAllSessions(userID: a.user.id)
        closeSessions(ids, of: a.user.id, except: nil)
        logger.notice("admin: password of user \(a.user.id) reset; \(ids.count) session(s) revoked")
        send(.err("new password for \(a.user.username) (shown once, give it to them; \(ids.count) session(s) ended):"))
        send(.out(password))
        send(.exit(AdminStatus.ok))
    }

    private func statistics(_ s: StoreStatistics, send: @escaping @Sendable (AdminLine) -> Void) {
        let online = delivery.usersOnline, connections = peers.count
        let dataDirectory = configuration.dataDirectory, filesDirectory = configuration.filesDirectory
        // Walking the file store can take a while: off the hub.
        DispatchQueue.global().async {
            func bytes(_ path: String?) -> UInt64 {
                guard let path else { return 0 }
                return ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.uint64Value ?? 0
            }
            var stored: UInt64 = 0
            if let filesDirectory, let walk = FileManager.default.enumerator(atPath: filesDirectory) {
                for case let name as String in walk { stored += bytes(filesDirectory + "/" + name) }
            }
            let db = dataDirectory.map { $0 + "/messageai.sqlite" }
            send(.out(Self.table([
                ["users", "\(s.users) (\(s.disabledUsers) disabled, \(online) online on \(connections) connection(s))"],
                ["sessions", "\(s.sessions)"],
                ["conversations", "\(s.conversations)"],
                ["messages", "\(s.messages)"],
                ["files", "\(s.files) (\(Self.size(s.fileBytes)) as uploaded)"],
                ["database", "\(Self.size(s.databaseBytes)) (+ \(Self.size(bytes(db.map { $0 + "-wal" })))) write-ahead log)"],
                ["file store", "\(Self.size(stored)) on disk"],
            ])))
            send(.exit(AdminStatus.ok))
        }
    }
}
