import Foundation
import MessageAIProtocol

/// The account rules, each failing with the error code and a message naming the rule.
enum Validation {
    static let usernameRule = "usernames are 3-32 characters of a-z, 0-9, '_', '.' and '-', not starting with '.' or '-'"
    static let maxDisplayName = 64
    static let minPassword = 8
    static let maxPassword = 1024

    static func username(_ name: String) throws(ErrorFrame) {
        let scalars = Array(name.unicodeScalars)
        guard (3...32).contains(scalars.count) else {
            throw ErrorFrame(.invalidUsername, "\(usernameRule) (got \(scalars.count) characters)", field: "username")
        }
        for s in scalars {
            let ok = ("a"..."z").contains(s) || ("A"..."Z").contains(s) || ("0"..."9").contains(s) || s == "_" || s == "." || s == "-"
            guard ok else { throw ErrorFrame(.invalidUsername, "\(usernameRule) ('\(s)' is not allowed)", field: "username") }
        }
        if scalars[0] == "." || scalars[0] == "-" {
            throw ErrorFrame(.invalidUsername, usernameRule, field: "username")
        }
    }

    /// Shape only: one '@', a non-empty local part, a dotted domain, no spaces, at most 254 bytes.
    static func email(_ email: String) throws(ErrorFrame) {
        let parts = email.split(separator: "@", omittingEmptySubsequences: false)
        let valid = email.utf8.count <= 254 && parts.count == 2 && !parts[0].isEmpty
            && parts[1].contains(".") && !parts[1].hasPrefix(".") && !parts[1].hasSuffix(".")
            && !email.contains(where: { $0.isWhitespace })
        guard valid else { throw ErrorFrame(.invalidEmail, "email must look like name@example.org", field: "email") }
    }

    static func password(_ password: String, field: String = "password") throws(ErrorFrame) {
        let n = password.unicodeScalars.count
        guard n >= minPassword else {
            throw ErrorFrame(.weakPassword, "passwords need at least \(minPassword) characters", field: field)
        }
        guard n <= maxPassword else {
            throw ErrorFrame(.tooLong, "passwords are at most \(maxPassword) characters", limit: UInt64(maxPassword), field: field)
        }
    }

    static func displayName(_ name: String) throws(ErrorFrame) {
        guard name.unicodeScalars.count <= maxDisplayName else {
            throw ErrorFrame(.tooLong, "display names are at most \(maxDisplayName) characters", limit: UInt64(maxDisplayName), field: "display_name")
        }
        guard !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw ErrorFrame(.invalidArgument, "display names cannot contain control characters", field: "display_name")
        }
    }

    static let maxDevice = 64

    /// The free-text label of a session ("laptop").
    static func device(_ device: String) throws(ErrorFrame) {
        guard device.unicodeScalars.count <= maxDevice else {
            throw ErrorFrame(.tooLong, "device names are at most \(maxDevice) characters", limit: UInt64(maxDevice), field: "device")
        }
    }

    /// Members named in one GROUP_CREATE or GROUP_ADD.
    static let maxUsernamesPerRequest = 256

    static func usernameList(_ names: [String]) throws(ErrorFrame) {
        guard names.count <= maxUsernamesPerRequest else {
            throw ErrorFrame(.invalidArgument, "at most \(maxUsernamesPerRequest) usernames per request", limit: UInt64(maxUsernamesPerRequest), field: "usernames")
        }
    }

    static func groupName(_ name: String) throws(ErrorFrame) {
        let trimmed = name.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { throw ErrorFrame(.invalidArgument, "a group needs a name", field: "name") }
        guard name.unicodeScalars.count <= maxDisplayName else {
            throw ErrorFrame(.tooLong, "group names are at most \(maxDisplayName) characters", limit: UInt64(maxDisplayName), field: "name")
        }
    }
}
