/// Schema `v14_disabled_users` (issue 27): an admin can disable an account. The account and its
/// messages stay; its connections close, and logins and resumes are refused while it is set.
/// Nonzero is when it was disabled (ms), zero an account in use.
enum SchemaV14 {
    static let sql = """
        ALTER TABLE users ADD COLUMN disabled_at INTEGER NOT NULL DEFAULT 0;
        """
}
