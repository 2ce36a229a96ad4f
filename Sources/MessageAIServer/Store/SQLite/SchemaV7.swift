/// Schema v7 (`v7_files`): uploaded files and the messages that carry them.
///
/// A `files` row is one user's upload under a random 16-byte id. Its bytes live outside the
/// database (FileVault): a partial upload as `partial/ID`, a complete one as `blobs/SHA256` —
/// shared by every row with that content (dedupe). `upload_*` describe what the client
/// announced; `size`/`sha256` what is served (an image loses its metadata, so they differ).
/// `messages.attachment` is the Attachment record as sent to clients (without the thumbnail,
/// which stays in `files`), so history, sync and search read it with the message.
enum SchemaV7 {
    static let sql = """
        CREATE TABLE files (
            id            BLOB PRIMARY KEY NOT NULL,
            owner_id      INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
            name          TEXT NOT NULL,
            media_type    TEXT NOT NULL,
            upload_size   INTEGER NOT NULL,
            upload_sha256 BLOB NOT NULL,
            complete      INTEGER NOT NULL DEFAULT 0,
            size          INTEGER NOT NULL DEFAULT 0,
            sha256        BLOB,
            width         INTEGER NOT NULL DEFAULT 0,
            height        INTEGER NOT NULL DEFAULT 0,
            thumbnail     BLOB,
            created_at    INTEGER NOT NULL
        ) WITHOUT ROWID;
        -- Resuming (the same user announcing the same file) and the user's usage.
        CREATE INDEX files_by_owner ON files(owner_id, upload_sha256);
        -- Dedupe: a complete file with the announced hash.
        CREATE INDEX files_complete_by_hash ON files(upload_sha256) WHERE complete = 1;

        ALTER TABLE messages ADD COLUMN file_id BLOB;
        ALTER TABLE messages ADD COLUMN attachment BLOB;
        -- Access: which conversations hold a message referring to a file.
        CREATE INDEX messages_by_file ON messages(file_id) WHERE file_id IS NOT NULL;
        """
}
