import Foundation

/// Which profile picture each user has, as last heard from the server (a profile, the contact
/// list, or the push of a new picture), by lowercased username: the picture's bytes live in
/// the download cache under its id, and this says which id is whose, so a profile or a
/// conversation header shows the picture offline too. A small JSON file beside the store
/// rather than a table: it is a cache that may be lost (it refills from the next contact
/// list), and it needs no change of the store's schema.
struct AvatarBook {
    let path: String
    private(set) var ids: [String: String]

    init(path: String) {
        self.path = path
        let data = FileManager.default.contents(atPath: path)
        ids = data.flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: String] } ?? [:]
    }

    /// The picture's id (hex) for `username`, nil for none or unknown.
    func id(of username: String) -> String? { ids[username.lowercased()] }

    /// Records `username`'s picture (empty id: none); true when that changed what was known.
    @discardableResult
    mutating func remember(_ username: String, _ fileID: [UInt8]) -> Bool {
        let key = username.lowercased(), hex = fileID.isEmpty ? nil : Hex.encode(fileID)
        guard ids[key] != hex else { return false }
        ids[key] = hex
        // Best effort: a lost write means the picture is fetched again, nothing worse.
        if let data = try? JSONSerialization.data(withJSONObject: ids, options: [.sortedKeys]) {
            try? AtomicFile.write(data, to: path)
        }
        return true
    }
}
