/// How much input one connection may hold, for how long, and how much of the hub one turn of
/// its input may take: the guards against slow (slowloris) and flooding clients.
///
/// Before login only HELLO, LOGIN, REGISTER, RESUME and PING are legitimate, and the largest of
/// them (REGISTER with a 1,024-character password) fits in about 6 KiB, so a connection that
/// has not logged in may not declare a frame above `preLoginMaxFrameLength`: it cannot make the
/// server hold more than that for it. Input buffers grow with the bytes received, never with
/// the length a frame declares. Deadlines are counted from the first byte of a frame and from
/// the accept, so bytes trickled in one at a time do not extend them (the idle timeout alone
/// would be reset by every byte).
/// One instance per server, shared by its connections (a class: a reference per connection, not a copy).
final class InputLimits: Sendable {
    /// Largest frame `length` once logged in (the server's `--max-frame`).
    let maxFrameLength: Int
    /// Largest frame `length` until the connection has logged in.
    let preLoginMaxFrameLength: Int
    /// A frame must be complete this long after its first byte arrived.
    let frameTimeoutMillis: UInt64
    /// The connection must have logged in this long after it was accepted (or logged out).
    let loginTimeoutMillis: UInt64
    /// Frames handed to the server in one turn of the hub queue before the connection yields
    /// the queue to the others (and carries on at the back of it).
    let framesPerTurn: Int
    /// Time one turn of a connection's input may take before it yields, even with frames left
    /// in its budget (a few expensive requests must not hold the hub either).
    let turnNanos: UInt64

    init(_ configuration: ServerConfiguration) {
        maxFrameLength = configuration.maxFrameLength
        preLoginMaxFrameLength = min(configuration.preLoginMaxFrameLength, configuration.maxFrameLength)
        frameTimeoutMillis = configuration.frameTimeoutMillis
        loginTimeoutMillis = configuration.loginTimeoutMillis
        framesPerTurn = configuration.framesPerTurn
        turnNanos = 2_000_000
    }

    /// The limit for the next frame.
    func frameLimit(authenticated: Bool) -> Int { authenticated ? maxFrameLength : preLoginMaxFrameLength }
}
