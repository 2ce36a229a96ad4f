import Foundation
import MessageAIProtocol

/// The account rules, each failing with the error code and a message naming the rule.
enum Validation {
    static let usernameRule = "usernames are 3-32 characters of a-z, 0-9, '_', '.' and '-', not starting with '.' or '-'"
    static let maxDisplayName = 64
    static let minPassword = 8
    static let maxPassword = 1024

    static func username(_ name: String) throws(ServerError) {
        let scalars = Array(name.unicodeScalars)
        guard (3...32).contains(scalars.count) else {
            throw .invalidUsername(.length(scalars.count))
        }
        // Capitals are refused, not folded: the name a person asked for is the name they get,
        // or an error saying what to type instead. (0.1.0 took them; such accounts keep
        // working, since logins and lookups ignore case.)
        if scalars.contains(where: { ("A"..."Z").contains($0) }) {
            throw .invalidUsername(.uppercase(suggestion: name.lowercased()))
        }
        for s in scalars {
            let ok = ("a"..."z").contains(s) || ("0"..."9").contains(s) || s == "_" || s == "." || s == "-"
            guard ok else { throw .invalidUsername(.character(s)) }
        }
        if scalars[0] == "." || scalars[0] == "-" {
            throw .invalidUsername(.leadingPunctuation)
        }
    }

    /// Shape only: one '@', a non-empty local part, a dotted domain, no spaces, at most 254 bytes.
    static func email(_ email: String) throws(ServerError) {
        let parts = email.split(separator: "@", omittingEmptySubsequences: false)
        let valid = email.utf8.count <= 254 && parts.count == 2 && !parts[0].isEmpty
            && parts[1].contains(".") && !parts[1].hasPrefix(".") && !parts[1].hasSuffix(".")
            && !email.contains(where: { $0.isWhitespace })
        guard valid else { throw .invalidEmail }
    }

    static func password(_ password: String, field: String = "password") throws(ServerError) {
        let n = password.unicodeScalars.count
        guard n >= minPassword else {
            throw .weakPassword(field: field)
        }
        guard n <= maxPassword else {
            throw .tooLong(.password(max: maxPassword, field: field))
        }
    }

    /// Display names and group names: at most 64 characters, at least one visible one, and none
    /// of the characters that make a name lie about itself or break a terminal line: control
    /// characters (Unicode Cc), bidirectional controls (U+202E turns "gnp.exe" around) and line
    /// separators. Joiners and variation selectors stay (emoji sequences need them).
    /// `limit` is 64 for names; an away text has room for a sentence (200) under the same
    /// character rules, checked here once so there is one limit and one error.
    static func name(_ name: String, field: String, what: String, limit: Int = maxDisplayName) throws(ServerError) {
        let n = name.unicodeScalars.count
        guard n <= limit else {
            throw .tooLong(.name(what: what, max: limit, length: n, field: field))
        }
        if let bad = name.unicodeScalars.first(where: isForbiddenInNames) {
            throw .invalidArgument(.forbiddenCharacter(what: what, hex: hex(bad), field: field))
        }
        guard name.unicodeScalars.contains(where: isVisible) else {
            throw .invalidArgument(.noVisibleCharacter(what: what, field: field))
        }
    }

    /// An empty display name means "my username" (REGISTER and PROFILE_UPDATE).
    static func displayName(_ name: String) throws(ServerError) {
        if name.isEmpty { return }
        try Validation.name(name, field: "display_name", what: "display names")
    }

    static func groupName(_ name: String) throws(ServerError) {
        try Validation.name(name, field: "name", what: "group names")
    }

    /// HELLO's free-text client label ("messageai/0.1.0"), for logs.
    static let maxClientLabel = 128

    static func clientLabel(_ label: String) throws(ServerError) {
        guard label.unicodeScalars.count <= maxClientLabel else {
            throw .tooLong(.clientLabel(max: maxClientLabel))
        }
    }

    static func isForbiddenInNames(_ s: Unicode.Scalar) -> Bool {
        switch s.value {
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069, 0x2028, 0x2029: return true
        default: return s.properties.generalCategory == .control
        }
    }

    static func isVisible(_ s: Unicode.Scalar) -> Bool {
        switch s.properties.generalCategory {
        case .spaceSeparator, .lineSeparator, .paragraphSeparator, .control, .format, .nonspacingMark, .enclosingMark, .unassigned:
            return false
        default:
            return !s.properties.isWhitespace && !s.properties.isDefaultIgnorableCodePoint
        }
    }

    private static func hex(_ s: Unicode.Scalar) -> String {
        let h = String(s.value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - h.count)) + h
    }

    static let maxDevice = 64

    /// The free-text label of a session ("laptop").
    static func device(_ device: String) throws(ServerError) {
        guard device.unicodeScalars.count <= maxDevice else {
            throw .tooLong(.device(max: maxDevice))
        }
        if let bad = device.unicodeScalars.first(where: isForbiddenInNames) {
            throw .invalidArgument(.deviceCharacter(hex: hex(bad)))
        }
    }

    /// Members named in one GROUP_CREATE or GROUP_ADD.
    static let maxUsernamesPerRequest = 256

    static func usernameList(_ names: [String]) throws(ServerError) {
        guard names.count <= maxUsernamesPerRequest else {
            throw .invalidArgument(.tooManyUsernames(max: maxUsernamesPerRequest))
        }
    }

    /// Members of one group, the creator included.
    static let maxGroupMembers = 256
}
