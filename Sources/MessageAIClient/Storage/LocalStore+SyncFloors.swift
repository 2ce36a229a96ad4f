import Foundation
import MessageAISQLite

/// Holes below an own message (issue 26): a SEND_ACK may name a seq past messages of other
/// server nodes not received yet. The acknowledged message is stored, so the conversation's
/// position (its highest seq) is past the hole; the floor says where the next SYNC must start
/// instead. On disk, so a client killed before the fill still fills it at its next start.
extension LocalStore {
    /// Idempotent (no schema version step): a cache without it gains it at open.
    static let syncFloorsTable = """
        CREATE TABLE IF NOT EXISTS sync_floors(conversation_id INTEGER PRIMARY KEY, position INTEGER NOT NULL)
        """

    func syncFloors() throws -> [UInt64: UInt64] {
        var out: [UInt64: UInt64] = [:]
        _ = try db.query("SELECT conversation_id, position FROM sync_floors") { out[$0.uint64(0)] = $0.uint64(1) }
        return out
    }

    /// The next SYNC asks for `conversationID` from `position` at most.
    func lowerSyncFloor(_ conversationID: UInt64, to position: UInt64) throws {
        try db.run("""
            INSERT INTO sync_floors(conversation_id, position) VALUES(?, ?)
            ON CONFLICT(conversation_id) DO UPDATE SET position=min(position, excluded.position)
            """, conversationID, position)
    }

    /// A SYNC from `position` is done: the hole is filled (unless a lower one came meanwhile).
    func clearSyncFloor(_ conversationID: UInt64, at position: UInt64) throws {
        try db.run("DELETE FROM sync_floors WHERE conversation_id=? AND position=?", conversationID, position)
    }
}
