import MessageAIProtocol
@testable import MessageAIServer
import XCTest

/// The output queue's frame-edge bookkeeping and the limiters, without sockets.
final class OutputBufferTests: XCTestCase {
    func testDroppingUnstartedFramesKeepsTheStreamWhole() throws {
        for written in [0, 1, 11, 12, 13, 700, 1_000, 2_999] {
            var buffer = OutputBuffer()
            var starts: [Int] = []
            var offset = 0
            for i in 0..<10 {
                for frame in [Ping().frame(requestID: UInt32(i)), Hello(capabilities: [], client: String(repeating: "x", count: 280)).frame(requestID: 99)] {
                    buffer.append(frame)
                    starts.append(offset)
                    offset += frame.encoded().count
                }
            }
            var wire: [UInt8] = []
            buffer.drain { bytes in
                let n = min(written, bytes.count)
                wire += bytes.prefix(n)
                return n
            }
            buffer.dropUnstartedFrames()
            buffer.append(ErrorFrame(.outputOverflow, "full").frame(requestID: 0))
            buffer.drain { bytes in wire += bytes; return bytes.count }
            XCTAssertTrue(buffer.isEmpty)

            var decoder = FrameDecoder()
            decoder.feed(wire)
            var frames: [Frame] = []
            while let f = try decoder.next() { frames.append(f) }
            XCTAssertEqual(decoder.bufferedByteCount, 0, "after \(written) bytes: no half frame left")
            XCTAssertEqual(frames.last?.type, .error, "after \(written) bytes")
            XCTAssertEqual(frames.count - 1, starts.filter { $0 < written }.count, "frames started survive whole, the rest is dropped")
        }
    }

    func testRateLimiterRefillsOverTheWindow() {
        var limiter = RateLimiter(limit: 3, windowSeconds: 3)
        XCTAssertNil(limiter.take(user: 1, now: 0))
        XCTAssertNil(limiter.take(user: 1, now: 0))
        XCTAssertNil(limiter.take(user: 1, now: 0))
        XCTAssertEqual(limiter.take(user: 1, now: 0), 1_000)
        XCTAssertNil(limiter.take(user: 2, now: 0), "buckets are per user")
        XCTAssertNil(limiter.take(user: 1, now: 1_000))
        XCTAssertNotNil(limiter.take(user: 1, now: 1_000))
    }

    func testFailureCounterGrowsItsDelaysAndForgets() {
        var c = FailureCounter(freeFailures: 2, maxDelayMillis: 8_000, forgetAfterMillis: 60_000)
        c.recordFailure("k", now: 0)
        XCTAssertNil(c.retryAfter("k", now: 10))
        c.recordFailure("k", now: 100)
        XCTAssertEqual(c.retryAfter("k", now: 200), 900, "1 s after the last failure")
        XCTAssertNil(c.retryAfter("k", now: 1_100))
        c.recordFailure("k", now: 1_100)
        XCTAssertEqual(c.retryAfter("k", now: 1_100), 2_000, "then 2 s")
        for t in [3_100, 7_100, 15_100, 23_100] as [UInt64] { c.recordFailure("k", now: t) }
        XCTAssertEqual(c.retryAfter("k", now: 23_100), 8_000, "capped")
        XCTAssertNil(c.retryAfter("other", now: 200))
        XCTAssertNil(c.retryAfter("k", now: 23_100 + 60_000), "forgotten")
        c.recordFailure("k", now: 90_000)
        XCTAssertNil(c.retryAfter("k", now: 90_000), "a forgotten key starts again with free failures")
    }

    func testLoginThrottleSparesTheUsualAddress() {
        var t = LoginThrottle(pairFailures: 2, accountFailures: 3, addressFailures: 4)
        t.recordSuccess(account: "user:1", address: "10.0.0.1")
        for i in 0..<10 { t.recordFailure(account: "user:1", address: "10.0.0.\(2 + i % 2)", now: UInt64(i)) }
        XCTAssertNotNil(t.retryAfter(account: "user:1", address: "10.0.0.9", now: 10), "a new address waits")
        XCTAssertNil(t.retryAfter(account: "user:1", address: "10.0.0.1", now: 10), "the usual address does not")
        XCTAssertNil(t.retryAfter(account: "user:2", address: "10.0.0.1", now: 10))
    }

    func testPasswordHashVerifiesAndRefusesWeakParameters() {
        let hash = PasswordHasher.hash("open sesame")
        XCTAssertTrue(PasswordHasher.verify("open sesame", against: hash))
        XCTAssertFalse(PasswordHasher.verify("open sesamE", against: hash))
        let weak = hash.replacingOccurrences(of: "$600000$", with: "$1000$")
        XCTAssertFalse(PasswordHasher.verify("open sesame", against: weak), "a stored hash with too few rounds is refused")
        XCTAssertNotEqual(PasswordHasher.hash("open sesame"), hash, "salted")
    }
}
