/// Schema `v15_search_words`: the full-text index held message text as typed, which SQLite's
/// unicode61 tokenizer keeps as one word across a whole run of Chinese, Japanese or Thai, so
/// `テスト` never found `日本語のテスト`. The index now holds `search_words(text)` (SearchWords:
/// such runs as overlapping pairs). Emptying it here is enough: the store indexes every message
/// above the index's highest rowid when it opens, so all of them are indexed again, the new way,
/// before anything is served.
enum SchemaV15 {
    static let sql = """
        INSERT INTO messages_fts (messages_fts) VALUES ('delete-all');
        """
}
