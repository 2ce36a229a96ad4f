import Foundation

/// Every command, in the order /help lists them. Shared checks (login, argument count,
/// waiting for the server) run once in `CommandRunner`, not in each handler.
public enum CommandTable {
    public static let all: [CommandSpec] =
        AccountCommands.specs + SessionCommands.specs + PeopleCommands.specs + PrivacyCommands.specs + ConversationCommands.specs
        + MessageCommands.specs + ChangeCommands.specs + FileCommands.specs + AvatarCommands.specs + PresenceCommands.specs + AttentionCommands.specs + AssistantCommands.specs + ServerAssistantCommands.specs + CatchUpCommands.specs
        + SettingsCommands.specs + TimeZoneCommands.specs + ScriptCommands.specs + ServerCommands.specs

    static let byName: [String: CommandSpec] = Dictionary(all.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })

    /// Commands that take a subcommand word ("/group create").
    public static let groupNames: Set<String> = Set(all.compactMap { $0.name.split(separator: " ").count > 1 ? String($0.name.split(separator: " ")[0]) : nil })

    public static func spec(_ name: String) -> CommandSpec? { byName[name] }

    /// Command words for tab completion ("/group" once, then its subcommands).
    public static var words: [String] {
        Array(Set(all.map { String($0.name.split(separator: " ")[0]) })).sorted()
    }
}

extension Client {
    func commandUsage(_ name: String) -> String { CommandTable.spec(name)?.usage ?? name }
}
