import MessageAIProtocol

/// What a handler that needs a login is given, built by the dispatcher from its table: the
/// logged-in user (not optional: the dispatcher refused the frame otherwise), the session, the
/// connection and the request id. Built per frame on the hub queue; `user` is the account as
/// it was when the frame arrived.
struct RequestContext: Sendable {
    let peer: Peer
    let user: UserRecord
    let sessionID: UInt64
    let requestID: UInt32

    var userID: UInt64 { user.id }

    /// The success answer (none for request id 0).
    func reply<M: WireMessage>(_ message: M, compress: Bool = false) {
        peer.reply(requestID, message, compress: compress)
    }
}
