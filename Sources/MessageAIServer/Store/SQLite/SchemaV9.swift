/// Schema `v9_avatars`: profile pictures, group avatars, and finding a blob's rows by content.
///
/// An avatar is a `files` row of its own (a 128 px square JPEG the server made from the
/// user's upload), owned by whoever set it; `users.avatar_file_id` and
/// `conversations.avatar_file_id` point at it (NULL: none). Replacing or removing one deletes
/// the old row, and the blob goes once no row holds its content (FileVault's collection).
enum SchemaV9 {
    static let sql = """
        ALTER TABLE users ADD COLUMN avatar_file_id BLOB;
        ALTER TABLE conversations ADD COLUMN avatar_file_id BLOB;
        -- Blob collection: is any complete row still serving this content?
        CREATE INDEX files_by_content ON files(sha256) WHERE complete = 1;
        -- Access to an avatar, and whether a file row is still an avatar.
        CREATE INDEX users_by_avatar ON users(avatar_file_id) WHERE avatar_file_id IS NOT NULL;
        CREATE INDEX conversations_by_avatar ON conversations(avatar_file_id) WHERE avatar_file_id IS NOT NULL;
        """
}
