// The product's vocabularies: the kinds and actions that both the wire protocol and the store
// speak. They live apart from both so that the store's records need no wire types and the
// protocol no store: MessageAIProtocol re-exports this module, so its users see no change.
// No I/O, no dependencies. The raw values are the wire's and the schemas' (never renumber).

/// A conversation between two users, or a named group.
public enum ConversationKind: UInt64, Sendable {
    case direct = 1
    case group = 2
}

/// What a change does to its target message.
public enum ChangeAction: UInt64, Sendable, CaseIterable {
    case react = 1
    case unreact = 2
    case edit = 3
    case delete = 4

    public var name: String {
        switch self {
        case .react: return "react"
        case .unreact: return "unreact"
        case .edit: return "edit"
        case .delete: return "delete"
        }
    }
}

/// What an item records.
public enum AssistItemKind: UInt64, Sendable, CaseIterable {
    case action = 1
    case decision = 2
}

/// Which items ASSIST_ITEMS_LIST wants.
public enum AssistItemFilter: UInt64, Sendable, CaseIterable {
    /// Not done yet (the default).
    case open = 0
    /// Open and done.
    case all = 1
    /// Open items whose owner is the asking user, or everyone.
    case mine = 2
}
