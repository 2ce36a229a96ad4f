/// Schema `v16_user_name_words`: user search finds a display name by any of its words, as Slack
/// and Signal do ("Nguyen" found nobody: only username prefixes were searched). The words are
/// `search_words(display_name)`, folded by the same tokenizer as messages; the store writes a
/// user's row when it creates the user and when the name changes.
enum SchemaV16 {
    static let sql = """
        CREATE VIRTUAL TABLE users_fts USING fts5(name, tokenize = 'unicode61 remove_diacritics 2');
        INSERT INTO users_fts (rowid, name) SELECT id, search_words(display_name) FROM users;
        """
}
