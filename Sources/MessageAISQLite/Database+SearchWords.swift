import CSQLite
import MessageAISearch

/// `search_words(text)`: `SearchWords.indexText` as an SQL function, so the statements and
/// triggers that fill a full-text index cut the text in Swift, the same way everywhere,
/// without reading every row out of SQL and back.
extension Database {
    func defineSearchWords() throws {
        let rc = sqlite3_create_function_v2(handle, "search_words", 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC, nil,
                                            { context, count, values in
            guard count == 1, let value = values?[0], let text = sqlite3_value_text(value) else {
                sqlite3_result_null(context)
                return
            }
            // By its byte length: a NUL inside the text must not end it early.
            let bytes = UnsafeBufferPointer(start: text, count: Int(sqlite3_value_bytes(value)))
            var words = SearchWords.indexText(String(decoding: bytes, as: UTF8.self))
            words.withUTF8 { out in
                guard let base = out.baseAddress, !out.isEmpty else { sqlite3_result_text(context, "", 0, sqliteTransient); return }
                base.withMemoryRebound(to: CChar.self, capacity: out.count) {
                    sqlite3_result_text(context, $0, Int32(out.count), sqliteTransient)
                }
            }
        }, nil, nil, nil)
        if rc != SQLITE_OK { throw error(rc, sql: "create function search_words") }
    }
}
