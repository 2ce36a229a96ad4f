import Foundation

/// The config file, `$XDG_CONFIG_HOME/messageai/config` (else `~/.config/messageai/config`):
/// one `key = value` a line, `#` comments and blank lines kept as they are. /set rewrites only
/// the line of the key it changes (or appends one), so a file edited by hand stays as written.
/// A line that cannot be used (unknown key, bad value) is kept and reported, never dropped.
public struct SettingsFile {
    public let path: String
    private(set) var lines: [String]

    public static func defaultPath() -> String { TLSSettings.defaultConfigDir() + "/config" }

    static let header = [
        "# messageai settings: one \"key = value\" a line; /set KEY VALUE changes them from the client,",
        "# /help set lists the keys. Lines starting with # are comments and are kept.",
    ]

    /// Reads the file; a missing file is an empty one.
    public init(path: String) throws {
        self.path = path
        if FileManager.default.fileExists(atPath: path) {
            let text = try String(contentsOfFile: path, encoding: .utf8)
            lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            if lines.last == "" { lines.removeLast() }
        } else {
            lines = []
        }
    }

    /// `key = value` of a line, or nil for comments, blanks and lines without "=".
    static func entry(_ line: String) -> (key: String, value: String)? {
        let t = line.trimmingCharacters(in: .whitespaces)
        guard !t.isEmpty, !t.hasPrefix("#"), let eq = t.firstIndex(of: "=") else { return nil }
        let key = t[..<eq].trimmingCharacters(in: .whitespaces)
        var value = t[t.index(after: eq)...].trimmingCharacters(in: .whitespaces)
        // A value may be quoted to keep spaces at its ends.
        if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") { value = String(value.dropFirst().dropLast()) }
        return key.isEmpty ? nil : (key, value)
    }

    /// Applies every usable line to `config`; returns one problem per line that is not usable.
    public func apply(to config: inout ClientConfiguration) -> [String] {
        var problems: [String] = []
        for (n, line) in lines.enumerated() {
            let t = line.trimmingCharacters(in: .whitespaces)
            if t.isEmpty || t.hasPrefix("#") { continue }
            guard let (key, value) = SettingsFile.entry(line) else {
                problems.append("\(path):\(n + 1): not a \"key = value\" line; ignored")
                continue
            }
            guard let spec = Settings.spec(key) else {
                problems.append("\(path):\(n + 1): unknown setting '\(key)'; ignored (/help set lists them)")
                continue
            }
            guard let v = spec.normalise(value) else {
                problems.append("\(path):\(n + 1): \(spec.key) must be \(spec.allowed); '\(value)' ignored")
                continue
            }
            spec.apply(&config, v)
        }
        return problems
    }

    /// Sets `key` to `value` in the file: its last line is rewritten in place (the one that
    /// wins when read), or a line is added at the end.
    mutating func set(_ key: String, _ value: String) {
        let quoted = value != value.trimmingCharacters(in: .whitespaces) || value.isEmpty ? "\"\(value)\"" : value
        let line = "\(key) = \(quoted)"
        if let i = lines.lastIndex(where: { SettingsFile.entry($0).flatMap { Settings.spec($0.key)?.key } == key }) {
            lines[i] = line
        } else {
            if lines.isEmpty { lines = SettingsFile.header }
            lines.append(line)
        }
    }

    /// Writes the file atomically (a crash leaves the old or the new one), creating its directory.
    func save() throws {
        try AtomicFile.makeDirectory((path as NSString).deletingLastPathComponent)
        try AtomicFile.write(Data((lines.joined(separator: "\n") + "\n").utf8), to: path)
    }
}
