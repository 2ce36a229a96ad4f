/// A frame's type. Ranges group the product's areas; 0x06xx (files), 0x07xx (assistant) and
/// 0x08xx (server-to-server) are reserved for later versions. An unknown type is answered with
/// `unknown_frame_type` and the connection stays open.
public struct FrameType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    // Connection
    public static let hello = FrameType(rawValue: 0x0001)
    public static let welcome = FrameType(rawValue: 0x0002)
    public static let ping = FrameType(rawValue: 0x0003)
    public static let pong = FrameType(rawValue: 0x0004)
    public static let error = FrameType(rawValue: 0x0005)
    public static let ok = FrameType(rawValue: 0x0006)
    // Accounts
    public static let register = FrameType(rawValue: 0x0101)
    public static let login = FrameType(rawValue: 0x0102)
    public static let resume = FrameType(rawValue: 0x0103)
    public static let session = FrameType(rawValue: 0x0104)
    public static let logout = FrameType(rawValue: 0x0105)
    public static let sessionsList = FrameType(rawValue: 0x0106)
    public static let sessions = FrameType(rawValue: 0x0107)
    public static let sessionRevoke = FrameType(rawValue: 0x0108)
    public static let profileUpdate = FrameType(rawValue: 0x0109)
    public static let passwordChange = FrameType(rawValue: 0x010A)
    // People
    public static let userSearch = FrameType(rawValue: 0x0201)
    public static let users = FrameType(rawValue: 0x0202)
    public static let contactAdd = FrameType(rawValue: 0x0203)
    public static let contactRemove = FrameType(rawValue: 0x0204)
    public static let contactsList = FrameType(rawValue: 0x0205)
    public static let contacts = FrameType(rawValue: 0x0206)
    public static let profileGet = FrameType(rawValue: 0x0207)
    public static let profile = FrameType(rawValue: 0x0208)
    public static let contactAccept = FrameType(rawValue: 0x0209)
    public static let contactDecline = FrameType(rawValue: 0x020A)
    public static let contactUpdate = FrameType(rawValue: 0x020B)
    public static let block = FrameType(rawValue: 0x020C)
    public static let unblock = FrameType(rawValue: 0x020D)
    public static let blockedList = FrameType(rawValue: 0x020E)
    // Conversations
    public static let dmOpen = FrameType(rawValue: 0x0301)
    public static let conversation = FrameType(rawValue: 0x0302)
    public static let groupCreate = FrameType(rawValue: 0x0303)
    public static let groupAdd = FrameType(rawValue: 0x0304)
    public static let groupRename = FrameType(rawValue: 0x0305)
    public static let groupLeave = FrameType(rawValue: 0x0306)
    public static let conversationsList = FrameType(rawValue: 0x0307)
    public static let conversations = FrameType(rawValue: 0x0308)
    // Messages
    public static let send = FrameType(rawValue: 0x0401)
    public static let sendAck = FrameType(rawValue: 0x0402)
    public static let message = FrameType(rawValue: 0x0403)
    public static let mark = FrameType(rawValue: 0x0404)
    public static let receipt = FrameType(rawValue: 0x0405)
    public static let history = FrameType(rawValue: 0x0406)
    public static let historyPage = FrameType(rawValue: 0x0407)
    public static let sync = FrameType(rawValue: 0x0408)
    public static let syncBatch = FrameType(rawValue: 0x0409)
    public static let syncDone = FrameType(rawValue: 0x040A)
    public static let search = FrameType(rawValue: 0x040B)
    public static let searchResults = FrameType(rawValue: 0x040C)
    public static let readers = FrameType(rawValue: 0x040D)
    public static let readersResult = FrameType(rawValue: 0x040E)
    // Message changes (capability messageChanges)
    public static let change = FrameType(rawValue: 0x0410)
    public static let messageChange = FrameType(rawValue: 0x0411)
    // Presence
    public static let presence = FrameType(rawValue: 0x0501)
    public static let typing = FrameType(rawValue: 0x0502)
    public static let typingEvent = FrameType(rawValue: 0x0503)
    public static let away = FrameType(rawValue: 0x0504)

    public var description: String {
        "\(MessageRegistry.name(of: self) ?? "UNKNOWN")(0x\(String(rawValue, radix: 16)))"
    }
}
