import XCTest

extension ClientRunner {
    /// `a` asks, `b` accepts: a direct conversation between them is then no message request,
    /// so read markers flow both ways.
    func makeContacts(_ a: String, _ b: String) throws {
        let ask = try run(a, ["/add \(b)"])
        XCTAssertEqual(ask.status, 0, "\(a) /add \(b): \(ask.err)")
        let accept = try run(b, ["/accept \(a)"])
        XCTAssertEqual(accept.status, 0, "\(b) /accept \(a): \(accept.err)")
    }
}
