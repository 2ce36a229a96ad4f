/// Records of people, privacy and the admin capability, field for field the SQLite store's
/// (`ContactLink`, `Membership`, `AccountRecord`, `StoreStatistics` in MessageAIServer).
extension PostgresStore {
    /// How two users stand, seen from `me`: who wants whom, whether I declined their request,
    /// and who blocks whom.
    public struct ContactLink: Sendable, Equatable {
        public var iWant = false
        public var theyWant = false
        public var declinedByMe = false
        public var iBlock = false
        public var theyBlock = false

        public init(iWant: Bool = false, theyWant: Bool = false, declinedByMe: Bool = false, iBlock: Bool = false,
                    theyBlock: Bool = false) {
            self.iWant = iWant; self.theyWant = theyWant; self.declinedByMe = declinedByMe
            self.iBlock = iBlock; self.theyBlock = theyBlock
        }

        /// Both want each other: presence, last seen and the full profile are shared.
        public var accepted: Bool { iWant && theyWant }
        public var blocked: Bool { iBlock || theyBlock }
        public var sharesPresence: Bool { accepted && !blocked }
    }

    /// A member's standing in a conversation, as SEND, MARK and TYPING need it.
    public struct Membership: Sendable, Equatable {
        /// The member holds it as a message request.
        public var pending: Bool
        /// In a direct conversation where either side blocks the other: the other member.
        public var blockedPartner: Int64?

        public init(pending: Bool, blockedPartner: Int64?) {
            self.pending = pending; self.blockedPartner = blockedPartner
        }
    }

    /// An account as the admin sees it.
    public struct Account: Sendable, Equatable {
        public var user: User
        /// When it was disabled (ms), 0 when it is not.
        public var disabledAt: Int64
        public var disabled: Bool { disabledAt != 0 }
    }

    /// Counts for `admin stats`.
    public struct Statistics: Sendable, Equatable {
        public var users = 0
        public var disabledUsers = 0
        public var conversations = 0
        /// Messages not deleted.
        public var messages = 0
        public var sessions = 0
        /// Complete files, and their bytes as served (each upload counted).
        public var files = 0
        public var fileBytes: Int64 = 0
        /// `pg_database_size` of the store's database (tables, indexes, TOAST; not the WAL).
        public var databaseBytes: Int64 = 0
    }
}
