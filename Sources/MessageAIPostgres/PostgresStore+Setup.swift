import PostgresNIO

/// The few writes that make users and conversations, enough for the message path and its
/// tests; the full account and conversation methods come with the port of the handlers.
extension PostgresStore {
    /// Creates a user and returns its id. Usernames and emails are unique ignoring case.
    public func createUser(username: String, email: String, displayName: String, passwordHash: String,
                           now: Int64) async throws(PostgresStoreError) -> Int64 {
        try await perform { client, logger in
            let rows = try await client.query("""
                INSERT INTO users (username, username_lower, email, email_lower, display_name, password_hash, created_at)
                VALUES (\(username), \(username.lowercased()), \(email), \(email.lowercased()), \(displayName),
                        \(passwordHash), \(now))
                RETURNING id
                """, logger: logger)
            var id: Int64?
            for try await value in rows.decode(Int64.self) { id = value }
            guard let id else { throw PostgresStoreError.failed(sqlState: nil, message: "INSERT returned no id") }
            return id
        }
    }

    /// Creates a group conversation with these members and returns its id.
    public func createGroup(name: String, memberIDs: [Int64], now: Int64) async throws(PostgresStoreError) -> Int64 {
        try await perform { client, logger in
            try await client.withTransaction(logger: logger) { db in
                guard let row = try await db.firstRow("""
                    INSERT INTO conversations (kind, name, created_at, last_activity)
                    VALUES (2, \(name), \(now), \(now)) RETURNING id
                    """, logger: logger) else {
                    throw PostgresStoreError.failed(sqlState: nil, message: "INSERT returned no id")
                }
                let id = try row.decode(Int64.self)
                try await db.query("""
                    INSERT INTO members (conversation_id, user_id, joined_at)
                    SELECT \(id), u, \(now) FROM unnest(\(memberIDs)::BIGINT[]) AS u
                    """, logger: logger)
                return id
            }
        }
    }

    /// The seqs of the conversation's stored messages, in order: what a reader would page through.
    public func messageSeqs(conversationID: Int64) async throws(PostgresStoreError) -> [Int64] {
        try await perform { client, logger in
            var seqs: [Int64] = []
            let rows = try await client.query(
                "SELECT seq FROM messages WHERE conversation_id = \(conversationID) ORDER BY seq", logger: logger)
            for try await seq in rows.decode(Int64.self) { seqs.append(seq) }
            return seqs
        }
    }
}
