/// The synchronous way to the SQLite store's optional capabilities, for the parts of the server
/// not yet converted to the asynchronous interface (issue 25 stage B; see `ChatServer.sqlite`).
/// The capability is still asked for (`Store.files`, `Store.admin`), never found by casting:
/// these answer nil exactly when the store says it has none. They go with the last caller.
extension ChatServer {
    var sqliteFiles: SQLiteStore? { sqlite.files == nil ? nil : sqlite }
    var sqliteAdmin: SQLiteStore? { sqlite.admin == nil ? nil : sqlite }
}
