extension PostgresSchema {
    /// v3: file metadata (the bytes stay on the node's disk in this issue) and the quota's
    /// counter. Columns follow the SQLite store's `files` (SchemaV7, V9).
    static let v3: [String] = [
        """
        CREATE TABLE files (
            id            BYTEA PRIMARY KEY,
            owner_id      BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
            name          TEXT NOT NULL,
            media_type    TEXT NOT NULL,
            upload_size   BIGINT NOT NULL,
            upload_sha256 BYTEA NOT NULL,
            complete      BOOLEAN NOT NULL DEFAULT false,
            size          BIGINT NOT NULL DEFAULT 0,
            sha256        BYTEA,
            width         BIGINT NOT NULL DEFAULT 0,
            height        BIGINT NOT NULL DEFAULT 0,
            thumbnail     BYTEA,
            created_at    BIGINT NOT NULL
        )
        """,
        "CREATE INDEX files_by_owner ON files(owner_id, upload_sha256)",
        "CREATE INDEX files_complete_by_hash ON files(upload_sha256) WHERE complete",
        "CREATE INDEX files_by_content ON files(sha256) WHERE complete",
        // What the quota checks, kept as a counter per user so that the check and the charge
        // are one conditional UPDATE (two nodes accepting uploads at once cannot both pass a
        // check against the same old sum): bytes of the user's files (as served when complete,
        // as announced while partial) and the number of unfinished uploads.
        """
        CREATE TABLE file_usage (
            owner_id BIGINT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
            bytes    BIGINT NOT NULL DEFAULT 0 CHECK (bytes >= 0),
            partials INTEGER NOT NULL DEFAULT 0 CHECK (partials >= 0)
        )
        """,
    ]
}
