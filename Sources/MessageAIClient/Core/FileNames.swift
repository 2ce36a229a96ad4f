import Foundation

/// File names that came from other people, made safe to write and to show: no directories
/// (`/`, `\`, `..`), no control or bidirectional-override characters (a name must not move the
/// cursor or reverse its extension), no leading dot (hidden files), at most 200 characters
/// with the extension kept.
public enum FileNames {
    public static let maxLength = 200

    public static func safe(_ name: String) -> String {
        var scalars = String.UnicodeScalarView()
        for u in name.unicodeScalars {
            // Joiners hold emoji sequences and some scripts together; other format characters
            // (bidirectional overrides, invisible marks) go.
            if u == "\u{200C}" || u == "\u{200D}" { scalars.append(u); continue }
            switch u.properties.generalCategory {
            case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate, .privateUse, .unassigned:
                continue
            default:
                scalars.append(u == "/" || u == "\\" ? "_" : u)
            }
        }
        var s = String(scalars).trimmingCharacters(in: .whitespaces)
        while s.hasPrefix(".") { s.removeFirst() }
        s = s.trimmingCharacters(in: .whitespaces)
        if s.isEmpty { return "file" }
        guard s.count > maxLength else { return s }
        let ext = (s as NSString).pathExtension
        let keep = ext.isEmpty || ext.count > 16 ? "" : "." + ext
        return String(s.prefix(maxLength - keep.count)) + keep
    }

    /// A media type from the extension, for the announce (the server decides for images).
    public static func mediaType(of path: String) -> String {
        switch (path as NSString).pathExtension.lowercased() {
        case "png": return "image/png"
        case "jpg", "jpeg": return "image/jpeg"
        case "webp": return "image/webp"
        case "gif": return "image/gif"
        case "pdf": return "application/pdf"
        case "txt", "log", "md": return "text/plain"
        case "json": return "application/json"
        case "zip": return "application/zip"
        case "gz", "tgz": return "application/gzip"
        case "mp4": return "video/mp4"
        case "mp3": return "audio/mpeg"
        default: return "application/octet-stream"
        }
    }

    /// `dir/name`, or `dir/name (2).ext` ... when taken: /save never overwrites.
    public static func unused(_ name: String, in dir: String) -> String {
        let ext = (name as NSString).pathExtension
        let stem = ext.isEmpty ? name : String(name.dropLast(ext.count + 1))
        var candidate = dir + "/" + name
        var n = 2
        while FileManager.default.fileExists(atPath: candidate) {
            candidate = dir + "/" + stem + " (\(n))" + (ext.isEmpty ? "" : "." + ext)
            n += 1
        }
        return candidate
    }
}
