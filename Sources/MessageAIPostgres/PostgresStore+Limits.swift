import Logging
import MessageAIStore
import PostgresNIO

/// `LimitStore` on PostgreSQL: every node on the database counts in the same rows
/// (PostgresSchema+V10.swift), one function call per question, bind parameters only.
extension PostgresStore: LimitStore {
    public var limits: LimitStore? { self }

    public func setSendLimit(_ limit: SendLimit?) {
        sendLimit.withLock { $0 = limit }
    }

    var currentSendLimit: SendLimit? { sendLimit.withLock { $0 } }

    public func takeTokens(_ key: String, count: Int, limit: SendLimit) async throws(StoreError) -> (granted: Int, retryAfter: UInt64) {
        let capacity = Double(Swift.max(limit.limit, 1)), window = Int64(clamping: limit.windowMillis), wanted = Int32(clamping: count)
        return try await perform { client, logger in
            guard let row = try await client.firstRow("""
                SELECT granted, wait FROM messageai_take_tokens(\(key), \(wanted), \(capacity), \(window))
                """, logger: logger) else {
                throw PostgresStoreError.failed(sqlState: nil, message: "take_tokens: no answer")
            }
            let (granted, wait) = try row.decode((Int32, Int64).self)
            return (Int(granted), UInt64(Swift.max(wait, 0)))
        }
    }

    public func beginPasswordCheck(_ keys: LoginKeys, policy: FailurePolicy) async throws(StoreError) -> PasswordCheckStart {
        let free = [policy.pairFailures, policy.accountFailures, policy.addressFailures].map { Int32(clamping: $0) }
        let maxDelay = Int64(clamping: policy.maxDelayMillis), forget = Int64(clamping: policy.forgetAfterMillis)
        return try await perform { client, logger in
            guard let row = try await client.firstRow("""
                SELECT wait, shared FROM messageai_login_begin(\(keys.account), \(keys.address), \(free), \(maxDelay), \(forget))
                """, logger: logger) else {
                throw PostgresStoreError.failed(sqlState: nil, message: "login_begin: no answer")
            }
            let (wait, shared) = try row.decode((Int64, Bool).self)
            return wait > 0 ? .wait(UInt64(wait)) : .counted(shared: shared)
        }
    }

    public func endPasswordCheck(_ keys: LoginKeys, shared: Bool, _ end: PasswordCheckEnd,
                                 policy: FailurePolicy) async throws(StoreError) {
        let forget = Int64(clamping: policy.forgetAfterMillis), usual = Int32(clamping: policy.usualAddresses)
        try await perform { client, logger in
            _ = try await client.query("""
                SELECT messageai_login_end(\(keys.account), \(keys.address), \(shared), \(end.rawValue), \(forget), \(usual))
                """, logger: logger)
        }
    }

    public func purgeLimits() async throws(StoreError) -> Int {
        try await perform { client, logger in
            let now = "(extract(epoch FROM clock_timestamp()) * 1000)::bigint"
            var deleted = 0
            for table in ["limit_buckets WHERE full_at", "login_failures WHERE forget_at"] {
                // Constant SQL: no value of anyone's in it.
                let rows = try await client.allRows(PostgresQuery(unsafeSQL: "DELETE FROM \(table) < \(now) RETURNING 1"), logger: logger)
                deleted += rows.count
            }
            return deleted
        }
    }
}
